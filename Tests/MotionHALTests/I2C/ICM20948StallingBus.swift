import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization

/// A bus that passes everything to an emulated one but can hold up one FIFO_COUNT read (a host that did
/// not get round to reading the chip in time).
final class ICM20948StallingBus: I2CBus {
    let inner: EmulatedI2CBus
    /// The time a held-up read blocks on.
    let time: TestTime
    private let stall = Mutex<Double?>(nil)

    init(_ inner: EmulatedI2CBus, time: TestTime) {
        self.inner = inner
        self.time = time
    }

    var name: String { inner.name }

    /// Delays the next read of FIFO_COUNTH (0x70) by `seconds`.
    func stallNextFIFOCountRead(seconds: Double) { stall.withLock { $0 = seconds } }

    func readRegisters(address: UInt8, startingAt register: UInt8, count: Int) throws(I2CBusError) -> [UInt8] {
        if register == 0x70, let seconds = stall.withLock({ state -> Double? in defer { state = nil }; return state }) {
            time.stall(seconds)
        }
        return try inner.readRegisters(address: address, startingAt: register, count: count)
    }

    func writeRegisters(address: UInt8, startingAt register: UInt8, bytes: [UInt8]) throws(I2CBusError) {
        try inner.writeRegisters(address: address, startingAt: register, bytes: bytes)
    }
}
