#if canImport(Glibc)
import Glibc
#endif
import MotionHAL
import Synchronization

/// An I²C bus in memory for driver tests: routes each transfer to the ``EmulatedI2CChip`` attached at its
/// address and answers like a Linux adapter otherwise (no acknowledge for an empty address), with fault
/// injection: failing transfers, a chip that disappears, and a log of every transfer.
public final class EmulatedI2CBus: I2CBus {
    /// What ``I2CBus/name`` reports.
    public let name: String

    /// One transfer as the bus saw it.
    public struct Transfer: Sendable, Equatable {
        /// Whether it was a read (`false`: a write).
        public var isRead: Bool
        /// 7-bit chip address.
        public var address: UInt8
        /// First register.
        public var register: UInt8
        /// Bytes read or written.
        public var bytes: [UInt8]
    }

    private struct Attachment {
        var chip: any EmulatedI2CChip
        /// Whether the chip answers now (for example a magnetometer behind a bypass switch).
        var isReachable: @Sendable () -> Bool
    }

    private struct State {
        var chips: [UInt8: Attachment] = [:]
        var failuresToInject = 0
        var failureErrno: Int32 = 0
        var log: [Transfer] = []
        var isLogging = false
    }

    private let state = Mutex(State())

    /// Creates an empty bus.
    /// - Parameter name: the name it reports, default `emulated-i2c`.
    public init(name: String = "emulated-i2c") {
        self.name = name
    }

    /// Attaches `chip` at `address`, replacing what was there.
    /// - Parameters:
    ///   - chip: the emulated chip.
    ///   - address: 7-bit address.
    ///   - isReachable: whether it answers at the moment of each transfer (default: always).
    public func attach(
        _ chip: any EmulatedI2CChip, at address: UInt8, isReachable: @escaping @Sendable () -> Bool = { true }
    ) {
        state.withLock { $0.chips[address] = Attachment(chip: chip, isReachable: isReachable) }
    }

    /// Removes the chip at `address`: from now on nothing acknowledges there (a device pulled off the bus).
    public func detach(address: UInt8) {
        state.withLock { _ = $0.chips.removeValue(forKey: address) }
    }

    /// Makes the next `count` transfers fail with `errno` (default `EIO`, a bus error).
    public func failNextTransfers(_ count: Int, errno code: Int32 = EIO) {
        state.withLock {
            $0.failuresToInject = count
            $0.failureErrno = code
        }
    }

    /// Starts or stops recording every transfer in ``transfers``.
    public var isLogging: Bool {
        get { state.withLock { $0.isLogging } }
        set { state.withLock { $0.isLogging = newValue } }
    }

    /// The transfers recorded while ``isLogging`` was on.
    public var transfers: [Transfer] { state.withLock { $0.log } }

    public func readRegisters(address: UInt8, startingAt register: UInt8, count: Int) throws(I2CBusError) -> [UInt8] {
        let chip = try route(address: address, register: register)
        let bytes = chip.read(startingAt: register, count: count)
        precondition(bytes.count == count, "an emulated chip answered \(bytes.count) bytes to a read of \(count)")
        record(Transfer(isRead: true, address: address, register: register, bytes: bytes))
        return bytes
    }

    public func writeRegisters(address: UInt8, startingAt register: UInt8, bytes: [UInt8]) throws(I2CBusError) {
        let chip = try route(address: address, register: register)
        chip.write(startingAt: register, bytes: bytes)
        record(Transfer(isRead: false, address: address, register: register, bytes: bytes))
    }

    private func route(address: UInt8, register: UInt8) throws(I2CBusError) -> any EmulatedI2CChip {
        let (attachment, failure) = state.withLock { state -> (Attachment?, Int32?) in
            if state.failuresToInject > 0 {
                state.failuresToInject -= 1
                return (nil, state.failureErrno)
            }
            return (state.chips[address], nil)
        }
        if let failure { throw .transferFailed(bus: name, address: address, register: register, errno: failure) }
        guard let attachment, attachment.isReachable() else { throw .noAcknowledge(bus: name, address: address) }
        return attachment.chip
    }

    private func record(_ transfer: Transfer) {
        state.withLock { if $0.isLogging { $0.log.append(transfer) } }
    }
}
