import MotionModel

/// Finds impacts: a specific force above ``threshold`` starts one; it ends, and is reported with its peak
/// and duration, once the force has stayed below ``rearmThreshold`` for ``quietTime`` (so the bounces of one
/// blow are one impact). Pure value, fed at the sensor rate; times in s, forces in g.
public struct ImpactDetector: Sendable {
    /// An impact begins above this specific force, g. Default 2.5 g.
    public let threshold: Double
    /// It may end below this specific force, g. Default 1.5 g.
    public let rearmThreshold: Double
    /// How long the force must stay below ``rearmThreshold`` for the impact to end, s. Default 0.1 s.
    public let quietTime: Double

    private var impact: (start: Double, peak: Double, lastAbove: Double)?

    /// Creates a detector; every parameter has the documented default (those of ``ImpactSettings``).
    public init(threshold: Double = ImpactSettings().threshold, rearmThreshold: Double = ImpactSettings().rearmThreshold, quietTime: Double = 0.1) {
        self.threshold = threshold
        self.rearmThreshold = rearmThreshold
        self.quietTime = quietTime
    }

    /// Feeds one sample's specific force.
    /// - Parameters:
    ///   - specificForce: the accelerometer's magnitude, g.
    ///   - timestamp: s.
    /// - Returns: the impact, once it has ended: its start, how long the force stayed above
    ///   ``rearmThreshold``, and its peak (g).
    public mutating func update(specificForce: Double, timestamp: Double) -> MotionEvent? {
        guard var current = impact else {
            if specificForce > threshold { impact = (timestamp, specificForce, timestamp) }
            return nil
        }
        current.peak = max(current.peak, specificForce)
        if specificForce >= rearmThreshold { current.lastAbove = timestamp }
        impact = current
        guard timestamp - current.lastAbove >= quietTime else { return nil }
        impact = nil
        return MotionEvent(
            kind: .impact, timestamp: current.start, duration: current.lastAbove - current.start, magnitude: current.peak)
    }
}
