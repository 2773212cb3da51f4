import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The ICM-20948 emulation behaves as the datasheet describes, independently of the driver: the tests the
/// driver's tests rely on.
@Suite struct ICM20948EmulationTests {
    /// The chips' time: advanced by the tests instead of waiting.
    let time: ManualClock
    let bench: ICM20948TestBench
    var bus: EmulatedI2CBus { bench.bus }

    init() {
        let time = ManualClock()
        self.time = time
        bench = ICM20948TestBench(
            motion: .atRest(acceleration: SIMD3(0, 0, 9.80665), rotationRate: SIMD3(0, 0, 0)), time: .manual(time))
    }

    private func write(_ register: UInt8, _ bytes: UInt8...) throws {
        try bus.writeRegisters(address: 0x68, startingAt: register, bytes: bytes)
    }

    private func read(_ register: UInt8, count: Int = 1) throws -> [UInt8] {
        try bus.readRegisters(address: 0x68, startingAt: register, count: count)
    }

    /// Wakes the chip at 1125 Hz (divider 0) with the accelerometer and gyroscope FIFO on.
    private func startFIFO(mode: UInt8) throws {
        try write(0x06, 0x01)
        try write(0x67, 0x1E, 0x1F, mode)
        try write(0x68, 0x00)
        try write(0x03, 0x40)
    }

    @Test func deviceResetRestoresResetValuesAndBankZero() throws {
        #expect(try read(0x06) == [0x41], "asleep with the automatic clock at power-on")
        try write(0x7F, 0x20)
        try write(0x01, 0x07)
        #expect(try read(0x01) == [0x07])
        try write(0x7F, 0x00)
        try write(0x00, 0x12)  // WHO_AM_I is read-only
        #expect(try read(0x00) == [0xEA])
        try write(0x06, 0x01)
        try write(0x0F, 0x02)
        try write(0x06, 0x80)
        #expect(try read(0x06) == [0x41], "DEVICE_RESET cleared itself, the chip sleeps again")
        #expect(try read(0x7F) == [0x00] && bench.chip.peek(bank: 2, 0x01) == 0x01 && bench.chip.peek(bank: 0, 0x0F) == 0)
    }

    @Test func dividersFilterChoiceAndSleepDecideTheRate() throws {
        #expect(bench.chip.outputDataRate == nil)
        try write(0x06, 0x01)
        #expect(bench.chip.outputDataRate == 1125)
        try write(0x7F, 0x20)
        try write(0x00, 9)
        #expect(bench.chip.outputDataRate == 112.5)
        try write(0x01, 0x00)  // FCHOICE 0: filter and divider bypassed
        #expect(bench.chip.outputDataRate == 9000)
        try write(0x7F, 0x00)
        try write(0x07, 0x07)  // gyroscope off: the accelerometer's rate
        #expect(bench.chip.outputDataRate == 1125)
        try write(0x06, 0x41)
        #expect(bench.chip.outputDataRate == nil)
    }

    @Test func dataRegistersIncrementAndSaturate() throws {
        bench.chip.motion = .atRest(acceleration: SIMD3(3 * 9.80665, -3 * 9.80665, 9.80665), rotationRate: SIMD3(0.01, 0, 0))
        try write(0x06, 0x01)
        time.advance(by: 0.005)
        // ±2 g: 16384 counts per g, saturated at the int16 limits; ±250 °/s: 0.01 rad/s is 75.1 → 75 counts.
        #expect(try read(0x2D, count: 8) == [0x7F, 0xFF, 0x80, 0x00, 0x40, 0x00, 0x00, 0x4B])
    }

    @Test func fifoPortPopsWithoutIncrementing() throws {
        try startFIFO(mode: 0)
        time.advance(by: 0.01)
        let countBytes = try read(0x70, count: 2)
        let count = Int(countBytes[0]) << 8 | Int(countBytes[1])
        #expect(count == 11 * 12, "11 frames of 12 bytes in 10 ms at 1125 Hz")
        #expect(try read(0x72, count: 24) == Array(repeating: [0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0], count: 2).flatMap { $0 })
        try write(0x03, 0x00)  // FIFO off: nothing more comes in
        let left = bench.chip.fifoCount
        _ = try read(0x72, count: left)
        #expect(try read(0x70, count: 2) == [0, 0])
        #expect(try read(0x72, count: 2) == [0xFF, 0xFF], "an empty FIFO reads 0xFF")
    }

    @Test func streamModeOverflowDropsTheOldestBytes() throws {
        try startFIFO(mode: 0)
        time.advance(by: 0.06)  // 67 frames into a 42-frame FIFO
        #expect(try read(0x70, count: 2) == [0x02, 0x00], "512 bytes")
        // FIFO off: a loaded machine must not overflow it again between the two status reads.
        try write(0x03, 0x00)
        #expect(try read(0x1B) == [0x01])
        #expect(try read(0x1B) == [0x00], "INT_STATUS_2 clears when read")
        // 512 = 42 frames + 8 bytes: the oldest whole frame lost its first 4 bytes.
        #expect(try read(0x72, count: 4) == [0x40, 0x00, 0x00, 0x00])
    }

    @Test func snapshotModeOverflowKeepsTheOldestFrames() throws {
        try startFIFO(mode: 1)
        time.advance(by: 0.06)
        #expect(try read(0x1B) == [0x01])
        #expect(try read(0x72, count: 12) == [0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func magnetometerAnswersOnlyThroughTheBypass() throws {
        #expect(throws: I2CBusError.noAcknowledge(bus: "emulated-i2c", address: 0x0C)) {
            try bus.readRegisters(address: 0x0C, startingAt: 0x00, count: 2)
        }
        try write(0x0F, 0x02)
        #expect(try bus.readRegisters(address: 0x0C, startingAt: 0x00, count: 2) == [0x48, 0x09])
        try write(0x03, 0x20)  // I²C master on: the bypass is cut
        #expect(throws: I2CBusError.self) { try bus.readRegisters(address: 0x0C, startingAt: 0x00, count: 2) }
    }

    @Test func magnetometerModesStatusAndReset() throws {
        let magnetometer = EmulatedAK09916(motion: .atRest(magneticField: SIMD3(15, -30, 4000)), now: time.nanosecondSource)
        magnetometer.write(startingAt: 0x31, bytes: [0x01])  // single measurement
        time.advance(by: 0.015)
        #expect(magnetometer.mode == 0, "back in power-down after the measurement")
        let measurement = magnetometer.read(startingAt: 0x10, count: 9)
        // ST1 DRDY; 15 µT = 100, −30 µT = −200, 4000 µT = 26667 counts, little-endian; ST2 HOFL (4045 µT < 4912 µT: no).
        #expect(measurement == [0x01, 0x64, 0x00, 0x38, 0xFF, 0x2B, 0x68, 0x00, 0x00])
        #expect(magnetometer.read(startingAt: 0x10, count: 1) == [0x00], "reading ST2 ended the read and cleared DRDY")

        magnetometer.motion = .atRest(magneticField: SIMD3(4000, 1000, 0))
        magnetometer.write(startingAt: 0x31, bytes: [0x08])  // continuous 100 Hz
        time.advance(by: 0.035)
        let status = magnetometer.read(startingAt: 0x10, count: 9)
        #expect(status[0] == 0x03, "DRDY and DOR: measurements were not read in time")
        #expect(status[8] == 0x08, "HOFL: |X| + |Y| + |Z| ≥ 4912 µT")
        magnetometer.write(startingAt: 0x32, bytes: [0x01])  // soft reset
        #expect(magnetometer.mode == 0 && magnetometer.read(startingAt: 0x10, count: 1) == [0x00])
    }
}
