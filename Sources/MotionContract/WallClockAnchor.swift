import Synchronization

/// How the payloads' Unix times (`ts`) are made from sample times (`timestamp`, seconds since boot):
/// `ts = timestamp + offset`, with `offset` the Unix time of the monotonic clock's zero as last measured,
/// and whether the wall clock is synchronized (while it is not, sample payloads say `tsUncertain`).
///
/// Shared by every encoder of an agent and updated by whoever watches the clock (the agent's clock
/// supervisor), so a wall clock set while the agent runs (a board without a real-time clock synchronizing
/// after boot) moves every later `ts` with it; sample times are never touched. Thread-safe: both values
/// under one lock, so a reader never sees one measurement's offset with another's state.
public final class WallClockAnchor: Sendable {
    /// The offset and whether the clock is synchronized, read together.
    public struct Reading: Sendable, Equatable {
        /// Unix time minus seconds since boot, s.
        public var offset: Double
        /// Whether the wall clock is synchronized.
        public var isSynchronized: Bool
    }

    private let state: Mutex<Reading>

    /// Creates an anchor.
    /// - Parameters:
    ///   - offset: Unix time minus seconds since boot, s.
    ///   - synchronized: whether the wall clock is synchronized (default `true`).
    public init(offset: Double, synchronized: Bool = true) {
        state = Mutex(Reading(offset: offset, isSynchronized: synchronized))
    }

    /// Both values of the last measurement.
    public var reading: Reading { state.withLock { $0 } }

    /// Unix time minus seconds since boot, s.
    public var offset: Double { reading.offset }

    /// Whether the wall clock is synchronized.
    public var isSynchronized: Bool { reading.isSynchronized }

    /// Records a new measurement.
    /// - Parameters:
    ///   - offset: Unix time minus seconds since boot, s.
    ///   - synchronized: whether the wall clock is synchronized.
    public func update(offset: Double, synchronized: Bool) {
        state.withLock { $0 = Reading(offset: offset, isSynchronized: synchronized) }
    }

    /// The Unix time of a sample time, s.
    /// - Parameter timestamp: seconds since boot.
    public func unixTime(of timestamp: Double) -> Double { timestamp + offset }
}
