import MotionModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the device is tilted beyond ``threshold`` from a reference attitude's vertical, with hysteresis:
/// the state turns on above ``threshold`` and off below ``threshold`` − ``hysteresis``. The reference is the
/// first gravity seen unless set. For doors, lids, a machine that must stay level. Pure value; angles in
/// rad, gravity in g (device axes).
public struct TiltDetector: Sendable {
    /// Tilted above this angle from the reference, rad. Default 30°.
    public let threshold: Double
    /// Back below `threshold − hysteresis`, rad. Default 5°.
    public let hysteresis: Double
    /// The reference's gravity direction (unit, device axes); nil until set or first seen.
    public private(set) var reference: SIMD3<Double>?
    /// Whether the device is tilted now.
    public private(set) var isTilted = false
    /// The angle from the reference at the last sample, rad.
    public private(set) var angle = 0.0

    /// Creates a detector; every parameter has the documented default (those of ``TiltSettings``, in rad).
    public init(
        threshold: Double = TiltSettings().threshold * (Double.pi / 180), hysteresis: Double = TiltSettings().hysteresis * (Double.pi / 180),
        reference: SIMD3<Double>? = nil
    ) {
        self.threshold = threshold
        self.hysteresis = hysteresis
        self.reference = reference.map(Self.unit)
    }

    /// Makes `gravity` (device axes, g) the reference.
    public mutating func setReference(_ gravity: SIMD3<Double>) { reference = Self.unit(gravity) }

    /// Feeds one sample's gravity.
    /// - Parameter gravity: device axes, g.
    /// - Returns: the new state when it changed.
    public mutating func update(gravity: SIMD3<Double>) -> Bool? {
        let direction = Self.unit(gravity)
        guard direction.x.isFinite, direction.y.isFinite, direction.z.isFinite else { return nil }
        guard let reference else {
            self.reference = direction
            return nil
        }
        let cosine = min(max((direction * reference).sum(), -1), 1)
        angle = acos(cosine)
        let tilted = isTilted ? angle > threshold - hysteresis : angle > threshold
        guard tilted != isTilted else { return nil }
        isTilted = tilted
        return tilted
    }

    private static func unit(_ vector: SIMD3<Double>) -> SIMD3<Double> { vector / (vector * vector).sum().squareRoot() }
}
