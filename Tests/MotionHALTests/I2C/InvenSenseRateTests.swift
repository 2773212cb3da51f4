import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// Output data rate, low-pass filter and timestamps.
@Suite struct InvenSenseRateTests {
    @Test func twoHundredHertzWritesDividerFour() throws {
        let time = TestTime.manual()
        let (driver, bus, chip) = InvenSenseTestSupport.driver(.mpu9250, time: time)
        bus.isLogging = true
        try driver.start(sampleRate: 200)
        defer { driver.stop() }
        let writes = InvenSenseTestSupport.writes(bus, to: 0x68)
        #expect(writes.contains([0x19, 4]), "SMPLRT_DIV 4")
        // 200 Hz: Nyquist 100 Hz, so DLPF_CFG 2 (gyroscope 92 Hz, accelerometer 99 Hz).
        #expect(writes.contains([0x1A, 2]), "CONFIG DLPF_CFG 2")
        #expect(writes.contains([0x1D, 2]), "ACCEL_CONFIG2 A_DLPF_CFG 2")
        #expect(chip.register(0x19) == 4 && chip.register(0x1A) == 2 && chip.register(0x1D) == 2)
        #expect(driver.outputDataRate == 200)
    }

    @Test func anOddRequestGetsTheNearestDivider() throws {
        #expect(InvenSenseMPU.sampleRateDivider(for: 1000) == 0)
        #expect(InvenSenseMPU.sampleRateDivider(for: 4) == 249)
        #expect(InvenSenseMPU.sampleRateDivider(for: 300) == 2)  // 333.3 Hz beats 250 Hz
        #expect(InvenSenseMPU.sampleRateDivider(for: 7) == 142)  // 6.993 Hz beats 7.042 Hz
        #expect(InvenSenseMPU.sampleRateDivider(for: 180) == 5)  // 166.7 Hz beats 200 Hz

        let time = TestTime.manual()
        let (driver, bus, _) = InvenSenseTestSupport.driver(.mpu6050, time: time)
        bus.isLogging = true
        try driver.start(sampleRate: 300)
        defer { driver.stop() }
        #expect(InvenSenseTestSupport.writes(bus, to: 0x68).contains([0x19, 2]))
        #expect(abs(driver.outputDataRate! - 1000.0 / 3) < 1e-9)
        // Timestamps spaced at the chip's 333.3 Hz, not the 300 Hz asked for.
        let run = InvenSenseTestSupport.poll(driver, for: 0.4, time: time)
        #expect(run.errors.isEmpty)
        #expect(run.samples.count > 100 && run.samples.count < 140, "\(run.samples.count) samples in 0.4 s")
        #expect(abs(InvenSenseTestSupport.medianSpacing(run.samples) - 3e6) < 0.01 * 3e6)
    }

    @Test func theLowPassFilterIsTheWidestBelowNyquist() {
        let expected: [(rate: Double, mpu6050: UInt8, mpu9250: UInt8)] = [
            (1000, 1, 1), (400, 1, 2), (200, 2, 2), (100, 3, 3), (50, 4, 4), (25, 5, 5), (10, 6, 6), (4, 6, 6),
        ]
        func configuration(_ variant: InvenSenseVariant, _ rate: Double) -> UInt8 {
            InvenSenseLowPassFilter.widest(for: rate, from: variant.lowPassFilters).configuration
        }
        for (rate, mpu6050, mpu9250) in expected {
            #expect(configuration(.mpu6050, rate) == mpu6050, "MPU-6050 at \(rate) Hz")
            #expect(configuration(.mpu9250, rate) == mpu9250, "MPU-9250 at \(rate) Hz")
        }
        // Every rate from 22 Hz up gets a filter below its Nyquist frequency.
        for variant in InvenSenseVariant.all {
            for divider in 0...44 {
                let rate = 1000 / (1 + Double(divider))
                let chosen = InvenSenseLowPassFilter.widest(for: rate, from: variant.lowPassFilters)
                #expect(chosen.widestBandwidth < rate / 2, "\(variant.name) at \(rate) Hz")
            }
        }
    }

    @Test func aFastOscillatorIsMeasuredByTheTimestamper() throws {
        // The chip runs 2 % fast: 204 samples a second for 200 Hz.
        let time = TestTime.manual()
        let (driver, _, _) = InvenSenseTestSupport.driver(.mpu6050, oscillatorError: 0.02, time: time)
        try driver.start(sampleRate: 200)
        defer { driver.stop() }
        let run = InvenSenseTestSupport.poll(driver, for: 1.5, time: time)
        #expect(run.errors.isEmpty)
        let realPeriod = 1e9 / 204
        #expect(run.samples.count > 280, "\(run.samples.count) samples in 1.5 s")
        // Once a second has passed the spacing is the chip's real period (2 % from the nominal 5 ms).
        let late = InvenSenseTestSupport.medianSpacing(run.samples.suffix(60))
        #expect(abs(late - realPeriod) < 0.006 * realPeriod, "spacing \(late) ns, the chip's period \(realPeriod) ns")
        let times = run.samples.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing")
    }
}
