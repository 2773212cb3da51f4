import MotionContract
import MotionMath
import MotionVibration

/// The vibration service's pure core: the accelerometer's samples (g, as the engine delivers them) through
/// a ``VibrationAnalyzer``, with the intervals of the summaries and the spectra kept by sample time (so they
/// are exact whatever the delivery's rhythm), and the contract's payloads made from what it finds. Stepped
/// on the device's thread under the service's lock.
struct VibrationPipeline: Sendable {
    /// What one delivery brought.
    struct Output: Sendable, Equatable {
        /// The summaries of the intervals that ended (usually none or one).
        var summaries: [VibrationPayload] = []
        /// The spectra that came due.
        var spectra: [VibrationSpectrumPayload] = []
        /// The zone's new state, when a summary changed it.
        var severity: MotionStatePayload.Severity?
    }

    /// The settings.
    let settings: VibrationServiceSettings
    /// The summaries' interval, s.
    let interval: Double
    /// Where the Unix times (`ts`) come from.
    let wallClock: WallClockAnchor
    private(set) var analyzer: VibrationAnalyzer
    private var nextSummary: Double?
    private var nextSpectrum: Double?
    /// The `seq` of the last summary and of the last spectrum (they go on across restarts).
    private(set) var summarySequence: UInt64
    private(set) var spectrumSequence: UInt64
    /// Samples taken in since the service started.
    private(set) var samplesIn: UInt64 = 0
    private var lastTimestamp: Double?

    /// A pipeline for a device sampling at `sampleRate` Hz.
    /// - Parameters:
    ///   - summarySequence: the `seq` of the last summary published before (0 at the agent's start).
    ///   - spectrumSequence: the same for the spectra.
    init(
        settings: VibrationServiceSettings, interval: Double, sampleRate: Double, wallClock: WallClockAnchor, summarySequence: UInt64 = 0,
        spectrumSequence: UInt64 = 0
    ) {
        self.settings = settings
        self.interval = interval
        self.wallClock = wallClock
        self.summarySequence = summarySequence
        self.spectrumSequence = spectrumSequence
        analyzer = VibrationAnalyzer(settings: settings.analyzerSettings, sampleRate: sampleRate)
    }

    /// Feeds one delivery's accelerometer samples (g); returns what came due.
    mutating func add(_ samples: [VectorSample]) -> Output {
        var output = Output()
        for sample in samples {
            let time = sample.timestamp
            if nextSummary == nil {
                nextSummary = time + interval
                nextSpectrum = settings.spectrumInterval > 0 ? time + settings.spectrumInterval : nil
            }
            if let due = nextSummary, time >= due {
                summarise(at: lastTimestamp ?? time, into: &output)
                nextSummary = due + interval * ((time - due) / interval + 1).rounded(.down)
            }
            if let due = nextSpectrum, time >= due {
                if let spectrum = spectrumPayload() { output.spectra.append(spectrum) }
                nextSpectrum = due + settings.spectrumInterval * ((time - due) / settings.spectrumInterval + 1).rounded(.down)
            }
            analyzer.add(specificForce: sample.value * standardGravity, timestamp: time)
            samplesIn += 1
            lastTimestamp = time
        }
        return output
    }

    /// The spectrum now, as the `spectrum` command asks (nil before the first segment).
    mutating func requestedSpectrum() -> VibrationSpectrumPayload? {
        spectrumPayload()
    }

    private mutating func summarise(at time: Double, into output: inout Output) {
        let previous = analyzer.zone
        guard let summary = analyzer.finishInterval() else { return }
        summarySequence += 1
        let g = standardGravity  // the engine's accelerations are in g, the analyser's in m/s²
        let levels = summary.levels
        let payload = VibrationPayload(
            seq: summarySequence, timestamp: time, ts: wallClock.unixTime(of: time), duration: summary.duration, rate: analyzer.sampleRate,
            band: summary.band, velocity: summary.velocity, velocityRMS: summary.velocityRMS,
            levels: .init(
                acceleration: levels.rms / g, accelerationRMS: levels.vectorRMS / g, peak: levels.peak / g, peakVector: levels.vectorPeak / g,
                kurtosis: levels.kurtosis),
            zone: summary.zone.rawValue, previousZone: summary.zoneChanged ? previous?.rawValue : nil,
            limits: .init(ab: settings.limits.ab, bc: settings.limits.bc, cd: settings.limits.cd), machineClass: settings.machineClass,
            runningSpeed: Self.runningSpeed(summary.runningSpeed), peaks: Self.peaks(summary.peaks))
        output.summaries.append(payload)
        if summary.zoneChanged { output.severity = .init(zone: summary.zone.rawValue, velocityRMS: summary.velocityRMS) }
    }

    /// The current spectrum, stamped with the time of its last sample.
    private mutating func spectrumPayload() -> VibrationSpectrumPayload? {
        guard let spectrum = analyzer.currentSpectrum, let time = analyzer.currentSpectrumTime else { return nil }
        spectrumSequence += 1
        let (peaks, speed) = analyzer.analysePeaks(of: spectrum)
        // Each line's RMS in mg: √(density × resolution) / g × 1000.
        let scale = 1000 / standardGravity
        let lines = spectrum.density.prefix(spectrum.lines).map { ($0 * spectrum.resolution).squareRoot() * scale }
        return VibrationSpectrumPayload(
            seq: spectrumSequence, timestamp: time, ts: wallClock.unixTime(of: time), rate: spectrum.sampleRate, resolution: spectrum.resolution,
            averages: spectrum.averages, band: analyzer.effectiveBand, axes: (lines.map(\.x), lines.map(\.y), lines.map(\.z)),
            runningSpeed: Self.runningSpeed(speed), peaks: Self.peaks(peaks))
    }

    private static func runningSpeed(_ speed: VibrationSummary.RunningSpeed?) -> VibrationPayload.RunningSpeed? {
        speed.map { .init(frequency: $0.frequency, source: $0.isConfigured ? .configured : .estimated) }
    }

    private static func peaks(_ peaks: [OrderedPeak]) -> [VibrationPayload.Peak] {
        peaks.map { ordered in
            .init(
                frequency: ordered.peak.frequency, amplitude: ordered.peak.amplitude / standardGravity, velocity: ordered.peak.velocity,
                order: ordered.order, axis: ["x", "y", "z"][ordered.peak.dominantAxis])
        }
    }
}
