/// The pedometer's history: every step (time and estimated length) and every floor climbed or descended,
/// kept for ``retention`` seconds, so that totals between any two times can be given afterwards
/// (`CMPedometer.queryPedometerData(from:to:)`) and live updates counted from any start. Pure value; times in
/// s on the samples' clock (seconds since boot), lengths in m.
public struct PedometerLedger: Sendable, Equatable {
    /// What the pedometer counted between two times.
    public struct Totals: Sendable, Equatable {
        /// Steps.
        public var steps: Int
        /// Estimated distance, m (the sum of the steps' estimated lengths).
        public var distance: Double
        /// Floors climbed (about 3 m each).
        public var floorsAscended: Int
        /// Floors descended.
        public var floorsDescended: Int
        /// Time spent stepping, s: the intervals between steps no longer than 2 s (so pauses do not count).
        public var activeTime: Double

        /// Creates totals.
        /// - Parameters:
        ///   - steps: steps.
        ///   - distance: m.
        ///   - floorsAscended: floors.
        ///   - floorsDescended: floors.
        ///   - activeTime: s.
        public init(steps: Int, distance: Double, floorsAscended: Int, floorsDescended: Int, activeTime: Double) {
            self.steps = steps
            self.distance = distance
            self.floorsAscended = floorsAscended
            self.floorsDescended = floorsDescended
            self.activeTime = activeTime
        }

        /// Average pace while stepping, s/m (nil without distance).
        public var averageActivePace: Double? { distance > 0 && activeTime > 0 ? activeTime / distance : nil }
    }

    /// How long history is kept, s (default 7 days, as Apple's pedometer keeps).
    public let retention: Double
    /// Most steps kept (oldest dropped first); default 1 000 000, 16 MB.
    public let capacity: Int

    private var steps: [(time: Double, length: Double)] = []
    private var floors: [(time: Double, up: Bool)] = []

    /// Creates an empty ledger.
    /// - Parameters:
    ///   - retention: s, > 0.
    ///   - capacity: most steps kept, > 0.
    public init(retention: Double = 7 * 86_400, capacity: Int = 1_000_000) {
        self.retention = retention
        self.capacity = capacity
    }

    /// The time of the oldest step or floor still kept, s (nil when empty).
    public var oldestTime: Double? { [steps.first?.time, floors.first?.time].compactMap { $0 }.min() }

    /// Records a step (in time order even when it is older than the last one recorded: a device replaced).
    /// - Parameters:
    ///   - time: s.
    ///   - length: its estimated length, m.
    public mutating func recordStep(at time: Double, length: Double) {
        if let last = steps.last, last.time > time {
            steps.insert((time, length), at: firstIndex(in: steps, atOrAfter: time))
        } else {
            steps.append((time, length))
        }
        if steps.count > capacity { steps.removeFirst(steps.count - capacity) }
        forget(before: time - retention)
    }

    /// Records a floor climbed (`up`) or descended.
    /// - Parameters:
    ///   - time: s.
    ///   - up: climbed rather than descended.
    public mutating func recordFloor(at time: Double, up: Bool) {
        floors.append((time, up))
        forget(before: time - retention)
    }

    /// The totals of the steps and floors in `start..<end` (s): back-to-back ranges count each step once.
    public func totals(from start: Double, to end: Double) -> Totals {
        var totals = Totals(steps: 0, distance: 0, floorsAscended: 0, floorsDescended: 0, activeTime: 0)
        var previous: Double?
        for step in steps[firstIndex(in: steps, atOrAfter: start)...] {
            guard step.time < end else { break }
            totals.steps += 1
            totals.distance += step.length
            if let previous, step.time - previous <= 2 { totals.activeTime += step.time - previous }
            previous = step.time
        }
        for floor in floors where floor.time >= start && floor.time < end {
            if floor.up { totals.floorsAscended += 1 } else { totals.floorsDescended += 1 }
        }
        return totals
    }

    /// Index of the first entry at or after `time` (binary search: steps are in time order).
    private func firstIndex(in entries: [(time: Double, length: Double)], atOrAfter time: Double) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func forget(before time: Double) {
        if let first = steps.first, first.time < time { steps.removeFirst(firstIndex(in: steps, atOrAfter: time)) }
        floors.removeAll { $0.time < time }
    }

    public static func == (lhs: PedometerLedger, rhs: PedometerLedger) -> Bool {
        lhs.retention == rhs.retention && lhs.capacity == rhs.capacity
            && lhs.steps.elementsEqual(rhs.steps) { $0.time == $1.time && $0.length == $1.length }
            && lhs.floors.elementsEqual(rhs.floors) { $0.time == $1.time && $0.up == $1.up }
    }
}
