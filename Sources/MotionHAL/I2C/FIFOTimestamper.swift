/// Timestamps for samples read in bursts from a chip's FIFO, which carries no time of its own.
///
/// A burst read at time `t` returns `n` samples; the newest was measured at most one sample period before
/// `t` (the chip writes a sample into its FIFO as soon as it has measured it). The chip's oscillator is
/// not the host's: its real period differs from the nominal one by up to a few per cent. So the
/// timestamper keeps an estimate of the real period (samples counted against host time since the first
/// read, once a second's worth has passed), predicts each burst from the last timestamp given, and pulls
/// the prediction into the window `[t − period, t]` when read jitter or drift has moved it out. The result:
/// timestamps strictly increasing, spaced by the measured period, never later than the read, and within
/// one period of the measurement whatever the oscillator's error.
public struct FIFOTimestamper: Sendable {
    /// The period the chip was configured for, ns.
    public let nominalPeriod: Double
    /// The current estimate of the chip's real period, ns.
    public private(set) var period: Double
    /// Largest relative difference accepted between the measured and the nominal period (default 0.1).
    public var maximumPeriodError = 0.1

    private var lastTimestamp: Double?
    /// Whether the next burst starts afresh (first burst, or after ``reset()``): its newest sample is
    /// stamped with the read time rather than predicted.
    private var startsAfresh = true
    private var anchor: (time: Double, count: Int)?
    private var samplesSinceAnchor = 0

    /// Creates a timestamper for a chip running at `sampleRate`.
    /// - Parameter sampleRate: the configured output data rate, Hz.
    public init(sampleRate: Double) {
        nominalPeriod = 1e9 / sampleRate
        period = nominalPeriod
    }

    /// Forgets what was measured: the FIFO was reset or overflowed, so the next burst starts afresh (its
    /// timestamps still follow the last one given: strictly increasing across the reset).
    public mutating func reset() {
        startsAfresh = true
        anchor = nil
        samplesSinceAnchor = 0
        period = nominalPeriod
    }

    /// Timestamps for a burst of `count` samples read at `readTime`, oldest first.
    /// - Parameters:
    ///   - count: samples in the burst (0 gives none).
    ///   - readTime: `CLOCK_MONOTONIC` ns taken just before the FIFO count was read.
    /// - Returns: `count` strictly increasing timestamps, ns, the last one not after `readTime`.
    public mutating func timestamps(count: Int, readTime: UInt64) -> [UInt64] {
        guard count > 0 else { return [] }
        let now = Double(readTime)
        // The real period: samples counted against host time since the first burst (whose newest sample
        // was at most a period before its read), once enough time has passed for jitter not to matter.
        if let anchor {
            samplesSinceAnchor += count
            let elapsed = now - anchor.time
            if elapsed > 1e9 {
                let measured = elapsed / Double(samplesSinceAnchor)
                let bounds = nominalPeriod * (1 - maximumPeriodError)...nominalPeriod * (1 + maximumPeriodError)
                period = min(max(measured, bounds.lowerBound), bounds.upperBound)
            }
        } else {
            anchor = (now, count)
        }
        var newest = startsAfresh ? now : (lastTimestamp ?? now) + Double(count) * period
        newest = min(max(newest, now - period), now)
        startsAfresh = false
        var spacing = period
        if let last = lastTimestamp, newest - Double(count - 1) * spacing <= last {
            // Pulled back so far that the burst would overlap the previous one: squeeze it in after it.
            spacing = (newest - last) / Double(count)
        }
        lastTimestamp = newest
        return (0..<count).map { index in UInt64(newest - Double(count - 1 - index) * spacing) }
    }
}
