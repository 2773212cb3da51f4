#if canImport(Glibc)
import Glibc
#endif
import MotionHAL
import MotionTestSupport
import MotionVibration
import Testing

/// The analyser on the simulator's machines, whose truth is known: severity, zone, running speed, orders.
@Suite struct VibrationAnalyzerTests {
    /// `seconds` of `machine` at `rate` Hz through an analyser with `settings`, closing an interval every
    /// `interval` s; the summaries.
    static func run(
        _ machine: SimulatedMachine, rate: Double = 2000, seconds: Double = 20, interval: Double = 10,
        settings: VibrationAnalyzer.Settings = .init()
    ) -> (analyzer: VibrationAnalyzer, summaries: [VibrationSummary]) {
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: .machine(machine), seed: 34))
        var analyzer = VibrationAnalyzer(settings: settings, sampleRate: rate)
        var summaries: [VibrationSummary] = []
        var nextClose = interval
        for index in 0..<Int(seconds * rate) {
            let time = Double(index) / rate
            if time >= nextClose {
                if let summary = analyzer.finishInterval() { summaries.append(summary) }
                nextClose += interval
            }
            guard let acceleration = device.sample(index: index, sampleRate: rate).acceleration else { continue }
            analyzer.add(specificForce: acceleration, timestamp: time)
        }
        if let summary = analyzer.finishInterval() { summaries.append(summary) }
        return (analyzer, summaries)
    }

    @Test func aClassTwoMachineAtFiveMillimetresASecondIsZoneCWithItsOneTimesLine() throws {
        let (analyzer, summaries) = Self.run(SimulatedMachine(rpm: 1480, severity: 5))
        let summary = try #require(summaries.last)
        #expect(summaries.count == 2)
        #expect(abs(summary.velocityRMS / 5 - 1) < 0.05, "\(summary.velocityRMS) mm/s")
        #expect(summary.zone == .c)
        #expect(summaries.first?.zoneChanged == true && summary.zoneChanged == false)
        let resolution = 2000 / Double(analyzer.settings.segmentLength)
        let speed = try #require(summary.runningSpeed)
        #expect(!speed.isConfigured)
        #expect(abs(speed.frequency - 1480 / 60) <= resolution, "\(speed.frequency) Hz")
        // Every component is among the peaks at its order, on its axis.
        let machine = SimulatedMachine(rpm: 1480, severity: 5)
        for component in machine.components {
            let peak = try #require(summary.peaks.first { abs(($0.order ?? 0) - component.order) < 0.05 }, "order \(component.order)")
            let axis = component.axis.x == 1 ? 0 : component.axis.y == 1 ? 1 : 2
            #expect(peak.peak.dominantAxis == axis, "order \(component.order)")
            let expectedVelocity = 5 * component.share.squareRoot()
            #expect(abs(peak.peak.velocity / expectedVelocity - 1) < 0.03, "order \(component.order): \(peak.peak.velocity) mm/s")
        }
        // A sine per component: every axis's kurtosis is a sine mixture's, far from an impacting bearing's.
        #expect(summary.levels.kurtosis.max() < 3)
        #expect(abs(summary.band.upperBound - 2000 / 2.56) < 1e-9, "the band's top clipped to the last line")
    }

    @Test(arguments: [(1, 0.5, "A"), (1, 1.2, "B"), (3, 3.0, "B"), (4, 20.0, "D"), (2, 9.0, "D")])
    func machinesFallIntoTheirClassesZones(machineClass: Int, severity: Double, zone: String) throws {
        let settings = VibrationAnalyzer.Settings(limits: try #require(VibrationSeverity.Limits.machineClass(machineClass)))
        let summary = try #require(Self.run(SimulatedMachine(rpm: 2950, severity: severity), seconds: 12, settings: settings).summaries.last)
        #expect(summary.zone.rawValue == zone, "class \(machineClass) at \(severity) mm/s: \(summary.velocityRMS) mm/s")
    }

    @Test func aConfiguredRunningSpeedOrdersThePeaks() throws {
        let settings = VibrationAnalyzer.Settings(lines: 1600, runningSpeed: 1480 / 60)
        let summary = try #require(Self.run(SimulatedMachine(rpm: 1480, severity: 2), seconds: 16, interval: 16, settings: settings).summaries.last)
        #expect(summary.runningSpeed == .init(frequency: 1480 / 60, isConfigured: true))
        let bearing = try #require(summary.peaks.first { abs(($0.order ?? 0) - 3.57) < 0.03 })
        #expect(bearing.peak.dominantAxis == 0)
    }

    @Test func theSpectrumIsCompleteAfterItsAveragesAndTheIntervalNeedsASegment() throws {
        var analyzer = VibrationAnalyzer(settings: .init(lines: 400, averages: 4), sampleRate: 1000)
        #expect(analyzer.finishInterval() == nil, "no sample")
        for index in 0..<1023 { analyzer.add(specificForce: SIMD3(0, 0, 9.8), timestamp: Double(index) / 1000) }
        #expect(analyzer.currentSpectrum == nil && analyzer.finishInterval() == nil, "no segment before 1024 samples")
        for index in 1023..<(1024 + 3 * 512) { analyzer.add(specificForce: SIMD3(0, 0, 9.8), timestamp: Double(index) / 1000) }
        #expect(analyzer.spectrum?.averages == 4)
        #expect(analyzer.finishInterval()?.velocityRMS == 0, "a still machine")
    }

    @Test func aBandNarrowerThanThreeLinesOrAValueBeyondSinglePrecisionJudgesWithoutTrapping() throws {
        // 1–2 Hz with 0.98 Hz lines: no peak can be looked for (the third line is above the band's top).
        var narrow = VibrationAnalyzer(settings: .init(band: 1...2, lines: 800), sampleRate: 2000)
        for index in 0..<4096 { narrow.add(specificForce: SIMD3(sin(Double(index) / 100), 0, 9.8), timestamp: Double(index) / 2000) }
        let finished = narrow.finishInterval()
        let summary = try #require(finished)
        #expect(summary.peaks.isEmpty && summary.velocityRMS.isFinite)
        // A reading beyond Float's range spoils one segment as an infinite one does; the zone is still judged.
        var analyzer = VibrationAnalyzer(settings: .init(lines: 100, averages: 1), sampleRate: 1000)
        for index in 0..<2000 {
            analyzer.add(specificForce: index == 10 ? SIMD3(1e39, 0, 0) : SIMD3(0, 0, 9.8), timestamp: Double(index) / 1000)
        }
        let judged = analyzer.finishInterval()
        #expect(judged?.velocityRMS.isFinite == true)
        // Stamped with the last sample of its last segment (segments of 256 end at 0.255, 0.383, … s).
        #expect(analyzer.spectrumTime.map { $0 <= 1.999 && $0 > 1.8 } == true, "\(String(describing: analyzer.spectrumTime))")
    }

    @Test func aGapDropsTheUnfinishedSegment() {
        var analyzer = VibrationAnalyzer(settings: .init(lines: 400, averages: 1), sampleRate: 1000)
        for index in 0..<1000 { analyzer.add(specificForce: SIMD3(0, 0, 9.8), timestamp: Double(index) / 1000) }
        // 0.5 s lost: the 1000 samples before and 500 after do not make a segment of 1024 joined across it.
        for index in 1500..<2000 { analyzer.add(specificForce: SIMD3(0, 0, 9.8), timestamp: Double(index) / 1000) }
        #expect(analyzer.spectrum == nil)
        for index in 2000..<2524 { analyzer.add(specificForce: SIMD3(0, 0, 9.8), timestamp: Double(index) / 1000) }
        #expect(analyzer.spectrum?.averages == 1)
    }
}
