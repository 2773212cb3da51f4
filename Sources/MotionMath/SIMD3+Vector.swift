/// Euclidean vector helpers for the 3-D vectors used throughout MotionBridge.
///
/// The vectors carry whatever unit their context gives them (m/s², rad/s, µT, or none for directions);
/// the helpers are unit-agnostic: `dot` returns the product of the units, `length` the same unit as the
/// components, `normalized` a dimensionless direction.
extension SIMD3 where Scalar == Double {
    /// The dot (scalar) product `self · other`, in the product of the operands' units.
    public func dot(_ other: SIMD3<Double>) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    /// The right-handed cross product `self × other`, in the product of the operands' units.
    public func cross(_ other: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            y * other.z - z * other.y,
            z * other.x - x * other.z,
            x * other.y - y * other.x
        )
    }

    /// The squared Euclidean length, in the square of the components' unit.
    public var lengthSquared: Double {
        dot(self)
    }

    /// The Euclidean length, in the components' unit.
    public var length: Double {
        lengthSquared.squareRoot()
    }

    /// The unit vector pointing the same way (dimensionless), or the zero vector when the length is zero
    /// or not finite — a zero vector has no direction, and callers check for it rather than get NaNs.
    public var normalized: SIMD3<Double> {
        let length = self.length
        guard length > 0, length.isFinite else { return .zero }
        return self / length
    }

    /// `true` when all three components are finite (neither NaN nor infinite).
    public var isFinite: Bool {
        x.isFinite && y.isFinite && z.isFinite
    }
}

/// Standard gravity, m/s² per g (9.80665, by definition): Apple's unit of acceleration.
public let standardGravity = 9.80665
