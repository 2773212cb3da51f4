/// When an emulated chip produces its samples: every period of its own oscillator from the moment its
/// sampling starts, the oscillator off by ``oscillatorError`` from the configured rate as real chips are
/// (datasheets give ±1 % to ±3 %).
public struct EmulatedSampleClock: Sendable {
    /// Relative error of the chip's oscillator: 0.01 runs 1 % fast.
    public var oscillatorError: Double
    /// `CLOCK_MONOTONIC` ns when sampling started; `nil` while the chip does not sample.
    public private(set) var start: UInt64?
    /// The real period, ns.
    public private(set) var period: Double = 0
    /// How many samples have been handed out since ``start``.
    public private(set) var produced: UInt64 = 0

    /// Creates a stopped clock.
    /// - Parameter oscillatorError: relative error of the oscillator (default 0).
    public init(oscillatorError: Double = 0) {
        self.oscillatorError = oscillatorError
    }

    /// Starts sampling at `rate` (Hz, as configured) from `time`.
    public mutating func start(rate: Double, at time: UInt64) {
        start = time
        period = 1e9 / (rate * (1 + oscillatorError))
        produced = 0
    }

    /// Stops sampling.
    public mutating func stop() {
        start = nil
    }

    /// The measurement times of the samples due by `time` and not handed out yet, oldest first.
    public mutating func due(at time: UInt64) -> [UInt64] {
        guard let start, time > start else { return [] }
        let total = UInt64(Double(time - start) / period)
        guard total > produced else { return [] }
        let times = (produced + 1...total).map { start + UInt64(Double($0) * period) }
        produced = total
        return times
    }
}
