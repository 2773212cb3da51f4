import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The LPS22HB / LPS22DF driver against its emulation: values, configuration, data-ready and overruns.
@Suite struct STBarometerDriverTests {
    static let truths: [(pressure: Double, temperature: Double)] = [
        (101_325, 20), (26_000, -39.99), (126_000, 84.5), (87_654.321, -0.07),
    ]

    @Test(arguments: [EmulatedSTPressureSensor.Model.lps22hb, .lps22df])
    func theDriverRecoversTheTruth(model: EmulatedSTPressureSensor.Model) throws {
        for truth in Self.truths {
            let time = TestTime.manual()
            let chip = EmulatedSTPressureSensor(model: model, atmosphere: .constant(pressure: truth.pressure, temperature: truth.temperature), now: time.nanosecondSource)
            let bench = BarometerTestBench(chip: chip, at: 0x5C, time: time)
            let reading = try #require(try firstReading(of: try bench.driver(), rate: 75, time: time))
            // 1/4096 hPa = 0.0244 Pa and 0.01 °C steps: within half of one.
            #expect(abs(reading.pressure - truth.pressure) <= 0.0123, "\(truth): \(reading.pressure) Pa")
            #expect(abs(try #require(reading.temperature) - truth.temperature) <= 0.005 + 1e-9, "\(truth): \(String(describing: reading.temperature)) °C")
        }
    }

    @Test func theDataRateIsTheSlowestAtLeastTheOneAskedFor() {
        #expect(STPressureVariant.lps22hb.dataRate(atLeast: 25) == (3, 25))
        #expect(STPressureVariant.lps22hb.dataRate(atLeast: 2) == (2, 10))
        #expect(STPressureVariant.lps22hb.dataRate(atLeast: 80) == (5, 75))
        #expect(STPressureVariant.lps22df.dataRate(atLeast: 2) == (2, 4))
        #expect(STPressureVariant.lps22df.dataRate(atLeast: 150) == (8, 200))
        #expect(STPressureVariant.lps22hb.supportedSampleRates == 1...75)
        #expect(STPressureVariant.lps22df.supportedSampleRates == 1...200)
    }

    @Test(arguments: [
        // LPS22HB: SWRESET; ODR 25 Hz with BDU in CTRL_REG1. IF_ADD_INC (CTRL_REG2 bit 4) kept after the reset.
        (EmulatedSTPressureSensor.Model.lps22hb, 20.0, [[UInt8(0x11), 0x04], [0x10, 0b0_011_0_0_1_0]], UInt8(0x11), UInt8(0x10), 25.0),
        // LPS22DF: SWRESET; BDU in CTRL_REG2; ODR 25 Hz with AVG 32. IF_ADD_INC (CTRL_REG3 bit 0) kept.
        (.lps22df, 25, [[0x11, 0x04], [0x11, 0x08], [0x10, 0b0_0100_011]], 0x12, 0x01, 25),
        // LPS22DF at 150 Hz: ODR 200 Hz with AVG 4.
        (.lps22df, 150, [[0x11, 0x04], [0x11, 0x08], [0x10, 0b0_1000_000]], 0x12, 0x01, 200),
    ])
    func startResetsThenConfiguresConversions(
        model: EmulatedSTPressureSensor.Model, rate: Double, writes: [[UInt8]], incrementRegister: UInt8, increment: UInt8,
        chipRate: Double
    ) throws {
        let time = TestTime.manual()
        let chip = EmulatedSTPressureSensor(model: model, now: time.nanosecondSource)
        let bench = BarometerTestBench(chip: chip, at: 0x5D, time: time)
        let driver = try bench.driver()
        bench.bus.isLogging = true
        try driver.start(sampleRate: rate)
        #expect(bench.bus.transfers.filter { !$0.isRead }.map { [$0.register] + $0.bytes } == writes)
        #expect(chip.register(incrementRegister) == increment, "IF_ADD_INC kept after the reset")
        #expect(chip.conversionRate == chipRate && driver.outputDataRate == chipRate)
        driver.stop()
        #expect(chip.register(0x10) == 0 && chip.conversionRate == 0, "powered down after stop")
    }

    @Test func nothingIsReadyBeforeAConversionAndEachIsReadOnce() throws {
        let time = TestTime.manual()
        let chip = EmulatedSTPressureSensor(model: .lps22df, now: time.nanosecondSource)
        let bench = BarometerTestBench(chip: chip, at: 0x5C, time: time)
        let driver = try bench.driver()
        try driver.start(sampleRate: 100)
        #expect(try driver.read() == nil)
        var readings: [PressureReading] = []
        let end = time.now + 300_000_000
        while time.now < end {
            if let reading = try driver.read() { readings.append(reading) }
            time.pass(0.002)
        }
        // Every conversion but perhaps the last (and one lost to an overrun if this thread was kept waiting).
        let conversions = chip.conversionCount
        #expect(readings.count >= conversions - 2 && readings.count <= conversions, "\(readings.count) readings of \(conversions) conversions")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp })
    }

    @Test func anOverrunAdvancesTheTimestampByTheLostPeriod() throws {
        let time = TestTime.manual()
        let chip = EmulatedSTPressureSensor(model: .lps22hb, now: time.nanosecondSource)
        let bench = BarometerTestBench(chip: chip, at: 0x5C, time: time)
        let driver = try bench.driver()
        let first = try #require(try firstReading(of: driver, rate: 75, time: time))
        time.pass(0.03)  // two conversions, one overwritten unread
        #expect(chip.read(startingAt: 0x27, count: 1)[0] & 0x11 == 0x11, "P_DA and P_OR")
        let next = try #require(try driver.read())
        #expect(chip.register(0x27) & 0x11 == 0, "reading PRESS_OUT_H clears them")
        // Stamped two periods (13.3 ms each) after the first, pulled to at most the read time.
        #expect(next.timestamp - first.timestamp > 20_000_000)
        #expect(next.timestamp <= time.now)
    }

    @Test func theDriverNeedsTheAutoIncrementTheChipStartsWith() throws {
        // The driver reads STATUS and the outputs in one burst, relying on IF_ADD_INC's reset value: with it
        // cleared every byte would be STATUS's. The emulation follows the chip in this.
        let time = TestTime.manual()
        let chip = EmulatedSTPressureSensor(model: .lps22hb, now: time.nanosecondSource)
        chip.write(startingAt: 0x11, bytes: [0x00])
        #expect(chip.read(startingAt: 0x0F, count: 2) == [0xB1, 0xB1])
        chip.write(startingAt: 0x11, bytes: [0x10])
        #expect(chip.read(startingAt: 0x0F, count: 2) == [0xB1, 0x00])
    }
}
