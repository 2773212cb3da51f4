import MotionHAL

/// How SenML packs name the device (`senml` in the configuration; since contract 1.9): every pack's base
/// name is `{base_name}{service}:`.
public struct SenMLSettings: Sendable, Equatable {
    /// The configured base name; `nil`: made from the board's hardware address and the device ID,
    /// `urn:dev:mac:{EUI-64}_{device_id}:` (RFC 9039's `mac` form with the device as its component).
    public var baseName: String?

    /// The defaults.
    public init(baseName: String? = nil) {
        self.baseName = baseName
    }

    /// The fields of `senml`.
    static let fields: Set<String> = ["base_name"]

    /// `senml` of `root`, checked: a base name must read as the start of a SenML name (RFC 8428 section
    /// 4.5.1: a letter or digit, then letters, digits and `-:./_`).
    /// - Throws: ``ConfigurationError`` naming `senml.base_name`.
    static func parse(from root: ConfigurationReader) throws(ConfigurationError) -> SenMLSettings {
        guard let entry = try root.object("senml") else { return SenMLSettings() }
        try entry.rejectUnknownKeys(fields)
        guard let name = try entry.string("base_name") else { return SenMLSettings() }
        guard isValidName(name), name.utf8.count <= 200 else {
            throw ConfigurationError(
                fieldPath: entry.fieldPath("base_name"),
                reason: "must start with a letter or digit and use only letters, digits and - : . / _ (at most 200), "
                    + "for example \"urn:dev:mac:0024beffff804ff1_pump-7:\"")
        }
        return SenMLSettings(baseName: name)
    }

    /// The base name in force for `deviceID`: the configured one, or one made from the board's hardware
    /// address; `nil` when neither is there.
    /// - Parameters:
    ///   - deviceID: the device's ID.
    ///   - hardwareAddress: the board's 48-bit address (``NetworkHardwareAddress/primary(sysfsRoot:)``).
    public func resolvedBaseName(deviceID: String, hardwareAddress: [UInt8]?) -> String? {
        if let baseName { return baseName }
        guard let hardwareAddress else { return nil }
        return "urn:dev:mac:\(NetworkHardwareAddress.eui64Text(hardwareAddress))_\(deviceID):"
    }

    /// Whether `name` is a valid SenML name (RFC 8428 section 4.5.1).
    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || "-:./_".utf8.contains($0) }
    }
}
