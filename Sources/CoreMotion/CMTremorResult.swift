/// The share of one minute in which a resting tremor of each strength was likely (Apple's
/// `CMTremorResult`, from ``CMMovementDisorderManager``). Fractions 0…1 that add up to 1. Immutable.
open class CMTremorResult: NSObject, NSCopying, NSSecureCoding {
    private let interval: DateInterval
    private let shares: [Float]

    /// The start of the minute.
    open var startDate: Date { interval.start }
    /// The end of the minute.
    open var endDate: Date { interval.end }
    /// The share of the minute in which the algorithm could not tell (e.g. the arm moved).
    open var percentUnknown: Float { shares[0] }
    /// The share of the minute with no tremor.
    open var percentNone: Float { shares[1] }
    /// The share of the minute with a slight tremor.
    open var percentSlight: Float { shares[2] }
    /// The share of the minute with a mild tremor.
    open var percentMild: Float { shares[3] }
    /// The share of the minute with a moderate tremor.
    open var percentModerate: Float { shares[4] }
    /// The share of the minute with a strong tremor.
    open var percentStrong: Float { shares[5] }

    private static let keys = ["percentUnknown", "percentNone", "percentSlight", "percentMild", "percentModerate", "percentStrong"]

    /// Creates an empty result (all shares 0, at the reference date).
    public override init() {
        interval = DateInterval(start: Date(timeIntervalSinceReferenceDate: 0), duration: 0)
        shares = Array(repeating: 0, count: Self.keys.count)
        super.init()
    }

    /// Returns the receiver itself: the result is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the result (`startDate`, `endDate`, each share under its property's name).
    open func encode(with coder: NSCoder) {
        coder.encode(date: interval.start, forKey: "startDate")
        coder.encode(date: interval.end, forKey: "endDate")
        for (key, share) in zip(Self.keys, shares) { coder.encode(Double(share), forKey: key) }
    }

    /// Reads an archived result; nil when a value is missing or the dates are out of order.
    public required init?(coder: NSCoder) {
        guard let start = coder.decodeDate(forKey: "startDate"), let end = coder.decodeDate(forKey: "endDate"), end >= start
        else { return nil }
        var shares: [Float] = []
        for key in Self.keys {
            guard let share = coder.decodeRequiredDouble(forKey: key) else { return nil }
            shares.append(Float(share))
        }
        interval = DateInterval(start: start, end: end)
        self.shares = shares
        super.init()
    }
}
