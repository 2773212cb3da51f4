#if canImport(Glibc)
import Glibc
#endif

/// The board's network hardware address, a stable identity of the board itself (SenML's `urn:dev:mac:`
/// names, RFC 9039).
public enum NetworkHardwareAddress {
    /// The 48-bit address of the first interface by name whose address is the hardware's own: assigned
    /// permanently (`addr_assign_type` 0, where the kernel says) and universally administered (bit 1 of the
    /// first byte clear), preferring a device (a directory `device` beside `address`: a NIC, not a bridge
    /// or a VPN); `nil` when none is. A random or locally administered address (a USB gadget's, a
    /// container's, a bridge's) can change from boot to boot, so it does not name the board.
    /// - Parameter sysfsRoot: the kernel's `/sys/class/net` (a fake tree in tests).
    public static func primary(sysfsRoot: String = "/sys/class/net") -> [UInt8]? {
        var fallback: [UInt8]?
        for name in DirectoryListing.names(in: sysfsRoot) where name != "lo" && !name.hasPrefix(".") {
            func text(_ file: String) -> String? {
                (try? RegularFile.read("\(sysfsRoot)/\(name)/\(file)", maximumSize: 128)).map { String(decoding: $0, as: UTF8.self) }
            }
            guard let address = text("address").flatMap(parse), address.contains(where: { $0 != 0 }),
                address[0] & 0x02 == 0, text("addr_assign_type").map({ $0.hasPrefix("0") }) ?? true
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
