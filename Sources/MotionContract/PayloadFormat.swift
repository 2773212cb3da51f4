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

    /// The MQTT 5 content type of a payload in this format.
    public var contentType: String {
        switch self {
        case .json: "application/json"
        case .cbor: "application/cbor"
        }
    }

    /// The format a payload is written in, by its first byte (a CBOR map: 0xA0–0xBF).
    public static func of(_ payload: some Collection<UInt8>) -> PayloadFormat {
        guard let first = payload.first, (0xA0...0xBF).contains(first) else { return .json }
        return .cbor
    }
}
