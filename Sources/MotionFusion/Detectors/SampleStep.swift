/// The time from one sample to the next, as the detectors' smoothing filters take it: 0 for the first
/// sample, never negative, and at most 0.5 s (a gap in the data counts as one half-second step, not as a
/// long one that would flush a filter). Pure value; s.
struct SampleStep: Sendable {
    private var previous: Double?

    /// The step from the previous sample to this one, s; `timestamp` becomes the previous one.
    mutating func advance(to timestamp: Double) -> Double {
        defer { previous = timestamp }
        return previous.map { min(max(timestamp - $0, 0), 0.5) } ?? 0
    }
}
