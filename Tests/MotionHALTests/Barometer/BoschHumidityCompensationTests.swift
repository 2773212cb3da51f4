import MotionHAL
import MotionTestSupport
import Testing

/// The BME280's integer humidity formula (BST-BME280-DS002 §4.2.3) against the datasheet's independent
/// floating-point one (§8.1, in the test support), the packed trimming readout, and the driver reading the
/// emulated chip's humidity.
@Suite struct BoschHumidityCompensationTests {
    @Test func theIntegerFormulaAgreesWithTheFloatingPointOne() {
        let trimming = BoschHumidityCompensation.typical
        let temperature = BoschCompensation.datasheetExample
        // Dry to saturated air, freezing to hot: the two formulas differ by the integer one's 1/1024 %RH
        // steps and shifts, well below the chip's ±3 %RH accuracy.
        for celsius in [-10.0, 0, 21.5, 40] {
            let fine = temperature.floatingPointTemperature(adc: temperature.temperatureADC(for: celsius)).fineTemperature
            for percent in [2.0, 20, 45, 80, 98] {
                let adc = trimming.humidityADC(for: percent, fineTemperature: fine).rounded()
                let expected = trimming.floatingPointHumidity(adc: adc, fineTemperature: fine)
                let integer = Double(trimming.humidity(adc: Int32(adc), fineTemperature: Int32(fine))) / 1024
                #expect(abs(integer - expected) < 0.01, "\(celsius) °C, \(percent) %RH: \(integer) against \(expected)")
            }
        }
    }

    @Test func theResultIsClampedToTheRangeAndNeverTraps() {
        let trimming = BoschHumidityCompensation.typical
        #expect(trimming.humidity(adc: 0, fineTemperature: 110_000) == 0)  // below 0 %RH: 0
        #expect(trimming.humidity(adc: 65_535, fineTemperature: 110_000) == 100 * 1024)  // above 100 %RH: 100
        _ = trimming.humidity(adc: .max, fineTemperature: .min)
        _ = trimming.humidity(adc: .min, fineTemperature: .max)
    }

    @Test func packedTrimmingDecodesWithSigns() throws {
        let typical = BoschHumidityCompensation.typical
        #expect(typical.registerBytes == [0x6A, 0x01, 0x00, 0x13, 0x29, 0x03, 0x1E])  // 362, 0, 313 and 50 share 0xE5, 30
        #expect(BoschHumidityCompensation(h1: 75, bytes: typical.registerBytes) == typical)
        // dig_H4 and dig_H5 are signed 12-bit numbers: −50 is 0xFC in 0xE6 and 0xE in 0xE5's high nibble.
        let negative = BoschHumidityCompensation(h1: 0, h2: -2, h3: 255, h4: -313, h5: -50, h6: -128)
        #expect(negative.registerBytes[4] >> 4 == 0xE && negative.registerBytes[5] == 0xFC)
        #expect(BoschHumidityCompensation(h1: 0, bytes: negative.registerBytes) == negative)
        #expect(BoschHumidityCompensation(h1: 75, bytes: [0, 0, 0, 0x13, 0x29, 0x03, 0x1E]) == nil, "dig_H2 = 0: no calibration")
        #expect(BoschHumidityCompensation(h1: 75, bytes: [0x6A, 0x01]) == nil)
    }

    @Test(arguments: [(45.0, 21.5), (5, -10.25), (95, 40.5)])
    func theDriverReadsTheHumidity(humidity: Double, temperature: Double) throws {
        let time = TestTime.manual()
        let chip = EmulatedBoschBarometer(
            model: .bme280, atmosphere: .constant(pressure: 95_000, temperature: temperature, humidity: humidity), now: time.nanosecondSource)
        let driver = try BarometerTestBench(chip: chip, at: 0x76, time: time).driver()
        try driver.start(sampleRate: 25)
        #expect(chip.register(0xF2) == 0b001, "ctrl_hum ×1")
        var reading: PressureReading?
        let end = time.now + 1_000_000_000
        while reading == nil, time.now < end {
            reading = try driver.read()
            time.pass(0.005)
        }
        let value = try #require(reading)
        // 16-bit raw humidity: steps of about 0.002 %RH, and the integer formula's 1/1024 %RH.
        #expect(abs(try #require(value.humidity) - humidity) < 0.01, "\(String(describing: value.humidity)) %RH")
        #expect(abs(value.pressure - 95_000) < 0.35)
        driver.stop()
    }

    @Test func aBMP280HasNoHumidity() throws {
        let time = TestTime.manual()
        let driver = try BarometerTestBench(chip: EmulatedBoschBarometer(model: .bmp280, now: time.nanosecondSource), at: 0x76, time: time).driver()
        try driver.start(sampleRate: 25)
        var reading: PressureReading?
        let end = time.now + 1_000_000_000
        while reading == nil, time.now < end {
            reading = try driver.read()
            time.pass(0.005)
        }
        #expect(try #require(reading).humidity == nil)
        #expect(try #require(driver as? BoschBarometerDriver).humidityCompensation == nil)
    }
}
