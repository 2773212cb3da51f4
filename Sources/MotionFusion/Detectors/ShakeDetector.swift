import MotionModel

/// Finds shakes: excursions of the user acceleration above ``threshold`` that reverse direction at least
/// ``minimumReversals`` times within ``window`` (a tap or a single push reverses at most once). After a
/// shake nothing is reported until the signal has stayed below the threshold for ``quietTime``. Pure value,
/// fed at the sensor rate; times in s, accelerations in g (device axes).
public struct ShakeDetector: Sendable {
    /// An excursion starts above this user acceleration, g. Default 1.2 g.
    public let threshold: Double
    /// Direction reversals that make a shake. Default 3 (four excursions, back and forth twice).
    public let minimumReversals: Int
    /// Window the reversals must fall in, s. Default 1.5 s.
    public let window: Double
    /// Quiet time that ends a shake, s. Default 0.5 s.
    public let quietTime: Double

    /// Excursions of the current burst: start time and direction (unit vector of the first sample).
    private var excursions: [(start: Double, direction: SIMD3<Double>)] = []
    private var inExcursion = false
    private var peak = 0.0
    private var lastAbove = -Double.infinity
    private var reported = false

    /// Creates a detector; every parameter has the documented default (those of ``ShakeSettings``).
    public init(
        threshold: Double = ShakeSettings().threshold, minimumReversals: Int = Int(ShakeSettings().reversals), window: Double = 1.5,
        quietTime: Double = 0.5
    ) {
        self.threshold = threshold
        self.minimumReversals = minimumReversals
        self.window = window
        self.quietTime = quietTime
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - userAcceleration: device axes, g.
    ///   - timestamp: s.
    /// - Returns: a shake, once it has enough reversals (once per burst).
    public mutating func update(userAcceleration: SIMD3<Double>, timestamp: Double) -> MotionEvent? {
        let magnitude = (userAcceleration * userAcceleration).sum().squareRoot()
        guard magnitude > threshold else {
            inExcursion = false
            if timestamp - lastAbove >= quietTime {
                excursions = []
                reported = false
                peak = 0
            }
            return nil
        }
        lastAbove = timestamp
        peak = max(peak, magnitude)
        guard !inExcursion else { return nil }
        inExcursion = true
        let direction = userAcceleration / magnitude
        // A new excursion counts when it points against the previous one; the same way, it replaces it.
        if let last = excursions.last, (last.direction * direction).sum() > 0 { excursions.removeLast() }
        excursions.append((timestamp, direction))
        excursions.removeAll { timestamp - $0.start > window }
        guard !reported, excursions.count > minimumReversals, let first = excursions.first else { return nil }
        reported = true
        return MotionEvent(kind: .shake, timestamp: first.start, duration: timestamp - first.start, magnitude: peak)
    }
}
