import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The ICM-20948 driver against its register-level emulation: identification, bank switching, values,
/// ranges, rates, FIFO overflow and the magnetometer.
@Suite struct ICM20948DriverTests {
    typealias Bench = ICM20948TestBench
    static let g = 9.80665
    /// ±8 g over 2¹⁵, m/s².
    static let accelerometerCount = 8 * g / 32768
    /// ±2000 °/s over 2¹⁵, rad/s.
    static let gyroscopeCount = 2000 * Double.pi / 180 / 32768

    // MARK: Identification

    @Test(arguments: [UInt8(0x68), 0x69])
    func probeRecognisesTheChip(address: UInt8) throws {
        let bench = Bench(address: address)
        let driver = try bench.driver()
        #expect(driver.info.driver == "icm20948")
        #expect(driver.info.chip.contains("ICM-20948") && driver.info.chip.contains(Bench.hex(address)))
        #expect(driver.info.sensors == .all)
        #expect(driver.info.accelerometerRange == 8 * Self.g)
        #expect(abs(driver.info.gyroscopeRange! - 2000 * .pi / 180) < 1e-12)
        #expect(driver.info.magnetometerRange == 4912)
        #expect(driver.info.supportedSampleRates == 1125.0 / 256...1125)
        #expect(driver.info.defaultSampleRate == 225)
    }

    @Test func probeSelectsBankZeroBeforeReadingWhoAmI() throws {
        let bench = Bench()
        try bench.bus.writeRegister(address: 0x68, 0x7F, 0x20)  // left in bank 2 by someone else
        bench.bus.isLogging = true
        _ = try bench.driver()
        let writes = bench.bus.transfers.filter { !$0.isRead }
        #expect(writes.map(\.register) == [0x7F] && writes.first?.bytes == [0x00])
        #expect(bench.chip.selectedBank == 0)
    }

    @Test func probeWritesNothingWhenTheBankIsAlreadySelected() throws {
        let bench = Bench()
        bench.bus.isLogging = true
        _ = try bench.driver()
        let registers = bench.bus.transfers.map { transfer in (transfer.isRead, transfer.register) }
        #expect(registers.map(\.0) == [true, true] && registers.map(\.1) == [0x7F, 0x00])
    }

    @Test func anotherChipIsNotTakenForAnICM20948() throws {
        let bench = Bench(whoAmI: 0x71)  // an MPU-9250's identity
        bench.bus.isLogging = true
        #expect(try I2CChipModel.icm20948.probe(bench.bus, 0x68) == nil)
        let written = bench.bus.transfers.filter { !$0.isRead }
        #expect(written.isEmpty, "a probe that does not recognise the chip writes nothing")
        // Not `#expect { } throws: { guard case … }`: Swift 6.0's type checker crashes on it.
        let error = expectError(IMUDeviceError.self) { try bench.device(ICM20948Configuration()) }
        if case .unavailable(let why)? = error { #expect(why.contains("none of the supported chips (icm20948)")) } else { Issue.record("\(String(describing: error))") }
    }

    @Test func emptyAddressIsUnavailable() throws {
        let bus = EmulatedI2CBus()
        #expect(throws: IMUDeviceError.unavailable("no chip answers at address 0x68 on emulated-i2c")) {
            try I2CChipModel.icm20948.probe(bus, 0x68)
        }
        #expect(throws: IMUDeviceError.unavailable("no chip answers at address 0x69 on emulated-i2c")) {
            try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x69)
        }
    }

    // MARK: Banks

    @Test func registersAreWrittenInTheirBanksWithoutNeedlessBankSelection() throws {
        let bench = Bench()
        let driver = try bench.driver()
        bench.bus.isLogging = true
        try driver.start(sampleRate: 225)
        var bank: UInt8 = 0
        var bankSelections = 0
        var writes: [String] = []
        for transfer in bench.bus.transfers where transfer.address == 0x68 && !transfer.isRead {
            if transfer.register == 0x7F {
                #expect(transfer.bytes[0] >> 4 != bank, "REG_BANK_SEL rewritten with the bank already selected")
                bank = transfer.bytes[0] >> 4
                bankSelections += 1
            } else {
                writes.append("\(bank):\(Bench.hex(transfer.register))=" + transfer.bytes.map(Bench.hex).joined(separator: ","))
            }
        }
        #expect(bankSelections == 2, "to bank 2 for the sensor configuration and back to bank 0")
        // Divider 4 (225 Hz) for both sensors; GYRO_CONFIG_1: DLPFCFG 3 (51.2 Hz), ±2000 °/s, FCHOICE;
        // ACCEL_CONFIG: DLPFCFG 2 (111.4 Hz), ±8 g, FCHOICE.
        let expected: [String] = [
            "0:0x06=0x80", "0:0x06=0x01", "0:0x07=0x00", "2:0x00=0x04,0x1f", "2:0x10=0x00,0x04", "2:0x14=0x15",
            "0:0x0f=0x02", "0:0x67=0x1e,0x1f,0x00", "0:0x68=0x00", "0:0x03=0x40",
        ]
        #expect(writes == expected)
        #expect(bench.chip.peek(bank: 2, 0x01) == 0x1F && bench.chip.peek(bank: 2, 0x14) == 0x15)
        #expect(bench.chip.peek(bank: 2, 0x00) == 4 && bench.chip.peek(bank: 2, 0x11) == 4)
        #expect(bench.chip.peek(bank: 0, 0x06) == 0x01, "awake with the automatic clock")
        #expect(bench.chip.isBypassOpen)
        #expect(bench.chip.magnetometer.mode == 0x08, "AK09916 in continuous mode 4, 100 Hz")

        // Reading stays in bank 0.
        let logged = bench.bus.transfers.count
        bench.time.pass(0.03)
        _ = try driver.readSamples()
        #expect(bench.bus.transfers.dropFirst(logged).allSatisfy { $0.register != 0x7F })
        driver.stop()
        #expect(bench.chip.peek(bank: 0, 0x06) & 0x40 != 0, "asleep after stop")
        #expect(bench.chip.magnetometer.mode == 0)
    }

    // MARK: Values

    @Test func valuesAtRestAreExactToHalfACount() throws {
        let bench = Bench()
        let driver = try bench.driver()
        try driver.start(sampleRate: 225)
        let samples = try collectSamples(from: driver, for: 0.2, time: bench.time)
        driver.stop()
        #expect(samples.count > 30)
        for sample in samples {
            #expect(maxDifference(sample.acceleration, SIMD3(0, 0, Self.g)) <= Self.accelerometerCount / 2)
            #expect(maxDifference(sample.rotationRate, .zero) == 0)
        }
        let fields = samples.compactMap(\.magneticField)
        #expect(fields.count >= 10)
        #expect(fields.allSatisfy { maxDifference($0, SIMD3(0, 20, -40)) <= 0.075 + 1e-9 })
    }

    @Test func valuesInARotatedOrientationTurningAtAKnownRate() throws {
        // Rolled 30° and pitched −20°: gravity's reaction in the chip's axes; turning about all three axes.
        let roll = 30.0 * .pi / 180, pitch = -20.0 * .pi / 180
        let force = Self.g * SIMD3(-sin(pitch), sin(roll) * cos(pitch), cos(roll) * cos(pitch))
        let rate = SIMD3(0.35, -1.2, 2.5)
        let field = SIMD3(12.3, -31.7, 27.9)
        let bench = Bench(motion: .atRest(acceleration: force, rotationRate: rate, magneticField: field))
        let driver = try bench.driver()
        try driver.start(sampleRate: 225)
        let samples = try collectSamples(from: driver, for: 0.2, time: bench.time)
        driver.stop()
        #expect(samples.count > 30)
        for sample in samples {
            #expect(maxDifference(sample.acceleration, force) <= Self.accelerometerCount / 2 + 1e-12)
            #expect(maxDifference(sample.rotationRate, rate) <= Self.gyroscopeCount / 2 + 1e-12)
        }
        let fields = samples.compactMap(\.magneticField)
        #expect(!fields.isEmpty && fields.allSatisfy { maxDifference($0, field) <= 0.075 + 1e-9 })
    }

    @Test func rangeSettingsReachTheRegistersAndTheScale() throws {
        for accelerometerRange in ICM20948Configuration.AccelerometerRange.allCases {
            for gyroscopeRange in ICM20948Configuration.GyroscopeRange.allCases {
                let bench = Bench()
                let configuration = ICM20948Configuration(accelerometerRange: accelerometerRange, gyroscopeRange: gyroscopeRange)
                let driver = try bench.driver(configuration)
                try driver.start(sampleRate: 225)
                #expect(bench.chip.peek(bank: 2, 0x14) >> 1 & 0x03 == accelerometerRange.rawValue)
                #expect(bench.chip.peek(bank: 2, 0x01) >> 1 & 0x03 == gyroscopeRange.rawValue)
                #expect(driver.info.accelerometerRange == accelerometerRange.standardGravities * Self.g)
                #expect(driver.info.gyroscopeRange == gyroscopeRange.degreesPerSecond * .pi / 180)
                driver.stop()
            }
        }
        // The finest scales resolve what ±8 g and ±2000 °/s cannot.
        let force = SIMD3(0.0123, -0.2461, Self.g)
        let rate = SIMD3(0.0011, -0.0022, 0.0047)
        let bench = Bench(motion: .atRest(acceleration: force, rotationRate: rate))
        let driver = try bench.driver(ICM20948Configuration(accelerometerRange: .g2, gyroscopeRange: .dps250))
        try driver.start(sampleRate: 225)
        let samples = try collectSamples(from: driver, for: 0.1, time: bench.time)
        driver.stop()
        #expect(!samples.isEmpty)
        for sample in samples {
            #expect(maxDifference(sample.acceleration, force) <= 2 * Self.g / 32768 / 2 + 1e-12)
            #expect(maxDifference(sample.rotationRate, rate) <= 250 * .pi / 180 / 32768 / 2 + 1e-12)
        }
    }

    @Test func saturatedValuesReadAtFullScale() throws {
        let bench = Bench(motion: .atRest(acceleration: SIMD3(0, -30, 3 * Self.g), rotationRate: SIMD3(0, 0, 50)))
        let driver = try bench.driver(ICM20948Configuration(accelerometerRange: .g2, gyroscopeRange: .dps250))
        try driver.start(sampleRate: 225)
        let samples = try collectSamples(from: driver, for: 0.05, time: bench.time)
        driver.stop()
        let sample = try #require(samples.last)
        let count = 2 * Self.g / 32768
        #expect(sample.acceleration == SIMD3(0, -32768 * count, 32767 * count))
        let fullScaleRate: Double = 32767 * 250 * .pi / 180 / 32768
        #expect(sample.rotationRate?.z == fullScaleRate)
    }

    // MARK: Rates

    @Test func requestedRateSetsTheDividersAndTheSpacing() throws {
        let bench = Bench()
        let driver = try bench.driver()
        bench.bus.isLogging = true
        try driver.start(sampleRate: 200)
        // 1125/(1+5) = 187.5 Hz is nearer 200 Hz than 1125/(1+4) = 225 Hz.
        let writes = bench.bus.transfers.filter { !$0.isRead }
        #expect(writes.contains { $0.register == 0x00 && $0.bytes == [5, 0x1F] })
        #expect(writes.contains { $0.register == 0x10 && $0.bytes == [0, 5] })
        #expect(bench.chip.outputDataRate == 187.5)
        let samples = try collectSamples(from: driver, for: 0.5, time: bench.time)
        driver.stop()
        let spacings = zip(samples, samples.dropFirst()).map { Double($1.timestamp) - Double($0.timestamp) }.sorted()
        let median = spacings[spacings.count / 2]
        #expect(abs(median - 1e9 / 187.5) < 1e9 / 187.5 * 0.01, "median spacing \(median) ns")
        let expectedCount: Double = 187.5 * 0.5
        #expect(abs(Double(samples.count) - expectedCount) < expectedCount * 0.1, "\(samples.count) samples in 0.5 s")
    }

    @Test func spacingConvergesToAFastOscillator() throws {
        let bench = Bench(oscillatorError: 0.02)
        let driver = try bench.driver()
        try driver.start(sampleRate: 225)
        let samples = try collectSamples(from: driver, for: 1.6, time: bench.time)
        driver.stop()
        let late = samples.filter { $0.timestamp > samples.last!.timestamp - 400_000_000 }
        let spacing = Double(late.last!.timestamp - late.first!.timestamp) / Double(late.count - 1)
        let truePeriod = 1e9 / (225 * 1.02)
        #expect(abs(spacing - truePeriod) < truePeriod * 0.005, "spacing \(spacing) ns, the chip's period \(truePeriod) ns")
        let expectedCount: Double = 225 * 1.02 * 1.6
        #expect(abs(Double(samples.count) - expectedCount) < expectedCount * 0.05, "\(samples.count) samples in 1.6 s")
    }

    @Test(arguments: [1125.0 / 256, 4.4, 17, 1000, 1125])
    func everySupportedRateMapsToADivider(rate: Double) {
        let divider = ICM20948Configuration.sampleRateDivider(for: rate)
        #expect((0...255).contains(divider))
        let chosen = ICM20948Configuration.sampleRate(divider: divider)
        for other in [divider - 1, divider + 1] where (0...255).contains(other) {
            #expect(abs(chosen - rate) <= abs(ICM20948Configuration.sampleRate(divider: other) - rate))
        }
    }

    // MARK: FIFO

    @Test func overflowIsReportedOnceAndReadingGoesOn() throws {
        let bench = Bench()
        let driver = try bench.driver()
        try driver.start(sampleRate: 1125)
        bench.time.pass(0.08)  // 90 frames of 12 bytes into 512
        #expect(bench.chip.fifoCount == 512)
        let error = expectError(IMUDeviceError.self) { try driver.readSamples() }
        if case .readFailed(let why)? = error { #expect(why.hasPrefix("FIFO overflow")) } else { Issue.record("\(String(describing: error))") }
        #expect(bench.chip.fifoCount < 120, "the FIFO was reset")
        let samples = try collectSamples(from: driver, for: 0.1, time: bench.time)
        driver.stop()
        #expect(samples.count > 50)
        #expect(samples.allSatisfy { maxDifference($0.acceleration, SIMD3(0, 0, Self.g)) <= Self.accelerometerCount / 2 })
    }

    // MARK: Magnetometer

    @Test func magnetometerRidesOnTheNewestSampleOfABatch() throws {
        let bench = Bench()
        let driver = try bench.driver()
        try driver.start(sampleRate: 1125)
        var batches: [[IMUSample]] = []
        for _ in 0..<30 {
            bench.time.pass(0.01)
            batches.append(try driver.readSamples())
        }
        driver.stop()
        for batch in batches {
            #expect(batch.dropLast().allSatisfy { $0.magneticField == nil })
        }
        let fields = batches.flatMap { $0 }.compactMap(\.magneticField).count
        #expect(fields >= 15 && fields <= 31, "\(fields) fields in about 0.3 s at 100 Hz")
    }

    @Test func magnetometerOverflowIsReportedOnceAndLeftOut() throws {
        let bench = Bench()
        let driver = try bench.driver()
        try driver.start(sampleRate: 225)
        _ = try collectSamples(from: driver, for: 0.05, time: bench.time)
        // |x| + |y| + |z| = 5000 µT ≥ 4912 µT: HOFL.
        bench.chip.motion = .atRest(magneticField: SIMD3(3000, -1500, 500))
        bench.time.pass(0.02)
        #expect(throws: IMUDeviceError.readFailed(
            "magnetometer overflow: the AK09916 reports ST2 0x08 (HOFL), the field exceeds its 4912 µT range; "
                + "its readings are left out until it is back")) {
            try driver.readSamples()
        }
        let during = try collectSamples(from: driver, for: 0.1, time: bench.time)
        #expect(during.count > 15)
        #expect(during.allSatisfy { $0.magneticField == nil && $0.acceleration != nil })
        bench.chip.motion = .atRest(magneticField: SIMD3(-45, 5, 30))
        let after = try collectSamples(from: driver, for: 0.1, time: bench.time)
        driver.stop()
        let fields = after.compactMap(\.magneticField)
        #expect(!fields.isEmpty && fields.allSatisfy { maxDifference($0, SIMD3(-45, 5, 30)) <= 0.075 + 1e-9 })
    }

    @Test func magnetometerAxesAreMappedIntoTheAccelerometerFrame() throws {
        // The AK09916 die driven directly: its x along the accelerometer's x, its y and z opposite.
        let bench = Bench()
        bench.chip.magnetometer.motion = .atRest(magneticField: SIMD3(30, -15, 45))
        let driver = try bench.driver()
        try driver.start(sampleRate: 225)
        let samples = try collectSamples(from: driver, for: 0.1, time: bench.time)
        driver.stop()
        let fields = samples.compactMap(\.magneticField)
        #expect(fields.count >= 5)
        #expect(fields.allSatisfy { maxDifference($0, SIMD3(30, 15, -45)) <= 0.075 + 1e-9 })
    }
}
