#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A quaternion `w + x·i + y·j + z·k`, used as a unit quaternion to represent a rotation.
///
/// Convention (Hamilton, active rotation): a unit quaternion `q` rotates a vector by `v' = q ⊗ v ⊗ q*`.
/// As an attitude, `q` rotates device-frame coordinates into reference-frame coordinates,
/// `v_reference = q ⊗ v_device ⊗ q*`, and `q1 * q2` means "rotate by `q2`, then by `q1`".
///
/// All components are dimensionless. `q` and `-q` represent the same rotation but compare unequal with
/// `==` (which is component-wise); use ``angle(to:)`` to compare rotations.
public struct Quaternion: Sendable, Equatable, Hashable {
    /// Scalar (real) part.
    public var w: Double
    /// First vector (imaginary) component, along i.
    public var x: Double
    /// Second vector (imaginary) component, along j.
    public var y: Double
    /// Third vector (imaginary) component, along k.
    public var z: Double

    /// The identity rotation, `1 + 0i + 0j + 0k`.
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Creates a quaternion from its components, unchanged (not normalised).
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// Creates the rotation of `angle` radians about `axis`, right-handed (counter-clockwise looking down
    /// the axis towards the origin). The axis need not be unit length; a zero or non-finite axis gives
    /// ``identity``.
    /// - Parameters:
    ///   - axis: rotation axis (any non-zero length, dimensionless).
    ///   - angle: rotation angle, rad.
    public init(axis: SIMD3<Double>, angle: Double) {
        let unitAxis = axis.normalized
        guard unitAxis != .zero, angle.isFinite else {
            self = .identity
            return
        }
        let halfAngle = angle / 2
        let sine = sin(halfAngle)
        self.init(w: cos(halfAngle), x: unitAxis.x * sine, y: unitAxis.y * sine, z: unitAxis.z * sine)
    }

    /// Creates the rotation whose axis is the direction of `rotationVector` and whose angle is its length
    /// (the exponential map). This is the rotation produced by a constant angular velocity `ω` during `Δt`
    /// with `rotationVector = ω·Δt`.
    /// - Parameter rotationVector: axis × angle, rad.
    public init(rotationVector: SIMD3<Double>) {
        let angle = rotationVector.length
        guard angle > 0, angle.isFinite else {
            self = .identity
            return
        }
        self.init(axis: rotationVector, angle: angle)
    }

    /// Creates the unit quaternion of a rotation matrix (Shepperd's method, numerically stable for every
    /// rotation). The matrix maps the same way the quaternion rotates: `matrix * v == q.rotate(v)`.
    /// The result has `w >= 0` up to the sign ambiguity at 180°, and is normalised.
    /// - Parameter matrix: a proper rotation matrix (orthonormal, determinant +1).
    public init(rotationMatrix matrix: Matrix3) {
        let m00 = matrix.row0.x, m01 = matrix.row0.y, m02 = matrix.row0.z
        let m10 = matrix.row1.x, m11 = matrix.row1.y, m12 = matrix.row1.z
        let m20 = matrix.row2.x, m21 = matrix.row2.y, m22 = matrix.row2.z
        let trace = m00 + m11 + m22
        let result: Quaternion
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            result = Quaternion(w: s / 4, x: (m21 - m12) / s, y: (m02 - m20) / s, z: (m10 - m01) / s)
        } else if m00 > m11 && m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            result = Quaternion(w: (m21 - m12) / s, x: s / 4, y: (m01 + m10) / s, z: (m02 + m20) / s)
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            result = Quaternion(w: (m02 - m20) / s, x: (m01 + m10) / s, y: s / 4, z: (m12 + m21) / s)
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            result = Quaternion(w: (m10 - m01) / s, x: (m02 + m20) / s, y: (m12 + m21) / s, z: s / 4)
        }
        self = result.normalized
    }

    /// The vector (imaginary) part `(x, y, z)`.
    public var vector: SIMD3<Double> {
        SIMD3(x, y, z)
    }

    /// The Hamilton product `lhs ⊗ rhs`: as rotations, apply `rhs` first, then `lhs`.
    @inlinable @inline(__always)
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        Quaternion(
            w: lhs.w * rhs.w - lhs.x * rhs.x - lhs.y * rhs.y - lhs.z * rhs.z,
            x: lhs.w * rhs.x + lhs.x * rhs.w + lhs.y * rhs.z - lhs.z * rhs.y,
            y: lhs.w * rhs.y - lhs.x * rhs.z + lhs.y * rhs.w + lhs.z * rhs.x,
            z: lhs.w * rhs.z + lhs.x * rhs.y - lhs.y * rhs.x + lhs.z * rhs.w
        )
    }

    /// The conjugate `w - x·i - y·j - z·k`; for a unit quaternion, the inverse rotation.
    @inlinable
    public var conjugate: Quaternion {
        Quaternion(w: w, x: -x, y: -y, z: -z)
    }

    /// The squared norm `w² + x² + y² + z²` (dimensionless).
    public var normSquared: Double {
        w * w + x * x + y * y + z * z
    }

    /// The norm `√(w² + x² + y² + z²)` (dimensionless); 1 for a rotation.
    public var norm: Double {
        normSquared.squareRoot()
    }

    /// The multiplicative inverse `q* / |q|²`, so that `q * q.inverse == identity`. A zero or non-finite
    /// quaternion has no inverse; ``identity`` is returned for it.
    public var inverse: Quaternion {
        let normSquared = self.normSquared
        guard normSquared > 0, normSquared.isFinite else { return .identity }
        let c = conjugate
        return Quaternion(w: c.w / normSquared, x: c.x / normSquared, y: c.y / normSquared, z: c.z / normSquared)
    }

    /// The unit quaternion with the same direction; ``identity`` for a zero or non-finite quaternion.
    @inlinable @inline(__always)
    public var normalized: Quaternion {
        let norm = (w * w + x * x + y * y + z * z).squareRoot()
        guard norm > 0, norm.isFinite else { return .identity }
        return Quaternion(w: w / norm, x: x / norm, y: y / norm, z: z / norm)
    }

    /// Rotates a vector: `q ⊗ (0, v) ⊗ q*`, assuming `q` is a unit quaternion. With an attitude `q`
    /// (device → reference), this maps device coordinates to reference coordinates; the result has the
    /// vector's unit.
    @inlinable @inline(__always)
    public func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
        // v' = v + 2w (u × v) + 2 u × (u × v), the expanded form of q v q* for |q| = 1.
        let tx = 2 * (y * v.z - z * v.y), ty = 2 * (z * v.x - x * v.z), tz = 2 * (x * v.y - y * v.x)
        return SIMD3(
            v.x + w * tx + (y * tz - z * ty), v.y + w * ty + (z * tx - x * tz), v.z + w * tz + (x * ty - y * tx))
    }

    /// The rotation matrix of this unit quaternion, such that `rotationMatrix * v == rotate(v)`.
    ///
    /// For an attitude (device → reference): row i is reference axis i seen in the device frame, column j
    /// is device axis j seen in the reference frame.
    @inlinable @inline(__always)
    public var rotationMatrix: Matrix3 {
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z
        let wx = w * x, wy = w * y, wz = w * z
        return Matrix3(
            row0: SIMD3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)),
            row1: SIMD3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)),
            row2: SIMD3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy))
        )
    }

    /// The rotation angle of this unit quaternion, rad, in [0, π] (the sign of `q` does not matter).
    public var rotationAngle: Double {
        2 * atan2(vector.length, abs(w))
    }

    /// The smallest rotation angle that takes `self` to `other`, rad, in [0, π]: the angle of
    /// `self⁻¹ ⊗ other`. Symmetric, and insensitive to the sign of either quaternion.
    public func angle(to other: Quaternion) -> Double {
        (normalized.conjugate * other.normalized).rotationAngle
    }
}
