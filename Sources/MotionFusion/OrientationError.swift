#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// The orientation error of an estimate against a reference, split as the BROAD benchmark scores it
/// (Laidig et al., Data 6(7), 2021): with the error quaternion in the earth frame e = q_est ⊗ q_ref⁻¹ (both
/// rotating sensor → earth, z up), the total error is its rotation angle, the heading error the part about
/// the vertical and the inclination error the rest. All in radians.
public struct OrientationError: Sendable, Equatable {
    /// Rotation angle between estimate and reference: 2·acos|e_w|, rad in [0, π].
    public var total: Double
    /// Error about the vertical: 2·atan|e_z / e_w|, rad in [0, π].
    public var heading: Double
    /// Error of the tilt: 2·acos √(e_w² + e_z²), rad in [0, π].
    public var inclination: Double

    /// The error of `estimate` against `reference` (any norm; both are normalised).
    /// - Parameters:
    ///   - estimate: estimated rotation sensor → earth.
    ///   - reference: true rotation sensor → earth.
    public init(estimate: Quaternion, reference: Quaternion) {
        let e = estimate.normalized * reference.normalized.conjugate
        let w = abs(e.w)
        total = 2 * acos(min(w, 1))
        heading = 2 * atan(w == 0 ? .infinity : abs(e.z) / w)
        inclination = 2 * acos(min((e.w * e.w + e.z * e.z).squareRoot(), 1))
    }
}
