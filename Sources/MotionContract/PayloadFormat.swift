/// How a data topic's payloads are written: JSON (the default) or CBOR (RFC 8949), the same data model in
/// fewer bytes (`services.{service}.format` in the agent's configuration).
///
/// A CBOR payload is a map, so its first byte is 0xA0–0xBF; a JSON payload starts with `{` or white
/// space. ``SamplePayloadDecoder`` tells them apart by that byte, so subscribers over MQTT 3.1.1 (no
/// content type) read both too.
public enum PayloadFormat: String, Sendable, Equatable, CaseIterable {
    /// Text, `application/json`.
    case json
    /// Binary, `application/cbor`: the JSON form's maps, keys and values, with measurements as
    /// single-precision floats and times as double-precision ones.
    case cbor
    /// A Sensor Measurement List (RFC 8428) in JSON, `application/senml+json`: the sample services only
    /// (since contract 1.9; ``SenMLPack``).
    case senmlJSON = "senml+json"
    /// A Sensor Measurement List in CBOR with SenML's integer labels, `application/senml+cbor`.
    case senmlCBOR = "senml+cbor"

    /// The MQTT 5 content type of a payload in this format.
    public var contentType: String {
        switch self {
        case .json: "application/json"
        case .cbor: "application/cbor"
        case .senmlJSON: "application/senml+json"
        case .senmlCBOR: "application/senml+cbor"
        }
    }

    /// The contract's own forms, JSON and CBOR: every payload has them (SenML only the sample topics').
    public static let nativeForms: [PayloadFormat] = [.json, .cbor]

    /// Whether the payload is a SenML pack rather than the contract's own maps.
    public var isSenML: Bool { self == .senmlJSON || self == .senmlCBOR }

    /// The contract's own form in the same encoding: JSON for `json` and `senml+json`, CBOR for the others
    /// (what a payload that has no SenML form, an event or a status, is written in).
    public var nativeForm: PayloadFormat {
        switch self {
        case .json, .senmlJSON: .json
        case .cbor, .senmlCBOR: .cbor
        }
    }

    /// The format a payload is written in, by its first byte: a CBOR map (0xA0–0xBF) or array (0x80–0x9F,
    /// SenML), a JSON array (`[`, SenML), otherwise a JSON object.
    public static func of(_ payload: some Collection<UInt8>) -> PayloadFormat {
        switch payload.first {
        case .some(0xA0...0xBF): .cbor
        case .some(0x80...0x9F): .senmlCBOR
        case .some(UInt8(ascii: "[")): .senmlJSON
        default: .json
        }
    }
}
