import MotionModel

/// Finds free falls: while a device falls freely its accelerometer reads (almost) nothing, so a specific
/// force below ``threshold`` for at least ``minimumDuration`` is a fall; it ends when the force rises above
/// ``endThreshold`` (hysteresis, so noise around the threshold does not split one fall into several). The
/// event carries the fall's duration and the height it implies, `g·t²/2`. Pure value, fed at the sensor
/// rate; times in s, forces in g.
public struct FreeFallDetector: Sendable {
    /// A fall begins below this specific force, g. Default 0.3 g.
    public let threshold: Double
    /// A fall ends above this specific force, g. Default 0.5 g.
    public let endThreshold: Double
    /// Shortest fall reported, s. Default 0.2 s, a drop of about 20 cm: a runner's flight between two steps
    /// (0.1–0.15 s, with the accelerometer reading almost nothing) or a hop is no fall.
    public let minimumDuration: Double

    private var fallStart: Double?

    /// Creates a detector; every parameter has the default of ``FreeFallSettings``.
    public init(
        threshold: Double = FreeFallSettings().threshold, endThreshold: Double = FreeFallSettings().endThreshold,
        minimumDuration: Double = FreeFallSettings().minimumDuration
    ) {
        self.threshold = threshold
        self.endThreshold = endThreshold
        self.minimumDuration = minimumDuration
    }

    /// Whether a fall is in progress.
    public var isFalling: Bool { fallStart != nil }

    /// Feeds one sample's specific force.
    /// - Parameters:
    ///   - specificForce: the accelerometer's magnitude, g (1 at rest, 0 in free fall).
    ///   - timestamp: s.
    /// - Returns: the fall, once it has ended and lasted long enough.
    public mutating func update(specificForce: Double, timestamp: Double) -> MotionEvent? {
        if let start = fallStart {
            guard specificForce > endThreshold else { return nil }
            fallStart = nil
            let duration = timestamp - start
            guard duration >= minimumDuration else { return nil }
            return MotionEvent(kind: .freeFall, timestamp: start, duration: duration, magnitude: Self.height(falling: duration))
        }
        if specificForce < threshold { fallStart = timestamp }
        return nil
    }

    /// The height a free fall of `duration` seconds implies, m: `g·t²/2` with standard gravity.
    public static func height(falling duration: Double) -> Double { 9.80665 * duration * duration / 2 }
}
