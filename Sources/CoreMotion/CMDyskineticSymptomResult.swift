/// The share of one minute in which dyskinetic symptoms were likely or unlikely (Apple's
/// `CMDyskineticSymptomResult`, from ``CMMovementDisorderManager``). Fractions 0…1. Immutable.
open class CMDyskineticSymptomResult: NSObject, NSCopying, NSSecureCoding {
    private let interval: DateInterval
    private let unlikely: Float
    private let likely: Float

    /// The start of the minute.
    open var startDate: Date { interval.start }
    /// The end of the minute.
    open var endDate: Date { interval.end }
    /// The share of the minute in which symptoms were unlikely.
    open var percentUnlikely: Float { unlikely }
    /// The share of the minute in which symptoms were likely.
    open var percentLikely: Float { likely }

    /// Creates an empty result (both shares 0, at the reference date).
    public override init() {
        interval = DateInterval(start: Date(timeIntervalSinceReferenceDate: 0), duration: 0)
        unlikely = 0
        likely = 0
        super.init()
    }

    /// Returns the receiver itself: the result is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the result (`startDate`, `endDate`, `percentUnlikely`, `percentLikely`).
    open func encode(with coder: NSCoder) {
        coder.encode(date: interval.start, forKey: "startDate")
        coder.encode(date: interval.end, forKey: "endDate")
        coder.encode(Double(unlikely), forKey: "percentUnlikely")
        coder.encode(Double(likely), forKey: "percentLikely")
    }

    /// Reads an archived result; nil when a value is missing or the dates are out of order.
    public required init?(coder: NSCoder) {
        guard let start = coder.decodeDate(forKey: "startDate"), let end = coder.decodeDate(forKey: "endDate"), end >= start,
            let unlikely = coder.decodeRequiredDouble(forKey: "percentUnlikely"),
            let likely = coder.decodeRequiredDouble(forKey: "percentLikely")
        else { return nil }
        interval = DateInterval(start: start, end: end)
        self.unlikely = Float(unlikely)
        self.likely = Float(likely)
        super.init()
    }
}
