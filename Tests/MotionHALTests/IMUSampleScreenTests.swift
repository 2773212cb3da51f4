import MotionHAL
import Testing

/// What hardware drivers check before delivery: values that are not numbers, and saturation.
@Suite struct IMUSampleScreenTests {
    static let info = IMUDeviceInfo(
        driver: "test", chip: "test", sensors: .all, supportedSampleRates: 100...100, defaultSampleRate: 100,
        accelerometerRange: 78.4532, gyroscopeRange: 34.9, magnetometerRange: nil)

    static func sample(_ time: Double, acceleration: SIMD3<Double> = SIMD3(0, 0, 9.81)) -> IMUSample {
        IMUSample(
            timestamp: UInt64(time * 1e9), acceleration: acceleration, rotationRate: .zero,
            magneticField: SIMD3(0, 20, -40))
    }

    @Test func samplesThatAreNotNumbersAreDroppedAndReported() {
        var screen = IMUSampleScreen(info: Self.info)
        let bad = Self.sample(0.02, acceleration: SIMD3(.nan, 0, 9.81))
        let (kept, fault) = screen.screen([Self.sample(0.01), bad, Self.sample(0.03)])
        #expect(kept == [Self.sample(0.01), Self.sample(0.03)])
        #expect(fault == .readFailed("1 sample with values that are not numbers dropped"))
        #expect(screen.screen([Self.sample(0.04)]).fault == nil)
    }

    @Test func saturationIsReportedOncePerEpisodeAndTheSamplesKept() {
        var screen = IMUSampleScreen(info: Self.info)
        let saturated = { (time: Double) in Self.sample(time, acceleration: SIMD3(78.45, 0, 9.81)) }
        let first = screen.screen([Self.sample(0), saturated(0.01), saturated(0.02)])
        #expect(first.samples.count == 3)
        #expect(first.fault == .readFailed("accelerometer saturated (reading at full scale)"))
        // The same episode (less than a second since the last saturated sample): not again.
        #expect(screen.screen([saturated(0.5), Self.sample(0.6)]).fault == nil)
        #expect(screen.screen([saturated(1.4)]).fault == nil)
        // A second without saturation ends the episode; the next one is reported.
        #expect(screen.screen([Self.sample(2.0), saturated(2.5)]).fault != nil)
        // Without a range (the magnetometer here) nothing is saturated.
        let strongField = IMUSample(timestamp: 9_000_000_000, magneticField: SIMD3(5000, 0, 0))
        #expect(screen.screen([strongField]).fault == nil)
    }
}
