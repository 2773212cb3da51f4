import Testing

@testable import MotionAgent

/// The band the vibration service measures: the configured one, its top clipped to the spectrum's last line
/// (rate ÷ 2.56) and to 0.7 of the chip's accelerometer filter's −3 dB bandwidth, as `info` states it.
@Suite struct VibrationBandTests {
    static func settings(band: ClosedRange<Double> = 10...1000) -> VibrationServiceSettings {
        var settings = VibrationServiceSettings()
        settings.band = band
        return settings
    }

    @Test func theChipsFilterClipsTheTopWhenItIsTheLowerEdge() throws {
        // LSM6DSOX at 6667 Hz: 0.7 × ODR/2 = 2333 Hz is below the spectrum's top, 2604 Hz.
        #expect(Self.settings(band: 10...5000).measurableBand(atRate: 6667, filterBandwidth: 3333.5) == 10...(0.7 * 3333.5))
        // A filter far above the Nyquist frequency (an analogue one of 2 kHz at 2 kHz): the spectrum's top,
        // 781 Hz, is the lower.
        #expect(Self.settings(band: 10...5000).measurableBand(atRate: 2000, filterBandwidth: 2000) == 10...(2000 / 2.56))
        // ICM-20948 unfiltered at 4500 Hz: 0.7 × 1209 Hz = 846 Hz, below ISO 20816's 1000 Hz too.
        #expect(Self.settings().measurableBand(atRate: 4500, filterBandwidth: 1209) == 10...(0.7 * 1209))
        // MPU-6050 at 1 kHz: 0.7 × its 184 Hz low-pass, not 390 Hz, is the honest top.
        #expect(Self.settings().measurableBand(atRate: 1000, filterBandwidth: 184) == 10...(0.7 * 184))
        // Unknown (simulator, replay): the rate alone.
        #expect(Self.settings().measurableBand(atRate: 1000) == 10...390.625)
    }

    @Test func aFilterThatLeavesNoLinesInTheBandLeavesNoBand() {
        // 800 lines at 1 kHz: 0.49 Hz a line; a 15 Hz filter leaves the band 10–10.5 Hz, about one line.
        #expect(Self.settings().measurableBand(atRate: 1000, filterBandwidth: 15) == nil)
    }
}
