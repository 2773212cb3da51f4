/// Watches the wall clock against the monotonic one. Their difference, the Unix time of the monotonic
/// clock's zero, drifts while a daemon slews the clock (by adjtime's 500 ppm, or chrony's up to 83 333 ppm,
/// its default `maxslewrate`) and jumps when the clock is set
/// (a daemon's first synchronization, `date -s`, a resume from suspend, which `CLOCK_MONOTONIC` does not
/// count). A pure value: the caller reads both clocks and feeds them in.
public struct WallClockWatch: Sendable, Equatable {
    /// A jump of the wall clock.
    public struct Step: Sendable, Equatable {
        /// How far the wall clock moved beyond the monotonic one, s (negative: set back).
        public var size: Double
        /// When it was seen, monotonic ns.
        public var monotonicTime: UInt64

        /// Creates a step.
        /// - Parameters:
        ///   - size: the jump, s.
        ///   - monotonicTime: when it was seen, monotonic ns.
        public init(size: Double, monotonicTime: UInt64) {
            self.size = size
            self.monotonicTime = monotonicTime
        }
    }

    /// A change of the offset smaller than this plus ``slewAllowance`` × the time since the previous
    /// reading is slewing or reading jitter, s (default 5 ms: a preempted reading of the two clocks).
    public var tolerance: Double
    /// The largest rate at which a slewed clock moves against the monotonic one: chrony's default
    /// `maxslewrate` (83 333 ppm) with margin, 10 %. A setting smaller than that in one reading's time is
    /// taken for slewing (ntpd and chrony step only beyond 128 ms or their configured threshold anyway).
    public var slewAllowance = 0.1
    /// The Unix time of the monotonic zero as last read, s; `nil` before the first reading.
    public private(set) var offset: Double?
    /// Steps seen.
    public private(set) var steps = 0
    /// The last step seen.
    public private(set) var lastStep: Step?
    private var lastReading: UInt64?

    /// Creates a watch.
    /// - Parameter tolerance: the jitter allowed, s (default 5 ms).
    public init(tolerance: Double = 0.005) {
        self.tolerance = tolerance
    }

    /// Takes a reading of both clocks, made as close together as possible.
    /// - Parameters:
    ///   - monotonic: `CLOCK_MONOTONIC`, ns.
    ///   - unixTime: `CLOCK_REALTIME`, s.
    /// - Returns: the step, when the wall clock jumped since the previous reading.
    public mutating func observe(monotonic: UInt64, unixTime: Double) -> Step? {
        let current = unixTime - Double(monotonic) / 1e9
        defer {
            offset = current
            lastReading = monotonic
        }
        guard let previous = offset, let last = lastReading else { return nil }
        let elapsed = Double(monotonic &- last) / 1e9
        let change = current - previous
        guard abs(change) > tolerance + slewAllowance * max(elapsed, 0) else { return nil }
        let step = Step(size: change, monotonicTime: monotonic)
        steps += 1
        lastStep = step
        return step
    }
}
