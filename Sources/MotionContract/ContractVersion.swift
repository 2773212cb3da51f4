/// The version of the MQTT contract this module speaks (docs/MQTT-CONTRACT.md): topics, payload keys,
/// units and semantics. A subscriber built against version `major.minor` reads every payload of the same
/// major version: minor versions only add optional fields and topics; a major version changes or removes
/// something and is announced in the contract's changelog.
public enum ContractVersion {
    /// The major version: 1.
    public static let major = 1
    /// The minor version.
    public static let minor = 9
    /// `major.minor`, e.g. `1.1`.
    public static var text: String { "\(major).\(minor)" }
}
