/// An I²C bus as chip drivers see it: register reads and writes addressed to a 7-bit chip address.
///
/// Implementations must guarantee:
/// - ``readRegisters(address:startingAt:count:)`` is one combined transaction (register number, repeated
///   start, read), so no other master's transfer can come between the two; which registers the chip returns
///   after the first (auto-increment, a FIFO port that does not increment) is the chip's business.
/// - A chip that does not acknowledge its address is ``I2CBusError/noAcknowledge(bus:address:)``; any other
///   failure is ``I2CBusError/transferFailed(bus:address:register:errno:)``.
/// - Calls may come from any thread, one at a time per driver.
///
/// ``LinuxI2CBus`` is the real bus (`/dev/i2c-N`); the test-support target has a register-level emulation.
public protocol I2CBus: AnyObject, Sendable {
    /// Where the bus is, for messages: `/dev/i2c-1`, or an emulation's name.
    var name: String { get }

    /// Reads `count` bytes starting at `register` of the chip at `address`.
    /// - Parameters:
    ///   - address: 7-bit chip address.
    ///   - register: first register (chips that need a flag for auto-increment, such as the LIS3MDL's bit 7,
    ///     get it from their driver in this number).
    ///   - count: bytes to read, 1...4096.
    func readRegisters(address: UInt8, startingAt register: UInt8, count: Int) throws(I2CBusError) -> [UInt8]

    /// Writes `bytes` to the chip at `address`, starting at `register`.
    /// - Parameters:
    ///   - address: 7-bit chip address.
    ///   - register: first register written (for a chip with a command protocol, the command byte).
    ///   - bytes: the data; empty for a write of the register byte alone (a command, ``sendCommand(address:_:)``).
    func writeRegisters(address: UInt8, startingAt register: UInt8, bytes: [UInt8]) throws(I2CBusError)
}

extension I2CBus {
    /// Reads one register.
    /// - Parameters:
    ///   - address: 7-bit chip address.
    ///   - register: the register.
    public func readRegister(address: UInt8, _ register: UInt8) throws(I2CBusError) -> UInt8 {
        try readRegisters(address: address, startingAt: register, count: 1)[0]
    }

    /// Writes one command byte and nothing else: how chips without registers (the MS5837, the MS5611
    /// family) are told to reset or to start a conversion.
    /// - Parameters:
    ///   - address: 7-bit chip address.
    ///   - command: the command byte.
    public func sendCommand(address: UInt8, _ command: UInt8) throws(I2CBusError) {
        try writeRegisters(address: address, startingAt: command, bytes: [])
    }

    /// Writes one register.
    /// - Parameters:
    ///   - address: 7-bit chip address.
    ///   - register: the register.
    ///   - value: its new value.
    public func writeRegister(address: UInt8, _ register: UInt8, _ value: UInt8) throws(I2CBusError) {
        try writeRegisters(address: address, startingAt: register, bytes: [value])
    }
}
