import Synchronization

/// How the payloads' Unix times (`ts`) are made from sample times (`timestamp`, seconds since boot):
/// `ts = timestamp + offset`, with `offset` the Unix time of the monotonic clock's zero as last measured,
/// and whether the wall clock is synchronized (while it is not, sample payloads say `tsUncertain`).
///
/// Shared by every encoder of an agent and updated by whoever watches the clock (the agent's clock
/// supervisor), so a wall clock set while the agent runs (a board without a real-time clock synchronizing
/// after boot) moves every later `ts` with it; sample times are never touched. Thread-safe, lock-free.
public final class WallClockAnchor: Sendable {
    private let offsetBits: Atomic<UInt64>
    private let unsynchronized: Atomic<Bool>

    /// Creates an anchor.
    /// - Parameters:
    ///   - offset: Unix time minus seconds since boot, s.
    ///   - synchronized: whether the wall clock is synchronized (default `true`).
    public init(offset: Double, synchronized: Bool = true) {
        offsetBits = Atomic(offset.bitPattern)
        unsynchronized = Atomic(!synchronized)
    }

    /// Unix time minus seconds since boot, s.
    public var offset: Double { Double(bitPattern: offsetBits.load(ordering: .relaxed)) }

    /// Whether the wall clock is synchronized.
    public var isSynchronized: Bool { !unsynchronized.load(ordering: .relaxed) }

    /// Records a new measurement.
    /// - Parameters:
    ///   - offset: Unix time minus seconds since boot, s.
    ///   - synchronized: whether the wall clock is synchronized.
    public func update(offset: Double, synchronized: Bool) {
        offsetBits.store(offset.bitPattern, ordering: .relaxed)
        unsynchronized.store(!synchronized, ordering: .relaxed)
    }

    /// The Unix time of a sample time, s.
    /// - Parameter timestamp: seconds since boot.
    public func unixTime(of timestamp: Double) -> Double { timestamp + offset }
}
