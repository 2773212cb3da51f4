/// A polled chip's silence: when its data last came, and whether the silence since is a stall (the chip
/// then gets configured again). A pure value, kept by the poll thread. Times are ns of the device's
/// ``DeviceTime``.
struct SilenceWatch: Sendable {
    /// How long without data is a stall, ns.
    let timeout: UInt64
    /// When data last came (or the watch started), ns.
    private(set) var lastData: UInt64

    /// A watch from `start` that finds a stall after `timeout` seconds without data.
    init(timeout: Double, start: UInt64) {
        self.timeout = MonotonicClock.nanoseconds(timeout)
        lastData = start
    }

    /// Data came at `now`.
    mutating func dataArrived(at now: UInt64) {
        lastData = now
    }

    /// The silence at `now` when it is a stall, in whole ms (the watch then starts over from `now`, so that
    /// a stall is reported once per timeout); nil while data flows.
    mutating func stall(at now: UInt64) -> Int? {
        guard now > lastData, now - lastData > timeout else { return nil }
        defer { lastData = now }
        return Int((now - lastData) / 1_000_000)
    }
}
