#if canImport(Glibc)
import Glibc
#endif

/// The board's network hardware address, a stable identity of the board itself (SenML's `urn:dev:mac:`
/// names, RFC 9039).
public enum NetworkHardwareAddress {
    /// The 48-bit address of the first interface by name that has one and is a device (a directory
    /// `device` beside `address`: a physical NIC, not a bridge, a VPN or loopback); failing that, of the
    /// first non-loopback interface with a non-zero address; `nil` when none has.
    /// - Parameter sysfsRoot: the kernel's `/sys/class/net` (a fake tree in tests).
    public static func primary(sysfsRoot: String = "/sys/class/net") -> [UInt8]? {
        guard let directory = opendir(sysfsRoot) else { return nil }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix("."), name != "lo" { names.append(name) }
        }
        closedir(directory)
        var fallback: [UInt8]?
        for name in names.sorted() {
            guard let text = try? RegularFile.read("\(sysfsRoot)/\(name)/address", maximumSize: 128),
                let address = parse(String(decoding: text, as: UTF8.self)), address.contains(where: { $0 != 0 })
            else { continue }
            if access("\(sysfsRoot)/\(name)/device", F_OK) == 0 { return address }
            if fallback == nil { fallback = address }
        }
        return fallback
    }

    /// `aa:bb:cc:dd:ee:ff` (a trailing line break allowed) as six bytes; `nil` otherwise.
    public static func parse(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: "\n").first.map { $0.split(separator: ":", omittingEmptySubsequences: false) } ?? []
        guard parts.count == 6 else { return nil }
        let bytes = parts.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        return bytes.count == 6 ? bytes : nil
    }

    /// The 64-bit form RFC 9039's `urn:dev:mac:` takes, lower-case hex: a 48-bit address with `ffff`
    /// inserted after its third byte (`00:24:be:80:4f:f1` → `0024beffff804ff1`, RFC 9039's example).
    public static func eui64Text(_ address: [UInt8]) -> String {
        let bytes = address.count == 6 ? Array(address[0..<3]) + [0xFF, 0xFF] + Array(address[3..<6]) : address
        return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
