#if canImport(Glibc)
import CLinuxIO
import Glibc

/// A Linux I²C adapter, `/dev/i2c-N` (kernel module `i2c-dev`), used through the `I2C_RDWR` ioctl so a
/// register read is one combined transaction.
///
/// The file is opened in `init` and closed when the bus is released.
public final class LinuxI2CBus: I2CBus {
    /// The device path, e.g. `/dev/i2c-1`.
    public let name: String
    private let descriptor: Int32

    /// Opens an adapter.
    /// - Parameter path: its device file, e.g. `/dev/i2c-1`.
    /// - Throws: ``I2CBusError/cannotOpen(bus:errno:)`` when it is missing or unreadable, or when it is not an
    ///   I²C adapter able to do plain transfers (errno `ENOTTY` or `EOPNOTSUPP`).
    public init(path: String) throws(I2CBusError) {
        name = path
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(bus: path, errno: errno) }
        let supported = clinuxio_i2c_supports_transfers(descriptor)
        guard supported == 1 else {
            close(descriptor)
            throw .cannotOpen(bus: path, errno: supported < 0 ? -supported : EOPNOTSUPP)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    public func readRegisters(address: UInt8, startingAt register: UInt8, count: Int) throws(I2CBusError) -> [UInt8] {
        precondition((1...4096).contains(count), "an I2C read of \(count) bytes")
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBufferPointer {
            clinuxio_i2c_read_registers(descriptor, UInt16(address), register, $0.baseAddress, UInt16(count))
        }
        guard result == 0 else { throw failure(-result, address: address, register: register) }
        return bytes
    }

    public func writeRegisters(address: UInt8, startingAt register: UInt8, bytes: [UInt8]) throws(I2CBusError) {
        precondition(bytes.count < 4096, "an I2C write of \(bytes.count) bytes")
        let message = [register] + bytes
        let result = message.withUnsafeBufferPointer {
            clinuxio_i2c_write(descriptor, UInt16(address), $0.baseAddress, UInt16($0.count))
        }
        guard result == 0 else { throw failure(-result, address: address, register: register) }
    }

    /// The error for a failed transfer: adapters report a missing acknowledge as `ENXIO` or `EREMOTEIO`.
    private func failure(_ code: Int32, address: UInt8, register: UInt8) -> I2CBusError {
        code == ENXIO || code == EREMOTEIO
            ? .noAcknowledge(bus: name, address: address)
            : .transferFailed(bus: name, address: address, register: register, errno: code)
    }
}
#endif
