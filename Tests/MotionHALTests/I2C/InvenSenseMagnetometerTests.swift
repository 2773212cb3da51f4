import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// The MPU-9250's AK8963: bypass, fuse ROM adjustment, axes, overflow.
@Suite struct InvenSenseMagnetometerTests {
    /// 0.15 µT per LSB times the largest adjustment of the default fuse ROM (ASA 177: 1.19).
    private let oneLSB = 0.15 * 1.2

    @Test func theMagnetometerIsReachableOnlyInBypassMode() throws {
        let (bus, _) = InvenSenseTestSupport.bus(.mpu9250)
        #expect(throws: I2CBusError.noAcknowledge(bus: "emulated-i2c", address: 0x0C)) {
            try bus.readRegister(address: 0x0C, 0x00)
        }
        try bus.writeRegister(address: 0x68, 0x37, 0x02)
        #expect(try bus.readRegister(address: 0x0C, 0x00) == 0x48)
        try bus.writeRegister(address: 0x68, 0x6A, 0x20)  // I2C_MST_EN takes the auxiliary bus back
        #expect(throws: I2CBusError.noAcknowledge(bus: "emulated-i2c", address: 0x0C)) {
            try bus.readRegister(address: 0x0C, 0x00)
        }
    }

    @Test func theFieldComesOutInTheAccelerometerAxesWithTheFuseROMApplied() throws {
        // The emulation stores the field in the AK8963's axes (x ↔ y, z reversed), divided by this chip's
        // sensitivity (ASA 176, 177, 165: 19 %, 19 % and 14 % more sensitive than nominal).
        let field = SIMD3<Double>(21.5, -34.2, 47.9)
        let time = TestTime.manual()
        let (driver, bus, chip) = InvenSenseTestSupport.driver(.mpu9250, motion: .atRest(magneticField: field), time: time)
        #expect(chip.magnetometer?.sensitivityAdjustment == SIMD3(176, 177, 165))
        bus.isLogging = true
        try driver.start(sampleRate: 200)
        defer { driver.stop() }
        #expect(
            InvenSenseTestSupport.writes(bus, to: 0x0C) == [[0x0B, 0x01], [0x0A, 0x0F], [0x0A, 0x00], [0x0A, 0x16]],
            "soft reset, fuse ROM access, power-down, continuous mode 2 with 16-bit output")
        let fuseROMRead = bus.transfers.first { $0.isRead && $0.address == 0x0C && $0.register == 0x10 }
        #expect(fuseROMRead?.bytes == [176, 177, 165])
        #expect(chip.magnetometer?.mode == 0x06)

        let run = InvenSenseTestSupport.poll(driver, for: 0.3, time: time)
        #expect(run.errors.isEmpty, "\(run.errors)")
        let fields = run.samples.compactMap(\.magneticField)
        // 100 Hz, at most one per burst: about 30 in 0.3 s.
        #expect(fields.count >= 20 && fields.count <= run.bursts, "\(fields.count) fields in \(run.bursts) bursts")
        for measured in fields {
            #expect(maxDifference(measured, field) <= oneLSB, "\(measured) for \(field)")
        }
        #expect(run.samples.count >= 50, "every sample still has accelerometer and gyroscope")
    }

    @Test func anOverflowIsDroppedAndReportedOnce() throws {
        // 6000 µT for the first 0.25 s after start (|X| + |Y| + |Z| ≥ 4912 µT sets HOFL), then the Earth's field.
        let strongUntil = Atomic<UInt64>(UInt64.max)
        let earth = SIMD3<Double>(0, 20, -40)
        let motion = EmulatedMotion { time in
            IMUSample(
                timestamp: time, acceleration: SIMD3(0, 0, 9.80665), rotationRate: .zero,
                magneticField: time < strongUntil.load(ordering: .relaxed) ? SIMD3(3000, 2000, -1000) : earth)
        }
        let time = TestTime.manual()
        let (driver, _, _) = InvenSenseTestSupport.driver(.mpu9250, motion: motion, time: time)
        try driver.start(sampleRate: 200)
        defer { driver.stop() }
        strongUntil.store(time.now + 250_000_000, ordering: .relaxed)
        let strong = InvenSenseTestSupport.poll(driver, for: 0.2, time: time)
        #expect(strong.errors.count == 1, "\(strong.errors)")
        if case .readFailed(let why) = strong.errors.first {
            #expect(why.contains("ST2 HOFL"))
        } else {
            Issue.record("expected an overflow report, got \(strong.errors)")
        }
        #expect(strong.samples.allSatisfy { $0.magneticField == nil })
        // The FIFO is not lost: about 40 samples in 0.2 s at 200 Hz.
        #expect(strong.samples.count >= 30, "\(strong.samples.count) samples")

        time.pass(0.1)
        let calm = InvenSenseTestSupport.poll(driver, for: 0.2, time: time)
        #expect(calm.errors.isEmpty, "\(calm.errors)")
        let fields = calm.samples.compactMap(\.magneticField)
        #expect(fields.count >= 10)
        #expect(fields.allSatisfy { maxDifference($0, earth) <= oneLSB })
    }

    @Test func theEmulatedAK8963SignalsReadyAndOverrun() throws {
        let time = TestTime.manual()
        let (bus, _) = InvenSenseTestSupport.bus(.mpu9250, motion: .atRest(magneticField: SIMD3(15, -30, 45)), time: time)
        try bus.writeRegister(address: 0x68, 0x37, 0x02)
        #expect(try bus.readRegisters(address: 0x0C, startingAt: 0x10, count: 3) == [0, 0, 0], "fuse ROM closed")
        try bus.writeRegister(address: 0x0C, 0x0A, 0x16)
        time.pass(0.035)
        #expect(try bus.readRegister(address: 0x0C, 0x02) == 0x03, "ST1: DRDY and DOR after three unread measurements")
        let data = try bus.readRegisters(address: 0x0C, startingAt: 0x03, count: 7)
        #expect(try bus.readRegister(address: 0x0C, 0x02) == 0x00, "reading ST2 ended the read")
        #expect(data[6] == 0x10, "ST2: BITM (16-bit), no HOFL")
        // The AK8963's x is the MPU's y: −30 µT / (0.15 µT × (177 − 128) / 256 + 0.15 µT)
        let x = Double(Int16(bitPattern: UInt16(data[1]) << 8 | UInt16(data[0])))
        #expect(x == (-30 / (0.15 * ((177.0 - 128) / 256 + 1))).rounded())
    }
}
