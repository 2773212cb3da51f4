/// Everything the vibration service says about a machine, from the accelerometer at its full rate: at the
/// end of each interval a ``VibrationSummary`` (velocity RMS integrated in the frequency domain over the
/// segments of the interval, the time-domain levels, the zone, the running speed and the peaks), and at any
/// time the last complete Welch spectrum of ``Settings/averages`` segments. Pure value: fed samples in
/// order, on one thread; intervals are closed by the caller (by sample time). Accelerations in m/s²,
/// velocities in mm/s, frequencies in Hz, times in s.
public struct VibrationAnalyzer: Sendable {
    /// What the analysis measures and how.
    public struct Settings: Sendable, Equatable {
        /// The measuring band, Hz (ISO 20816-1: 10–1000 Hz above 600 rpm); its top is clipped to what the
        /// rate allows (``VibrationAnalyzer/effectiveBand``).
        public var band: ClosedRange<Double>
        /// The spectrum's lines (one of ``allowedLines``): N = 2.56 × lines samples a segment.
        public var lines: Int
        /// Segments averaged into a published spectrum.
        public var averages: Int
        /// How many peaks are reported.
        public var peakCount: Int
        /// The zone boundaries.
        public var limits: VibrationSeverity.Limits
        /// The zones' hysteresis, a fraction of a boundary (0…0.5).
        public var hysteresis: Double
        /// The running speed, Hz, when configured; nil: estimated from the spectrum.
        public var runningSpeed: Double?

        /// The line counts an analyser offers (N = 256 … 8192 samples).
        public static let allowedLines = [100, 200, 400, 800, 1600, 3200]

        /// Settings; the defaults are ISO 20816-1's band, 800 lines, 8 averages, 10 peaks, class II's
        /// boundaries with 10 % hysteresis, and an estimated running speed.
        public init(
            band: ClosedRange<Double> = 10...1000, lines: Int = 800, averages: Int = 8, peakCount: Int = 10,
            limits: VibrationSeverity.Limits = VibrationSeverity.Limits.machineClass(2)!, hysteresis: Double = 0.1, runningSpeed: Double? = nil
        ) {
            self.band = band
            self.lines = lines
            self.averages = averages
            self.peakCount = peakCount
            self.limits = limits
            self.hysteresis = hysteresis
            self.runningSpeed = runningSpeed
        }

        /// Samples per segment, N = 2.56 × ``lines``.
        public var segmentLength: Int { lines * 256 / 100 }
    }

    /// The settings.
    public let settings: Settings
    /// The accelerometer's sample rate, Hz.
    public let sampleRate: Double
    /// The band measured, Hz: ``Settings/band`` with its top clipped to the spectrum's last line (rate ÷ 2.56,
    /// below the 0.4 × rate an accelerometer's anti-aliasing filter still passes).
    public let effectiveBand: ClosedRange<Double>

    private var segmenter: WelchSegmenter
    private var intervalAverage: SpectrumAverage
    private var spectrumAverage: SpectrumAverage
    private var statistics: VibrationStatistics
    private var severity: VibrationSeverity
    private var lastTimestamp: Double?
    private var intervalStart: Double?
    /// The last complete average of ``Settings/averages`` segments.
    public private(set) var spectrum: AccelerationSpectrum?
    /// When ``spectrum`` was completed: the time of the last sample of its last segment, s.
    public private(set) var spectrumTime: Double?
    /// The zone now; nil before the first summary.
    public var zone: VibrationSeverity.Zone? { severity.zone }

    /// An analyser of a stream at `sampleRate` Hz (at least 2.56 × the band's low edge × 4, so that the band
    /// has room: 100 Hz for the default 10 Hz edge).
    public init(settings: Settings = Settings(), sampleRate: Double) {
        precondition(Settings.allowedLines.contains(settings.lines) && settings.averages >= 1 && settings.peakCount >= 0)
        self.settings = settings
        self.sampleRate = sampleRate
        let top = min(settings.band.upperBound, sampleRate / 2.56)
        effectiveBand = settings.band.lowerBound...max(top, settings.band.lowerBound)
        segmenter = WelchSegmenter(segmentLength: settings.segmentLength, sampleRate: sampleRate)
        intervalAverage = SpectrumAverage(binCount: settings.segmentLength / 2 + 1)
        spectrumAverage = SpectrumAverage(binCount: settings.segmentLength / 2 + 1)
        statistics = VibrationStatistics(band: settings.band.lowerBound...max(top, settings.band.lowerBound))
        severity = VibrationSeverity(limits: settings.limits, hysteresis: settings.hysteresis)
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - specificForce: the accelerometer's reading, m/s² (device axes).
    ///   - timestamp: its time, s (monotonic). A gap of more than three sample intervals drops the unfinished
    ///     segment, which would otherwise join two stretches of signal.
    public mutating func add(specificForce: SIMD3<Double>, timestamp: Double) {
        defer { lastTimestamp = timestamp }
        if intervalStart == nil { intervalStart = timestamp }
        let interval = 1 / sampleRate
        if let last = lastTimestamp {
            let deltaTime = timestamp - last
            guard deltaTime > 0 else { return }
            if deltaTime > 3 * interval { segmenter.discardPartialSegment() }
            statistics.update(specificForce: specificForce, deltaTime: min(deltaTime, 3 * interval))
        }
        guard segmenter.append(specificForce) else { return }
        intervalAverage.add(segmenter.segmentDensity)
        spectrumAverage.add(segmenter.segmentDensity)
        if spectrumAverage.count == settings.averages {
            spectrum = spectrumAverage.spectrum(sampleRate: sampleRate, segmentLength: settings.segmentLength)
            spectrumTime = timestamp
            spectrumAverage.reset()
        }
    }

    /// The spectrum to publish now: the last complete average, or before there is one, the segments so far;
    /// nil before the first segment.
    public var currentSpectrum: AccelerationSpectrum? {
        spectrum ?? spectrumAverage.spectrum(sampleRate: sampleRate, segmentLength: settings.segmentLength)
    }

    /// The time of ``currentSpectrum``'s last sample, s: ``spectrumTime``, or the newest sample's for the
    /// segments so far.
    public var currentSpectrumTime: Double? { spectrum == nil ? lastTimestamp : spectrumTime }

    /// Closes the interval that ends now and starts the next.
    /// - Returns: its summary, or nil when no segment has completed yet (the first N samples); an interval
    ///   shorter than a segment is judged on the last segments there are.
    public mutating func finishInterval() -> VibrationSummary? {
        defer {
            intervalStart = lastTimestamp
            statistics.reset()
        }
        guard let levels = statistics.summary,
            let spectrum = intervalAverage.spectrum(sampleRate: sampleRate, segmentLength: settings.segmentLength) ?? currentSpectrum
        else { return nil }
        intervalAverage.reset()
        let velocity = spectrum.velocityRMS(in: effectiveBand)
        let previous = severity.zone
        _ = severity.update(velocity: velocity.vector)
        guard let zone = severity.zone else { return nil }  // a level that is not a number judges nothing
        let (peaks, speed) = analysePeaks(of: spectrum)
        return VibrationSummary(
            duration: (lastTimestamp ?? 0) - (intervalStart ?? 0), band: effectiveBand, velocity: velocity.axes, velocityRMS: velocity.vector,
            levels: levels, zone: zone, zoneChanged: zone != previous, runningSpeed: speed, peaks: peaks,
            segments: spectrum.averages)
    }

    /// The largest peaks of `spectrum` (from three bins up to the band's top) with their orders, and the
    /// running speed they were ordered by.
    public func analysePeaks(of spectrum: AccelerationSpectrum) -> (peaks: [OrderedPeak], runningSpeed: VibrationSummary.RunningSpeed?) {
        // From the third line up (the lowest hold what is left of the segment's mean); a band too narrow
        // for that has no peaks.
        let lowest = 3 * spectrum.resolution
        let peaks = lowest < effectiveBand.upperBound ? spectrum.peaks(count: settings.peakCount, in: lowest...effectiveBand.upperBound) : []
        let speed: VibrationSummary.RunningSpeed? =
            if let configured = settings.runningSpeed {
                .init(frequency: configured, isConfigured: true)
            } else if let estimate = RunningSpeed.estimate(
                from: peaks, resolution: spectrum.resolution, maximumFrequency: effectiveBand.upperBound / 4)
            {
                .init(frequency: estimate, isConfigured: false)
            } else {
                nil
            }
        let ordered = peaks.map { peak in
            OrderedPeak(peak: peak, order: speed.map { RunningSpeed.order(of: peak.frequency, runningFrequency: $0.frequency) })
        }
        return (ordered, speed)
    }
}

/// A peak and its order of the running speed (nil without one).
public struct OrderedPeak: Sendable, Equatable {
    /// The peak.
    public var peak: SpectrumPeak
    /// Its frequency over the running speed's.
    public var order: Double?
}

/// What one interval of the vibration service found.
public struct VibrationSummary: Sendable, Equatable {
    /// A running speed and whether it was configured (else estimated).
    public struct RunningSpeed: Sendable, Equatable {
        /// The 1× frequency, Hz.
        public var frequency: Double
        /// Whether it came from the settings rather than the spectrum.
        public var isConfigured: Bool

        /// A running speed of `frequency` Hz, configured or estimated.
        public init(frequency: Double, isConfigured: Bool) {
            self.frequency = frequency
            self.isConfigured = isConfigured
        }
    }

    /// The interval's length, s.
    public var duration: Double
    /// The band measured, Hz.
    public var band: ClosedRange<Double>
    /// Velocity RMS per axis, mm/s (frequency domain).
    public var velocity: SIMD3<Double>
    /// Velocity RMS of the vector, mm/s.
    public var velocityRMS: Double
    /// The time-domain levels (m/s²).
    public var levels: VibrationStatistics.Summary
    /// The zone after this interval.
    public var zone: VibrationSeverity.Zone
    /// Whether this interval changed it (the first always does).
    public var zoneChanged: Bool
    /// The running speed, configured or estimated; nil when neither.
    public var runningSpeed: RunningSpeed?
    /// The largest peaks, largest first.
    public var peaks: [OrderedPeak]
    /// The segments the velocity was measured over.
    public var segments: Int
}
