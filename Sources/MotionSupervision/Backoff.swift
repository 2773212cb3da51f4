/// The delays between attempts to get something back (a device that failed to open or start, a missing
/// barometer): the first delay, doubled after each failed attempt up to a maximum, and back to the first
/// once an attempt succeeds. A pure value.
public struct Backoff: Sendable, Equatable {
    /// The delay before the first retry, s.
    public let first: Double
    /// The longest delay, s.
    public let maximum: Double
    /// The delay before the next retry, s.
    public private(set) var current: Double

    /// A back-off from `first` doubling up to `maximum` (equal values: a constant delay).
    /// - Precondition: `0 ≤ first ≤ maximum`.
    public init(first: Double, maximum: Double) {
        precondition(first >= 0 && first <= maximum, "0 ≤ first ≤ maximum")
        self.first = first
        self.maximum = maximum
        current = first
    }

    /// The delay to wait now, s; the next one is twice as long (up to ``maximum``).
    public mutating func next() -> Double {
        defer { current = min(current * 2, maximum) }
        return current
    }

    /// After a success: the next failure waits ``first`` again.
    public mutating func reset() {
        current = first
    }
}
