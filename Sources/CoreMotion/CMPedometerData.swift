import MotionFusion

/// Information about the distance traveled by a user on foot: what a ``CMPedometer`` counted between two
/// dates. Immutable; safe to hand between threads although, like Apple's, not `Sendable`.
open class CMPedometerData: NSObject, NSCopying, NSSecureCoding {
    private let values: Values

    struct Values {
        var startDate: Date
        var endDate: Date
        var totals: PedometerLedger.Totals
        var floorCounting: Bool
        var currentCadence: Double?
        var currentPace: Double?
    }

    init(_ values: Values) {
        self.values = values
        super.init()
    }

    /// Creates empty data (no steps, from and to 1970-01-01): for subclasses and test doubles, as Apple's
    /// `init()` is.
    public override init() {
        values = Values(
            startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 0),
            totals: PedometerLedger.Totals(steps: 0, distance: 0, floorsAscended: 0, floorsDescended: 0, activeTime: 0),
            floorCounting: false, currentCadence: nil, currentPace: nil)
        super.init()
    }

    /// The start time for the pedometer data.
    open var startDate: Date { values.startDate }
    /// The end time for the pedometer data.
    open var endDate: Date { values.endDate }
    /// The number of steps taken by the user.
    open var numberOfSteps: NSNumber { NSNumber(value: values.totals.steps) }
    /// The estimated distance (in meters) traveled by the user (each step's length estimated from the
    /// cadence; see `StrideLength`).
    open var distance: NSNumber? { NSNumber(value: values.totals.distance) }
    /// The approximate number of floors ascended by walking (nil without a barometer).
    open var floorsAscended: NSNumber? { values.floorCounting ? NSNumber(value: values.totals.floorsAscended) : nil }
    /// The approximate number of floors descended by walking (nil without a barometer).
    open var floorsDescended: NSNumber? { values.floorCounting ? NSNumber(value: values.totals.floorsDescended) : nil }
    /// The current pace of the user, measured in seconds per meter (live updates only; nil in queries and
    /// when not stepping).
    open var currentPace: NSNumber? { values.currentPace.map { NSNumber(value: $0) } }
    /// The rate at which steps are taken, in steps per second (live updates only; nil in queries and when
    /// not stepping).
    open var currentCadence: NSNumber? { values.currentCadence.map { NSNumber(value: $0) } }
    /// The average pace of the user, measured in seconds per meter, over the time spent stepping.
    open var averageActivePace: NSNumber? { values.totals.averageActivePace.map { NSNumber(value: $0) } }

    /// Returns the receiver itself: the data is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True: the data decodes only the values it expects.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the data: `startDate`, `endDate` (s since 1970), `numberOfSteps`, `distance`,
    /// `floorsAscended`, `floorsDescended`, `activeTime`, `floorCounting`, and `currentCadence` and
    /// `currentPace` when there are.
    open func encode(with coder: NSCoder) {
        coder.encode(date: values.startDate, forKey: "startDate")
        coder.encode(date: values.endDate, forKey: "endDate")
        coder.encode(values.totals.steps, forKey: "numberOfSteps")
        coder.encode(values.totals.distance, forKey: "distance")
        coder.encode(values.totals.floorsAscended, forKey: "floorsAscended")
        coder.encode(values.totals.floorsDescended, forKey: "floorsDescended")
        coder.encode(values.totals.activeTime, forKey: "activeTime")
        coder.encode(values.floorCounting, forKey: "floorCounting")
        coder.encodeIfPresent(values.currentCadence, forKey: "currentCadence")
        coder.encodeIfPresent(values.currentPace, forKey: "currentPace")
    }

    /// Reads archived data; nil when a value is missing or a count is negative.
    public required init?(coder: NSCoder) {
        guard let start = coder.decodeDate(forKey: "startDate"), let end = coder.decodeDate(forKey: "endDate"),
            coder.containsValue(forKey: "numberOfSteps"), let distance = coder.decodeRequiredDouble(forKey: "distance"),
            let activeTime = coder.decodeRequiredDouble(forKey: "activeTime")
        else { return nil }
        let steps = coder.decodeInteger(forKey: "numberOfSteps")
        let ascended = coder.decodeInteger(forKey: "floorsAscended")
        let descended = coder.decodeInteger(forKey: "floorsDescended")
        guard steps >= 0, ascended >= 0, descended >= 0, distance >= 0, activeTime >= 0 else { return nil }
        values = Values(
            startDate: start, endDate: end,
            totals: PedometerLedger.Totals(
                steps: steps, distance: distance, floorsAscended: ascended, floorsDescended: descended, activeTime: activeTime),
            floorCounting: coder.decodeBool(forKey: "floorCounting"),
            currentCadence: coder.decodeRequiredDouble(forKey: "currentCadence"),
            currentPace: coder.decodeRequiredDouble(forKey: "currentPace"))
        super.init()
    }
}
