#if canImport(Glibc)
import Glibc
#endif
/// Device identifiers as the MQTT contract defines them: lower-case, `[a-z0-9_-]` only.
public enum DeviceIdentifier {
    /// `name` lower-cased, with every character outside `[a-z0-9_-]` replaced by `-`.
    public static func sanitized(_ name: String) -> String {
        String(name.lowercased().map { character in
            character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-")
                ? character : "-"
        })
    }

    /// The default identifier: this machine's host name, sanitised.
    public static func fromHostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "device" }
        let hostName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return sanitized(hostName.split(separator: ".").first.map(String.init) ?? "device")
    }

    /// Whether `identifier` is already in the contract's form and usable as one topic level.
    public static func isValid(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier == sanitized(identifier)
    }
}
