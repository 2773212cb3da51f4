import MotionMath

/// The altitude relative to the first reading, from barometric pressure: the standard atmosphere's
/// altitude of each reading (``BarometricFormula``) minus the first's, smoothed by a first-order low-pass of
/// ``smoothingTime`` (a barometer's 1–2 Pa of noise is 10–20 cm). The core of `CMAltimeter`'s relative
/// altitude. Weather changes the pressure by up to about 1 hPa an hour (8 m): over hours the relative
/// altitude drifts by that much. Pure value; Pa, m, s.
public struct RelativeAltitudeEstimator: Sendable, Equatable {
    /// Time constant of the smoothing, s. Default 1.
    public let smoothingTime: Double
    /// The first reading's pressure, Pa (nil before it).
    public private(set) var referencePressure: Double?
    /// The smoothed altitude relative to the first reading, m.
    public private(set) var relativeAltitude = 0.0
    /// The smoothed pressure, Pa.
    public private(set) var pressure = 0.0
    private var previous: Double?

    /// Creates an estimator.
    /// - Parameter smoothingTime: s, ≥ 0.
    public init(smoothingTime: Double = 1) {
        self.smoothingTime = smoothingTime
    }

    /// Feeds one reading.
    /// - Parameters:
    ///   - pressure: Pa, > 0.
    ///   - timestamp: s.
    /// - Returns: the relative altitude now, m (nil for a reading that is not a pressure).
    @discardableResult
    public mutating func update(pressure reading: Double, timestamp: Double) -> Double? {
        guard reading.isFinite, reading > 0 else { return nil }
        guard let reference = referencePressure, let last = previous else {
            referencePressure = reading
            pressure = reading
            previous = timestamp
            return 0
        }
        let step = min(max(timestamp - last, 0), 10)
        previous = timestamp
        let gain = smoothingTime > 0 ? min(step / smoothingTime, 1) : 1
        pressure += (reading - pressure) * gain
        relativeAltitude = BarometricFormula.altitude(pressure: pressure, referencePressure: reference)
        return relativeAltitude
    }
}
