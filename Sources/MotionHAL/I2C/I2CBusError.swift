#if canImport(Glibc)
import Glibc
#endif

/// Why an I²C bus could not be opened or a transfer failed.
public enum I2CBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bus device could not be opened (missing, no permission, not an I²C adapter).
    case cannotOpen(bus: String, errno: Int32)
    /// The chip did not acknowledge its address: absent, unpowered, or on another address.
    case noAcknowledge(bus: String, address: UInt8)
    /// A transfer failed for another reason (`errno` from the kernel).
    case transferFailed(bus: String, address: UInt8, register: UInt8, errno: Int32)

    /// A one-line explanation naming the bus, the address (hexadecimal) and the system's reason.
    public var description: String {
        switch self {
        case .cannotOpen(let bus, let code):
            "cannot open I2C bus \(bus): \(Self.reason(code))"
        case .noAcknowledge(let bus, let address):
            "no chip answers at address \(Self.hex(address)) on \(bus)"
        case .transferFailed(let bus, let address, let register, let code):
            "I2C transfer to \(Self.hex(address)) register \(Self.hex(register)) on \(bus) failed: \(Self.reason(code))"
        }
    }

    /// `0x68` for 104.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    private static func reason(_ code: Int32) -> String {
        #if canImport(Glibc)
        if let text = strerror(code) { return "\(String(cString: text)) (errno \(code))" }
        #endif
        return "errno \(code)"
    }
}
