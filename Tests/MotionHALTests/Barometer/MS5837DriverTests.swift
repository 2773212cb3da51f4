import MotionHAL
import MotionTestSupport
import Testing

/// The MS5837 driver against its command-level emulation: values recovered from raw values the emulation
/// computed by inverting the compensation, the command cycle and its timing, lost conversions, and a
/// calibration that fails its CRC.
@Suite struct MS5837DriverTests {
    /// A bench with an emulated MS5837 at 0x76 on a manual clock.
    static func bench(
        _ variant: MS5837Variant, pressure: Double = 101_325, temperature: Double = 20, prom: [UInt16]? = nil,
        version: UInt8? = nil, conversionTimeFactor: Double = 0.9
    ) -> (bench: BarometerTestBench, chip: EmulatedMS5837) {
        let time = TestTime.manual()
        let chip = EmulatedMS5837(
            variant: variant, atmosphere: .constant(pressure: pressure, temperature: temperature), version: version, prom: prom,
            conversionTimeFactor: conversionTimeFactor, now: time.nanosecondSource)
        return (BarometerTestBench(chip: chip, at: 0x76, time: time), chip)
    }

    @Test(arguments: [(MS5837Variant.ms5837_30ba, 10.0), (.ms5837_30ba, 100), (.ms5837_02ba, 10), (.ms5837_02ba, 25)])
    func theDriverRecoversTheTruth(variant: MS5837Variant, rate: Double) throws {
        // Still air, a lake in winter, a warm sea 20 m down (-30BA) or a 5 m pool (-02BA), and a tropical beach.
        let deep = variant == .ms5837_30ba ? 301_325.0 : 110_000
        for truth in [(101_325.0, 20.0), (104_000, 4), (deep, 28.5), (100_500, 35)] {
            let (bench, _) = Self.bench(variant, pressure: truth.0, temperature: truth.1)
            let reading = try #require(try firstReading(of: try bench.driver(), rate: rate, time: bench.time))
            // P is rounded down to the part's unit: 10 Pa (-30BA) or 1 Pa (-02BA); TEMP to 0.01 °C.
            #expect(reading.pressure <= truth.0 + 0.5 && reading.pressure > truth.0 - 1.1 * variant.pascalsPerUnit, "\(variant.name) \(truth): \(reading.pressure) Pa")
            #expect(abs(try #require(reading.temperature) - truth.1) <= 0.011, "\(variant.name) \(truth): \(String(describing: reading.temperature)) °C")
        }
    }

    @Test func aCycleIsTemperatureThenPressureAtTheRatesOversampling() throws {
        let (bench, _) = Self.bench(.ms5837_30ba)
        let driver = try bench.driver()
        bench.bus.isLogging = true
        try driver.start(sampleRate: 25)
        // Start: reset, then PROM words 0…6 (0xA0…0xAC), each a two-byte combined read.
        let startTransfers = bench.bus.transfers
        #expect(startTransfers.first.map { !$0.isRead && $0.register == 0x1E && $0.bytes.isEmpty } == true)
        #expect(startTransfers.dropFirst().map(\.register) == [0xA0, 0xA2, 0xA4, 0xA6, 0xA8, 0xAA, 0xAC])
        #expect((driver as? MS5837Driver)?.oversampling == .x4096)
        let logged = bench.bus.transfers.count
        var readings: [PressureReading] = []
        for _ in 0..<40 {  // 0.4 s polled every 20 ms, twice a period, as I2CBarometer does
            if let reading = try driver.read() { readings.append(reading) }
            bench.time.pass(0.020)
        }
        // Convert D2 at OSR 4096 (0x58), ADC read, convert D1 (0x48), ADC read: one cycle a period.
        let commands = bench.bus.transfers.dropFirst(logged).map { ($0.isRead ? "r" : "w") + String($0.register, radix: 16) }
        #expect(Array(commands.prefix(8)) == ["w58", "r0", "w48", "r0", "w58", "r0", "w48", "r0"])
        #expect(readings.count >= 19 && readings.count <= 20)
        let spacings = zip(readings, readings.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(spacings.allSatisfy { $0 == 40_000_000 }, "\(spacings)")
    }

    @Test func aChipAtTheSlowestConversionTimeStillWorks() throws {
        let (bench, _) = Self.bench(.ms5837_02ba, conversionTimeFactor: 1.0)
        #expect(try firstReading(of: try bench.driver(), rate: 50, time: bench.time) != nil)
    }

    @Test func aChipSlowerThanTheDatasheetGivesNoWrongValues() throws {
        // The driver reads at the first poll after the datasheet's maximum (here 20 ms after the command); a
        // chip still converting then (2.5 × 9.04 ms) answers 0 and spoils the conversion: no reading, never
        // a wrong one. I2CBarometer reports the stall.
        let (bench, _) = Self.bench(.ms5837_30ba, conversionTimeFactor: 2.5)
        let driver = try bench.driver()
        try driver.start(sampleRate: 25)
        for _ in 0..<25 {
            #expect(try driver.read() == nil)
            bench.time.pass(0.02)
        }
    }

    @Test func theEmulationAnswersZeroBeforeAConversionEndsAndAfterItWasRead() throws {
        let time = TestTime.manual()
        let chip = EmulatedMS5837(now: time.nanosecondSource)
        #expect(chip.read(startingAt: 0x00, count: 3) == [0, 0, 0])  // nothing converted
        chip.write(startingAt: 0x48, bytes: [])  // D1 at OSR 4096: 0.9 × 9.04 ms
        time.pass(0.005)
        #expect(chip.read(startingAt: 0x00, count: 3) == [0, 0, 0])  // still converting: 0, and spoiled
        time.pass(0.005)
        let spoiled = chip.read(startingAt: 0x00, count: 3)
        chip.write(startingAt: 0x48, bytes: [])
        time.pass(0.010)
        let good = chip.read(startingAt: 0x00, count: 3)
        #expect(good != [0, 0, 0] && spoiled != good)
        #expect(chip.read(startingAt: 0x00, count: 3) == [0, 0, 0])  // read once
    }

    @Test func aLostConversionCostsOneReadingAndTheCycleGoesOn() throws {
        let (bench, chip) = Self.bench(.ms5837_30ba)
        let driver = try bench.driver()
        try driver.start(sampleRate: 25)
        var readings = 0
        for step in 0..<50 {
            if step == 11 { chip.powerOnReset() }  // a brown-out in the middle of a cycle
            if try driver.read() != nil { readings += 1 }
            bench.time.pass(0.020)
        }
        #expect(readings >= 23 && readings <= 24, "\(readings) readings in 1 s at 25 Hz")
    }

    @Test func aBadCRCFailsTheStartAndSaysWhy() throws {
        var prom = MS5837Compensation.datasheetExample30BA.promWords()
        let (bench, _) = Self.bench(.ms5837_30ba)
        let driver = try bench.driver()
        // The same chip with one PROM bit flipped after the probe: the start checks again.
        prom[2] ^= 0x0004
        let computed = MS5837Compensation.crc4(prom: prom)
        let corrupt = EmulatedMS5837(variant: .ms5837_30ba, prom: prom, now: bench.time.nanosecondSource)
        bench.bus.attach(corrupt, at: 0x76)
        let error = expectError(IMUDeviceError.self) { try driver.start(sampleRate: 25) }
        #expect(error == .readFailed("MS5837-30BA at 0x76 on emulated-i2c: the PROM's CRC-4 is 9 but its words give \(computed) (corrupt calibration or not an MS5837)"))
    }

    @Test func aVanishedChipIsUnavailable() throws {
        let (bench, _) = Self.bench(.ms5837_02ba)
        let driver = try bench.driver()
        try driver.start(sampleRate: 25)
        bench.bus.detach(address: 0x76)
        bench.time.pass(0.02)
        let error = expectError(IMUDeviceError.self) { _ = try driver.read() }
        #expect(error == .unavailable("no chip answers at address 0x76 on emulated-i2c"))
    }
}
