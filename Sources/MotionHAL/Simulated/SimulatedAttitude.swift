#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rotation held as a unit quaternion (w, x, y, z), used by the simulator for attitudes.
///
/// An attitude is the rotation from the body (board) frame to the earth frame ENU (x east, y north, z up):
/// a vector is carried from body to earth coordinates by `v_enu = q ⊗ v_body ⊗ q*`, which
/// ``rotate(_:)`` computes. Composition follows the Hamilton product: `(a * b).rotate(v)` equals
/// `a.rotate(b.rotate(v))`.
///
/// This type is deliberately minimal: MotionHAL does not depend on MotionFusion, whose quaternion type
/// is the one to use for fusion work.
public struct SimulatedAttitude: Sendable, Equatable, CustomStringConvertible {
    /// Scalar part (dimensionless).
    public var w: Double
    /// Vector part, x component (dimensionless).
    public var x: Double
    /// Vector part, y component (dimensionless).
    public var y: Double
    /// Vector part, z component (dimensionless).
    public var z: Double

    /// The identity rotation: body axes aligned with ENU (device face up, y pointing north).
    public static let identity = SimulatedAttitude(w: 1, x: 0, y: 0, z: 0)

    /// Creates a rotation from quaternion components, normalising them to unit length.
    ///
    /// - Precondition: the components are finite and not all zero.
    public init(w: Double, x: Double, y: Double, z: Double) {
        let norm = (w * w + x * x + y * y + z * z).squareRoot()
        precondition(norm.isFinite && norm > 0, "a rotation needs a non-zero, finite quaternion")
        self.w = w / norm
        self.x = x / norm
        self.y = y / norm
        self.z = z / norm
    }

    /// Creates the right-handed rotation by `angle` radians about `axis`.
    ///
    /// - Parameters:
    ///   - axis: rotation axis; any non-zero length, it is normalised.
    ///   - angle: rotation angle, rad (right-hand rule about `axis`).
    /// - Precondition: `axis` is non-zero and finite.
    public init(axis: SIMD3<Double>, angle: Double) {
        let length = (axis * axis).sum().squareRoot()
        precondition(length.isFinite && length > 0, "a rotation axis must be non-zero")
        let half = angle / 2
        let scale = sin(half) / length
        self.init(w: cos(half), x: axis.x * scale, y: axis.y * scale, z: axis.z * scale)
    }

    /// Creates the rotation whose axis is the direction of `rotationVector` and whose angle (rad) is its
    /// length: the exponential map. A zero vector gives the identity.
    ///
    /// - Parameter rotationVector: axis × angle, rad.
    public init(rotationVector: SIMD3<Double>) {
        let angle = (rotationVector * rotationVector).sum().squareRoot()
        if angle < 1e-12 {
            // Second-order series of the exponential map; exact to rounding at this size.
            let half = rotationVector / 2
            self.init(w: 1, x: half.x, y: half.y, z: half.z)
        } else {
            self.init(axis: rotationVector, angle: angle)
        }
    }

    /// The inverse rotation (the quaternion conjugate): from the earth frame back to the body frame.
    public var conjugate: SimulatedAttitude {
        var inverse = self
        inverse.x = -x
        inverse.y = -y
        inverse.z = -z
        return inverse
    }

    /// Rotates `vector` by this rotation: `q ⊗ v ⊗ q*` (body → earth for an attitude).
    /// - Parameter vector: any vector; units are preserved.
    public func rotate(_ vector: SIMD3<Double>) -> SIMD3<Double> {
        // v' = v + 2w (u × v) + 2 u × (u × v), with u the vector part.
        let u = SIMD3(x, y, z)
        let t = 2 * Self.cross(u, vector)
        return vector + w * t + Self.cross(u, t)
    }

    /// The angle of the smallest rotation that takes `other` to this rotation, rad in 0...π.
    /// - Parameter other: the rotation to compare with.
    public func angle(to other: SimulatedAttitude) -> Double {
        // atan2 of the relative rotation keeps full precision near 0, unlike acos of the dot product.
        let relative = other.conjugate * self
        let sine = (relative.x * relative.x + relative.y * relative.y + relative.z * relative.z).squareRoot()
        return 2 * atan2(sine, abs(relative.w))
    }

    /// The Hamilton product: the rotation that applies `rhs` first, then `lhs`.
    public static func * (lhs: SimulatedAttitude, rhs: SimulatedAttitude) -> SimulatedAttitude {
        var product = SimulatedAttitude.identity
        product.w = lhs.w * rhs.w - lhs.x * rhs.x - lhs.y * rhs.y - lhs.z * rhs.z
        product.x = lhs.w * rhs.x + lhs.x * rhs.w + lhs.y * rhs.z - lhs.z * rhs.y
        product.y = lhs.w * rhs.y - lhs.x * rhs.z + lhs.y * rhs.w + lhs.z * rhs.x
        product.z = lhs.w * rhs.z + lhs.x * rhs.y - lhs.y * rhs.x + lhs.z * rhs.w
        return product
    }

    /// The components as `(w, x, y, z)` text.
    public var description: String { "(w: \(w), x: \(x), y: \(y), z: \(z))" }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
