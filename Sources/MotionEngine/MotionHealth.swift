/// The ``MotionEngine``'s record of how the device is doing: samples received, the achieved rate, fault episodes
/// and the silence that makes a stall. Times are nanoseconds of `CLOCK_MONOTONIC` (arrival times of
/// deliveries, not sample timestamps).
///
/// A fault episode starts with the first fault (a device `.fault`, a failed start or a stall) while healthy
/// and ends when samples arrive again, or when no one who was told of it is left (``forgetFault()``: the
/// device was replaced, or its last subscriber left); further faults inside an episode are not reported
/// again.
struct MotionHealth {
    /// Window of the achieved sample rate, ns (2 s).
    static let rateWindow: UInt64 = 2_000_000_000
    /// Delivery interval assumed before two deliveries have been seen, s.
    static let assumedDeliveryInterval = 1.0

    /// Samples received since the process started.
    private(set) var samplesReceived: UInt64 = 0
    /// Fault episodes since the process started.
    private(set) var faultsSeen = 0
    /// Description of the fault of the current episode; nil when healthy.
    private(set) var lastFault: String?
    /// What the subscribers were told when the current episode began; nil when healthy. A subscription
    /// added during the episode is told the same.
    private(set) var reportedFault: MotionEngineFault?

    /// Arrival time and sample count of the deliveries of the last ``rateWindow``.
    private var arrivals: [(time: UInt64, count: Int)] = []
    /// Index of the oldest arrival still in the window.
    private var firstArrival = 0
    /// When the device was (last) started, ns.
    private var runStart: UInt64?
    /// Arrival of the latest delivery (or the start), ns.
    private var lastArrival: UInt64?
    /// Smoothed interval between deliveries, s; nil before two deliveries.
    private var deliveryInterval: Double?
    /// Whether the next interval between deliveries spans an outage and must not enter the estimate.
    private var skipNextInterval = true

    /// Whether a fault episode is in progress.
    var isFaulted: Bool { lastFault != nil }

    /// Notes that the device was started at `now` (silence counts from here).
    mutating func deviceStarted(at now: UInt64) {
        runStart = now
        lastArrival = now
        arrivals.removeAll(keepingCapacity: true)
        firstArrival = 0
        skipNextInterval = true
    }

    /// Notes that the device stopped: no rate, no silence.
    mutating func deviceStopped() {
        runStart = nil
        lastArrival = nil
        arrivals.removeAll(keepingCapacity: true)
        firstArrival = 0
    }

    /// Records a delivery of `count` samples at `now`; returns whether it ended a fault episode.
    mutating func recordDelivery(count: Int, at now: UInt64) -> Bool {
        samplesReceived &+= UInt64(count)
        if let lastArrival, !skipNextInterval, now > lastArrival {
            let interval = Double(now - lastArrival) / 1e9
            deliveryInterval = deliveryInterval.map { 0.9 * $0 + 0.1 * interval } ?? interval
        }
        skipNextInterval = false
        lastArrival = now
        arrivals.append((now, count))
        // Drop arrivals that left the window (compacting now and then, not on every delivery).
        while firstArrival < arrivals.count, arrivals[firstArrival].time + Self.rateWindow < now { firstArrival += 1 }
        if firstArrival > 256 {
            arrivals.removeFirst(firstArrival)
            firstArrival = 0
        }
        guard lastFault != nil else { return false }
        forgetFault()
        return true
    }

    /// Starts a fault episode, unless one is in progress; returns whether it started one (and `fault` must
    /// be reported).
    /// - Parameters:
    ///   - fault: what the subscribers are told.
    ///   - description: what the diagnostics show (the device's own words for a device fault).
    mutating func beginFault(_ fault: MotionEngineFault, description: String) -> Bool {
        guard lastFault == nil else { return false }
        lastFault = description
        reportedFault = fault
        faultsSeen += 1
        skipNextInterval = true
        return true
    }

    /// The fault reported for the episode that was the `faultsSeen`-th, if it is still in progress.
    func reportedFault(ofEpisode episode: Int) -> MotionEngineFault? {
        faultsSeen == episode ? reportedFault : nil
    }

    /// Ends the fault episode without samples (nothing if healthy): the device was replaced, or the
    /// subscribers who were told of the fault all left. The next fault begins a new episode.
    mutating func forgetFault() {
        lastFault = nil
        reportedFault = nil
    }

    /// The silence at `now`, s, if it is a stall: longer than 5 × the delivery interval + 0.5 s. Nil while
    /// samples flow, while stopped, and inside a fault episode (already reported).
    func stallSilence(at now: UInt64) -> Double? {
        guard lastFault == nil, let lastArrival, now > lastArrival else { return nil }
        let silence = Double(now - lastArrival) / 1e9
        let threshold = 5 * (deliveryInterval ?? Self.assumedDeliveryInterval) + 0.5
        return silence > threshold ? silence : nil
    }

    /// Samples per second received over the last ~2 s (or since the start, if shorter), Hz.
    func achievedSampleRate(at now: UInt64) -> Double {
        guard let runStart, now > runStart else { return 0 }
        let span = min(now - runStart, Self.rateWindow)
        let since = now - span
        var count = 0
        for arrival in arrivals[firstArrival...] where arrival.time > since { count += arrival.count }
        return span > 0 ? Double(count) / (Double(span) / 1e9) : 0
    }
}
