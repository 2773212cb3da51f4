import Testing

@testable import MotionAgent

/// The band the vibration service measures: the configured one, its top clipped to the spectrum's last line
/// (rate ÷ 2.56) and to the chip's accelerometer filter, as `info` states it.
@Suite struct VibrationBandTests {
    static func settings(band: ClosedRange<Double> = 10...1000) -> VibrationServiceSettings {
        var settings = VibrationServiceSettings()
        settings.band = band
        return settings
    }

    @Test func theChipsFilterClipsTheTopWhenItIsTheLowerEdge() throws {
        // LSM6DSOX at 6667 Hz: ODR/2 is above the spectrum's top, so the rate decides.
        #expect(Self.settings(band: 10...5000).measurableBand(atRate: 6667, filterBandwidth: 3333.5) == 10...(6667 / 2.56))
        // ICM-20948 unfiltered at 4500 Hz: its 1209 Hz bandwidth is below 4500 ÷ 2.56 = 1758 Hz.
        #expect(Self.settings(band: 10...5000).measurableBand(atRate: 4500, filterBandwidth: 1209) == 10...1209)
        // ISO 20816's default 10–1000 Hz fits inside both.
        #expect(Self.settings().measurableBand(atRate: 4500, filterBandwidth: 1209) == 10...1000)
        // MPU-6050 at 1 kHz: the 184 Hz low-pass, not 390 Hz, is the honest top.
        #expect(Self.settings().measurableBand(atRate: 1000, filterBandwidth: 184) == 10...184)
        // Unknown (simulator, replay): the rate alone.
        #expect(Self.settings().measurableBand(atRate: 1000) == 10...390.625)
    }

    @Test func aFilterThatLeavesNoLinesInTheBandLeavesNoBand() {
        // 800 lines at 1 kHz: 0.49 Hz a line; a 10.5 Hz filter leaves the band 10–10.5 Hz, about one line.
        #expect(Self.settings().measurableBand(atRate: 1000, filterBandwidth: 10.5) == nil)
    }
}
