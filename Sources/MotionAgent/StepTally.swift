import MotionFusion

/// The `steps` service's totals since it started, taken from the pedometer's ledger in back-to-back
/// ranges, so that every step counts once however the service's ticks and the detector's batches
/// interleave. A pure value; the agent keeps it with the pipelines.
///
/// A range never reaches past what the detectors have seen (``advance(to:seenThrough:ledger:)``'s
/// `seenThrough`): a step still in a batch not yet analysed is counted by the next tick instead of lost.
/// Time that runs backwards by more than 1 s (a replay started again) starts a new range from there; the
/// totals go on.
struct StepTally: Sendable, Equatable {
    /// Steps counted since the service started.
    private(set) var steps: UInt64 = 0
    /// Distance since the service started, m.
    private(set) var distance = 0.0
    /// Floors climbed since the service started.
    private(set) var floorsAscended: UInt64 = 0
    /// Floors descended since the service started.
    private(set) var floorsDescended: UInt64 = 0
    /// The end of the ranges counted so far, s since boot (nil before the first tick).
    private(set) var countedUntil: Double?

    /// Counts the ledger's steps and floors from the end of the last range up to `time`, but not past
    /// `seenThrough`.
    /// - Parameters:
    ///   - time: the tick's time, s since boot.
    ///   - seenThrough: the last sample the detectors analysed, s since boot (nil: none yet).
    ///   - ledger: the totals of a range `[start, end)` (``PedometerLedger/totals(from:to:)``).
    mutating func advance(to time: Double, seenThrough: Double?, ledger: (Double, Double) -> PedometerLedger.Totals) {
        let end = min(time, seenThrough.map { $0.nextUp } ?? time)
        guard let start = countedUntil, end >= start - 1 else {
            // The first tick (the service counts from here), or a timeline that started again.
            countedUntil = end
            return
        }
        guard end > start else { return }
        let totals = ledger(start, end)
        steps += UInt64(totals.steps)
        distance += totals.distance
        floorsAscended += UInt64(totals.floorsAscended)
        floorsDescended += UInt64(totals.floorsDescended)
        countedUntil = end
    }
}
