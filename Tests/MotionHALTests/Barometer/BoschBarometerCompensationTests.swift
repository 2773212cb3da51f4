import MotionHAL
import MotionTestSupport
import Testing

/// The datasheet's integer compensation (BST-BMP280-DS001 §3.11.3, §8.2) against its own worked example,
/// and the trimming readout.
@Suite struct BoschBarometerCompensationTests {
    @Test func theDatasheetExampleDecodesExactly() {
        let compensation = BoschCompensation.datasheetExample
        let temperature = compensation.temperature(adc: 519_888)
        #expect(temperature.fineTemperature == 128_422)  // the datasheet's t_fine
        #expect(temperature.centidegrees == 2508)  // 25.08 °C
        // The 64-bit formula, bit for bit: 25767233 / 256 = 100653.254 Pa. The datasheet's 100653.27 Pa is the
        // double-precision formula's with t_fine unrounded (see the next test); the integer result is 0.016 Pa
        // below it, within its 1/256 Pa step and the rounding of t_fine.
        let pressure = compensation.pressure(adc: 415_148, fineTemperature: temperature.fineTemperature)
        #expect(pressure == 25_767_233)
        #expect(abs(Double(pressure) / 256 - 100_653.27) < 0.02)
    }

    @Test func theEmulationsFloatingPointFormulaAgreesWithTheExample() {
        // The emulation inverts the datasheet's other (double precision) formula: it too gives the example.
        let trimming = BoschCompensation.datasheetExample
        let temperature = trimming.floatingPointTemperature(adc: 519_888)
        #expect(abs(temperature.celsius - 25.08) < 0.005)
        #expect(temperature.fineTemperature == 128_422)
        // With t_fine truncated, as the datasheet's code does, 100653.258 Pa; with it unrounded
        // (128422.287), the datasheet's 100653.27 Pa.
        #expect(abs(trimming.floatingPointPressure(adc: 415_148, fineTemperature: temperature.fineTemperature) - 100_653.258) < 0.001)
        #expect(abs(trimming.floatingPointPressure(adc: 415_148, fineTemperature: 128_422.287) - 100_653.27) < 0.005)
        // And its inverse finds the example's raw values again.
        #expect(abs(trimming.temperatureADC(for: temperature.celsius) - 519_888) < 1e-3)
        #expect(abs(trimming.pressureADC(for: 100_653.27, fineTemperature: 128_422) - 415_148) < 0.1)
    }

    @Test func trimmingRegistersDecodeLittleEndianWithSigns() throws {
        let bytes = BoschCompensation.datasheetExample.registerBytes
        #expect(bytes.count == 24)
        #expect(Array(bytes.prefix(6)) == [0x70, 0x6B, 0x43, 0x67, 0x18, 0xFC])  // 27504, 26435, −1000
        #expect(BoschCompensation(trimming: bytes) == .datasheetExample)
        var blank = bytes
        blank[0] = 0
        blank[1] = 0  // dig_T1 = 0: no chip is trimmed so
        #expect(BoschCompensation(trimming: blank) == nil)
        #expect(BoschCompensation(trimming: Array(bytes.prefix(23))) == nil)
    }

    @Test func aZeroDivisorGivesNoPressureInsteadOfATrap() {
        var compensation = BoschCompensation.datasheetExample
        compensation.p1 = 0
        #expect(compensation.pressure(adc: 415_148, fineTemperature: 128_422) == 0)
        // Raw values no chip produces wrap instead of trapping.
        _ = BoschCompensation.datasheetExample.temperature(adc: .max)
        _ = BoschCompensation.datasheetExample.pressure(adc: .min, fineTemperature: .max)
    }

    @Test(arguments: [EmulatedBoschBarometer.Model.bmp280, .bme280])
    func theDriverDecodesTheExampleFromTheRegisters(model: EmulatedBoschBarometer.Model) throws {
        let time = TestTime.manual()
        let chip = EmulatedBoschBarometer(model: model, now: time.nanosecondSource)
        chip.holdRawValues((pressure: 415_148, temperature: 519_888))
        let bench = BarometerTestBench(chip: chip, at: 0x76, time: time)
        let reading = try #require(try firstReading(of: try bench.driver(), rate: 25, time: time))
        #expect(reading.pressure == 25_767_233.0 / 256)  // 100653.254 Pa
        #expect(reading.temperature == 25.08)
    }
}
