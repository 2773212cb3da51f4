import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// What the LSM6DSOX driver reads against the physical input, and how it configures the chip.
@Suite struct LSM6DSOXValueTests {
    static let gravity = 9.80665

    /// A board at rest face up, and one tilted 30° about x while turning at a known rate.
    static let inputs: [(acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>)] = [
        (SIMD3(0, 0, gravity), .zero),
        (SIMD3(0, gravity * sin(.pi / 6), gravity * cos(.pi / 6)), SIMD3(0.3, -0.7, 1.1)),
    ]

    @Test(arguments: inputs.indices)
    func valuesMatchTheInputWithinOneCount(input: Int) throws {
        let (acceleration, rotationRate) = Self.inputs[input]
        let bench = LSM6DSOXTestBench(motion: .atRest(acceleration: acceleration, rotationRate: rotationRate))
        let driver = try bench.driver()
        try driver.start(sampleRate: 208)
        let samples = try collectSamples(from: driver, for: 0.15, time: bench.time)
        driver.stop()
        #expect(samples.count > 20)
        let accelerometerCount = 0.244e-3 * Self.gravity
        let gyroscopeCount = 70e-3 * .pi / 180
        for sample in samples {
            #expect(maxDifference(sample.acceleration, acceleration) <= accelerometerCount)
            #expect(maxDifference(sample.rotationRate, rotationRate) <= gyroscopeCount)
            #expect(sample.magneticField == nil)
        }
    }

    static let scales: [(LSM6DSOXAccelerometerScale, LSM6DSOXGyroscopeScale)] = [
        (.g2, .dps125), (.g4, .dps250), (.g8, .dps500), (.g16, .dps1000), (.g8, .dps2000),
    ]

    @Test(arguments: scales.indices)
    func fullScalesAreWrittenAndApplied(index: Int) throws {
        let (accelerometerScale, gyroscopeScale) = Self.scales[index]
        let acceleration = SIMD3(1.0, -1.5, 0.15 * Self.gravity)
        let rotationRate = SIMD3(0.5, -1.2, 2.0)  // within ±125 dps
        let bench = LSM6DSOXTestBench(motion: .atRest(acceleration: acceleration, rotationRate: rotationRate))
        let model = I2CChipModel.lsm6dsox(accelerometerScale: accelerometerScale, gyroscopeScale: gyroscopeScale)
        let driver = try bench.driver(model)
        #expect(driver.info.accelerometerRange == accelerometerScale.range)
        #expect(driver.info.gyroscopeRange == gyroscopeScale.range)
        try driver.start(sampleRate: 104)
        // Datasheet codes: FS_XL 00 ±2, 10 ±4, 11 ±8, 01 ±16 g; FS_G 00 250 … 11 2000 dps, FS_125 bit 1.
        let accelerometerCode: [LSM6DSOXAccelerometerScale: UInt8] = [.g2: 0x0, .g4: 0x8, .g8: 0xC, .g16: 0x4]
        let gyroscopeCode: [LSM6DSOXGyroscopeScale: UInt8] = [
            .dps125: 0x2, .dps250: 0x0, .dps500: 0x4, .dps1000: 0x8, .dps2000: 0xC,
        ]
        #expect(bench.chip.register(0x10) == 0x40 | accelerometerCode[accelerometerScale]!)
        #expect(bench.chip.register(0x11) == 0x40 | gyroscopeCode[gyroscopeScale]!)
        let samples = try collectSamples(from: driver, for: 0.15, time: bench.time)
        driver.stop()
        #expect(samples.count > 8)
        for sample in samples {
            let accelerometerError = maxDifference(sample.acceleration, acceleration)
            let gyroscopeError = maxDifference(sample.rotationRate, rotationRate)
            #expect(accelerometerError <= accelerometerScale.sensitivity)
            #expect(gyroscopeError <= gyroscopeScale.sensitivity)
        }
        // The datasheet's sensitivities are the nominal full scale over 2^15, rounded.
        let nominalCount = accelerometerScale.nominalRange * Self.gravity / 32768
        #expect(abs(accelerometerScale.sensitivity / nominalCount - 1) < 0.003)
    }

    @Test func saturationIsReportedOnceAndTheSamplesKept() throws {
        // 3 g on x at ±2 g, and 343 dps about z at ±250 dps (the output reaches 286 dps).
        let bench = LSM6DSOXTestBench(
            motion: .atRest(acceleration: SIMD3(3 * Self.gravity, 0, Self.gravity), rotationRate: SIMD3(0, 0, 6)))
        let device = try bench.device(.lsm6dsox(accelerometerScale: .g2, gyroscopeScale: .dps250))
        let log = DeviceEventCollector()
        try device.start(sampleRate: 208, handler: log.handler)
        bench.time.pass(0.3)
        device.stop()
        #expect(log.faults == [.readFailed("accelerometer and gyroscope saturated (reading at full scale)")])
        let samples = log.samples
        #expect(samples.count > 40)
        for sample in samples {
            #expect(sample.acceleration?.x == 32767 * LSM6DSOXAccelerometerScale.g2.sensitivity)
            #expect(abs(sample.acceleration!.z - Self.gravity) <= LSM6DSOXAccelerometerScale.g2.sensitivity)
            #expect(sample.rotationRate?.z == 32767 * LSM6DSOXGyroscopeScale.dps250.sensitivity)
        }
    }

    @Test func twoHundredHertzRunsTheChipAt208() throws {
        let bench = LSM6DSOXTestBench()
        let driver = try bench.driver()
        try driver.start(sampleRate: 200)
        #expect(driver.outputDataRate?.rate == 208)
        #expect(bench.chip.register(0x10) >> 4 == 0b0101)  // ODR_XL 208 Hz
        #expect(bench.chip.register(0x11) >> 4 == 0b0101)  // ODR_G 208 Hz
        #expect(bench.chip.register(0x09) == 0x55)  // BDR_GY, BDR_XL 208 Hz
        #expect(bench.chip.register(0x0A) == 0x06)  // continuous mode
        #expect(bench.chip.register(0x12) == 0x44)  // BDU, IF_INC
        let started = bench.time.now
        let samples = try collectSamples(from: driver, for: 0.5, time: bench.time)
        let seconds = Double(bench.time.now - started) / 1e9
        driver.stop()
        #expect(abs(Double(samples.count) - 208 * seconds) < 12, "\(samples.count) samples in \(seconds) s")
        let spacing = LSM6DSOXTestBench.medianSpacing(samples)
        #expect(abs(spacing - 1e9 / 208) < 0.01 * 1e9 / 208, "median spacing \(spacing) ns")
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(bench.chip.register(0x10) == 0 && bench.chip.register(0x11) == 0)  // stop powers down
    }

    @Test func timestampsFollowAFastOscillator() throws {
        let bench = LSM6DSOXTestBench(oscillatorError: 0.02)
        let driver = try bench.driver()
        try driver.start(sampleRate: 208)
        let samples = try collectSamples(from: driver, for: 1.6, time: bench.time)
        driver.stop()
        let realRate: Double = 208 * 1.02
        let realPeriod = 1e9 / realRate
        let expectedCount = 1.6 * realRate
        #expect(abs(Double(samples.count) - expectedCount) < 15, "\(samples.count) samples, \(expectedCount) expected")
        // Once a second has been measured, the spacing is the chip's real period.
        let late = samples.suffix(60)
        let spacing = (Double(late.last!.timestamp) - Double(late.first!.timestamp)) / Double(late.count - 1)
        #expect(abs(spacing / realPeriod - 1) < 0.005, "spacing \(spacing) ns, real period \(realPeriod) ns")
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    /// The accelerometer's x grows 4 m/s² per second and the gyroscope's x follows it, a tenth as large: a
    /// gyroscope word paired with the wrong slot's accelerometer word is 0.02 m/s² off, 30 counts.
    @Test(arguments: [false, true])
    func fifoWordsPairBySlotInEitherOrder(accelerometerWordFirst: Bool) throws {
        let time = TestTime.manual()
        let start = time.now
        let ramp = EmulatedMotion { time in
            let x = 4 * Double(time &- start) / 1e9
            return IMUSample(
                timestamp: time, acceleration: SIMD3(x, 0, Self.gravity), rotationRate: SIMD3(x / 10, 0, 0))
        }
        let bench = LSM6DSOXTestBench(motion: ramp, accelerometerWordFirst: accelerometerWordFirst, time: time)
        let driver = try bench.driver(.lsm6dsox(accelerometerScale: .g2, gyroscopeScale: .dps125))
        try driver.start(sampleRate: 208)
        bench.bus.isLogging = true
        let samples = try collectSamples(from: driver, for: 0.3, time: bench.time)
        bench.bus.isLogging = false
        driver.stop()
        #expect(samples.count > 50)
        let tolerance = LSM6DSOXAccelerometerScale.g2.sensitivity + 10 * LSM6DSOXGyroscopeScale.dps125.sensitivity
        for sample in samples {
            let acceleration = try #require(sample.acceleration), rotationRate = try #require(sample.rotationRate)
            #expect(abs(acceleration.x - 10 * rotationRate.x) <= tolerance)
        }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.acceleration!.x <= $1.acceleration!.x })
        let fifoReads = bench.bus.transfers.filter { $0.isRead && $0.register == 0x78 }
        #expect(!fifoReads.isEmpty)
        #expect(fifoReads.allSatisfy { $0.bytes.count % 7 == 0 })
    }

    @Test func anOverflowIsReportedOnceAndReadingGoesOn() throws {
        let bench = LSM6DSOXTestBench()
        let driver = try bench.driver()
        try driver.start(sampleRate: 833)  // 1666 words a second: 512 take 0.31 s
        bench.time.pass(0.4)
        #expect(bench.chip.fifoCount == 512)
        let error = expectError(IMUDeviceError.self) { try driver.readSamples() }
        #expect(error == .readFailed(
            "FIFO overflow on the LSM6DSOX at 0x6a on emulated-i2c: more than 512 words were waiting; "
                + "the FIFO was reset and the samples in it dropped"))
        #expect(bench.chip.fifoCount < 40)
        let samples = try collectSamples(from: driver, for: 0.1, time: bench.time)
        driver.stop()
        #expect(samples.count > 50)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        for sample in samples {
            #expect(maxDifference(sample.acceleration, SIMD3(0, 0, Self.gravity)) <= 0.0024)
        }
    }

    @Test func aWordWithAnUndefinedTagResetsTheFIFO() throws {
        let bench = LSM6DSOXTestBench()
        let corrupting = LSM6DSOXCorruptingChip(bench.chip)
        bench.bus.attach(corrupting, at: bench.address)
        let driver = try bench.driver()
        try driver.start(sampleRate: 208)
        bench.time.pass(0.03)
        corrupting.corruptNextTag()
        let error = expectError(IMUDeviceError.self) { try driver.readSamples() }
        #expect(error == .readFailed(
            "LSM6DSOX at 0x6a on emulated-i2c: FIFO word with tag 0xd0 (TAG_SENSOR 0x1a is undefined); the FIFO was reset"))
        let samples = try collectSamples(from: driver, for: 0.1, time: bench.time)
        driver.stop()
        #expect(samples.count > 12)
        for sample in samples {
            #expect(maxDifference(sample.acceleration, SIMD3(0, 0, Self.gravity)) <= 0.0024)
        }
    }
}

/// Passes transfers to an emulated LSM6DSOX, replacing the first tag byte of the next FIFO read with 0xD0
/// (TAG_SENSOR 0x1A, which the chip never writes): a read that lost its alignment with the words.
final class LSM6DSOXCorruptingChip: EmulatedI2CChip {
    private let chip: EmulatedLSM6DSOX
    private let corrupting = Mutex(false)

    init(_ chip: EmulatedLSM6DSOX) { self.chip = chip }

    /// Corrupts the tag of the next FIFO read.
    func corruptNextTag() { corrupting.withLock { $0 = true } }

    func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        var bytes = chip.read(startingAt: register, count: count)
        if register == 0x78, corrupting.withLock({ corrupt in defer { corrupt = false }; return corrupt }) {
            bytes[0] = 0xD0
        }
        return bytes
    }

    func write(startingAt register: UInt8, bytes: [UInt8]) { chip.write(startingAt: register, bytes: bytes) }
}
