import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The BMP280 / BME280 driver against its emulation: values recovered from raw values the emulation
/// computed by inverting the compensation, the settings chosen per rate, data-ready and invalid values.
@Suite struct BoschBarometerDriverTests {
    /// True air the emulation measures: sea level, a cold mountain, a hot low valley, a high plateau.
    static let truths: [(pressure: Double, temperature: Double)] = [
        (101_325, 20), (70_000, -10.25), (108_000, 40.5), (55_000, 5),
    ]

    @Test(arguments: [EmulatedBoschBarometer.Model.bmp280, .bme280], [25.0, 125])
    func theDriverRecoversTheTruth(model: EmulatedBoschBarometer.Model, rate: Double) throws {
        for truth in Self.truths {
            let time = TestTime.manual()
            let chip = EmulatedBoschBarometer(model: model, atmosphere: .constant(pressure: truth.pressure, temperature: truth.temperature), now: time.nanosecondSource)
            let bench = BarometerTestBench(chip: chip, at: 0x76, time: time)
            let reading = try #require(try firstReading(of: try bench.driver(), rate: rate, time: time))
            // 20-bit raw values (IIR on at every rate): steps of 0.17 Pa and 0.005 °C, so ±0.09 Pa from rounding;
            // the integer temperature formula's shifts leave t_fine up to 8 below the floating-point one (at
            // 20 °C: 102393 instead of 102400), about 0.03 Pa each: 0.27 Pa at 101325 Pa, 20 °C.
            #expect(abs(reading.pressure - truth.pressure) < 0.35, "\(truth): \(reading.pressure) Pa")
            #expect(abs(try #require(reading.temperature) - truth.temperature) < 0.011, "\(truth): \(String(describing: reading.temperature)) °C")
        }
    }

    @Test func theSettingsFollowTheRate() {
        func settings(_ rate: Double, _ variant: BoschBarometerVariant = .bmp280) -> BoschMeasurementSettings {
            BoschMeasurementSettings(sampleRate: rate, variant: variant)
        }
        // 25 Hz: ×16 / ×2, IIR 16, 0.5 ms standby: 37.5 + 0.5 ms, 26.3 Hz ("indoor navigation").
        let indoor = settings(25)
        #expect(indoor.pressureOversampling == 16 && indoor.temperatureOversampling == 2 && indoor.filterCoefficient == 16)
        #expect(indoor.standbyTime == 0.5 && indoor.cycleTime == 38 && abs(indoor.rate - 26.3158) < 1e-4)
        #expect(indoor.maximumMeasurementTime == 43.225)
        // 10 Hz: the same with 62.5 ms standby, exactly 100 ms.
        #expect(settings(10).standbyCode == 1 && settings(10).rate == 10)
        // 50 Hz: ×8 / ×1 with 0.5 ms, exactly 50 Hz; 125 Hz: ×2 / ×1, IIR 4, 8 ms.
        #expect(settings(50).pressureOversampling == 8 && settings(50).rate == 50)
        #expect(settings(125).pressureOversampling == 2 && settings(125).filterCoefficient == 4 && settings(125).rate == 125)
        // 1 Hz: the longest standby that fits, 500 ms (BMP280 and BME280 alike).
        #expect(settings(1).standbyTime == 500 && settings(1, .bme280).standbyTime == 500)
        // The BME280 measures humidity too (×1: 2.5 ms more): at 25 Hz ×16 / ×2 with 0.5 ms standby, 40.5 ms,
        // 24.7 Hz (Bosch's "indoor navigation"; within the 2 % the chooser allows).
        let humid = settings(25, .bme280)
        #expect(humid.humidityOversampling == 1 && humid.pressureOversampling == 16 && humid.standbyTime == 0.5 && humid.cycleTime == 40.5)
        #expect(abs(humid.maximumMeasurementTime - (1.25 + 4.6 + 36.8 + 0.575 + 2.3 + 0.575)) < 1e-9)
        #expect(settings(25).humidityOversampling == 0)
        // Its 10 ms standby: ×8 at 31 Hz takes 22 + 10 ms (32 ms, within 2 % of 32.3 ms); the BMP280 has none.
        #expect(settings(31, .bme280).standbyTime == 10 && settings(31, .bme280).pressureOversampling == 8)
        #expect(settings(31).standbyTime == 0.5)
        // Its fastest: ×2, 10 ms + 0.5 ms standby, 95 Hz, the top of its supported rates.
        #expect(abs(settings(125, .bme280).rate - 1000 / 10.5) < 1e-9 && BoschBarometerVariant.bme280.supportedSampleRates == 1...95)
        // The BMP280's slowest: 4 s standby at 0.25 Hz.
        #expect(settings(0.24).standbyTime == 4000)
    }

    @Test(arguments: [EmulatedBoschBarometer.Model.bmp280, .bme280])
    func startWritesTheSettingsInSleepModeAndNormalModeLast(model: EmulatedBoschBarometer.Model) throws {
        let time = TestTime.manual()
        let chip = EmulatedBoschBarometer(model: model, now: time.nanosecondSource)
        let bench = BarometerTestBench(chip: chip, at: 0x77, time: time)
        let driver = try bench.driver()
        bench.bus.isLogging = true
        try driver.start(sampleRate: 25)
        let writes = bench.bus.transfers.filter { !$0.isRead }.map { [$0.register] + $0.bytes }
        // IIR 16, standby 0.5 ms; ×2, ×16, normal; on a BME280 ctrl_hum ×1 first (it takes effect with ctrl_meas).
        let configuration: [[UInt8]] = [[0xF5, 0x10], [0xF4, 0b010_101_11]]
        #expect(writes == [[0xE0, 0xB6]] + (model == .bme280 ? [[0xF2, 0x01]] : []) + configuration)
        #expect(chip.register(0xF5) == 0x10, "config written in sleep mode is kept")
        let cycle = model == .bmp280 ? 38.0 : 40.5
        #expect(abs(chip.conversionRate - 1000 / cycle) < 1e-6)
        #expect(driver.outputDataRate == 1000 / cycle)
        driver.stop()
        #expect(chip.register(0xF4) & 0b11 == 0, "sleep mode after stop")
    }

    @Test func eachConversionIsReadOnceAndStampedAtItsCompletion() throws {
        let time = TestTime.manual()
        let chip = EmulatedBoschBarometer(model: .bmp280, now: time.nanosecondSource)
        let bench = BarometerTestBench(chip: chip, at: 0x76, time: time)
        let driver = try bench.driver()
        try driver.start(sampleRate: 50)  // ×8, 20 ms cycle, 22.5 ms longest conversion
        let started = time.now
        #expect(try driver.read() == nil, "nothing before the first conversion")
        var readings: [PressureReading] = []
        while time.now - started < 400_000_000 {
            if let reading = try driver.read() { readings.append(reading) }
            time.pass(0.002)
        }
        // 400 ms: conversions at 19.5 + 20 k ms, each ready 3 ms later: 19 or 20 of them (fewer only when this
        // thread was kept from reading for more than a cycle: then the newest is read, a whole cycle later).
        #expect((15...20).contains(readings.count), "\(readings.count) readings")
        #expect(readings.count <= chip.conversionCount)
        let spacings = zip(readings, readings.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(spacings.allSatisfy { $0 > 0 && $0 % 20_000_000 == 0 }, "spacings \(spacings)")
        #expect(spacings.sorted()[spacings.count / 2] == 20_000_000)
        #expect(readings[0].timestamp - started < 22_000_000)
    }

    @Test func aSlowOscillatorStillGivesTheTruth() throws {
        // The chip runs 2 % slow against the driver's count: now and then a conversion is read twice.
        let bench = BarometerTestBench(.bmp280, atmosphere: .constant(pressure: 90_000, temperature: 30), oscillatorError: -0.02)
        let time = bench.time
        let driver = try bench.driver()
        try driver.start(sampleRate: 125)
        var readings: [PressureReading] = []
        let end = time.now + 500_000_000
        while time.now < end {
            if let reading = try driver.read() { readings.append(reading) }
            time.pass(0.002)
        }
        #expect(readings.count > 50)
        #expect(readings.allSatisfy { abs($0.pressure - 90_000) < 0.25 && abs($0.temperature! - 30) < 0.011 })
    }

    @Test func valuesMarkedNotMeasuredAreNoReading() throws {
        let time = TestTime.manual()
        let chip = EmulatedBoschBarometer(model: .bmp280, now: time.nanosecondSource)
        let bench = BarometerTestBench(chip: chip, at: 0x76, time: time)
        let driver = try bench.driver()
        #expect(try firstReading(of: driver, rate: 50, time: time) != nil)
        // A brown-out resets the chip: sleep mode, the data registers back to 0x80000.
        chip.powerOnReset()
        time.pass(0.05)
        #expect(chip.register(0xF7) == 0x80 && chip.register(0xFA) == 0x80)
        for _ in 0..<5 {
            #expect(try driver.read() == nil)
            time.pass(0.025)
        }
        // Skipped values held in the registers are refused the same way.
        chip.holdRawValues((pressure: 0x80000, temperature: 415_148))
        #expect(try firstReading(of: driver, rate: 50, timeout: 0.2, time: time) == nil)
    }

    @Test func aChipThatResetItselfIsConfiguredAgainAfterAStall() throws {
        let bench = BarometerTestBench(.bmp280)
        let chip = try #require(bench.chip as? EmulatedBoschBarometer)
        let device = try bench.device()
        let recorder = BarometerConformance.Recorder(time: bench.time)
        try device.start(sampleRate: 125, handler: recorder.handler)
        #expect(recorder.wait { $0.readings.count >= 3 })
        chip.powerOnReset()
        // 0.5 s plus five periods without a reading: a fault, the chip configured again, readings again.
        let stalled = recorder.wait(timeout: 1.5) { !$0.faults.isEmpty }
        #expect(stalled)
        let count = recorder.readings.count
        #expect(recorder.wait { $0.readings.count >= count + 3 })
        device.stop()
        #expect(recorder.faults.count == 1)
        if case .readFailed(let why) = recorder.faults.first {
            #expect(why.hasPrefix("no readings from the chip for "))
        } else {
            Issue.record("\(recorder.faults)")
        }
    }

    @Test func aChipWithoutCalibrationIsRefused() throws {
        var trimming = BoschCompensation.datasheetExample
        trimming.p1 = 0
        let time = TestTime.manual()
        let bench = BarometerTestBench(chip: EmulatedBoschBarometer(trimming: trimming, now: time.nanosecondSource), at: 0x76, time: time)
        let error = expectError(IMUDeviceError.self) { try bench.driver().start(sampleRate: 25) }
        #expect(error == .readFailed("BMP280 at 0x76 on emulated-i2c: the trimming registers 0x88…0x9F hold no calibration (dig_T1 or dig_P1 is 0)"))
    }
}
