#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The device's orientation relative to a reference frame (see ``CMAttitudeReferenceFrame``) at a point in
/// time, as a quaternion, a rotation matrix and Euler angles.
///
/// Conventions (consistent with each other, and with Apple's):
/// - ``quaternion`` `q` rotates device coordinates into reference coordinates:
///   `v_reference = q ⊗ v_device ⊗ q*`. Lying face up with the top edge along the reference x-axis is the
///   identity.
/// - ``rotationMatrix`` `M` is the transpose of the matrix of `q`: it maps reference coordinates into device
///   coordinates, `v_device = M · v_reference`, so gravity in device axes is `-(m13, m23, m33)`.
/// - Euler angles, rad: the device-to-reference rotation is `Rz(yaw) · Rx(pitch) · Ry(roll)` (yaw about the
///   vertical, then pitch about the device's x-axis, then roll about its y-axis). ``pitch`` is in
///   [-π/2, π/2] (+π/2 standing upright in portrait), ``roll`` and ``yaw`` in [-π, π]. A positive ``roll``
///   lowers the right edge; a positive ``yaw`` turns the device counter-clockwise seen from above.
open class CMAttitude: NSObject, NSCopying {
    /// Device → reference unit quaternion (w, x, y, z); mutable only through ``multiply(byInverseOf:)``.
    private let storage: Mutex<SIMD4<Double>>

    /// Creates the identity attitude (device lying face up with its top edge along the reference x-axis).
    public override init() {
        storage = Mutex(SIMD4(1, 0, 0, 0))
        super.init()
    }

    /// Creates an attitude from its device → reference quaternion (normalised here).
    /// - Parameters: the quaternion components (dimensionless).
    init(w: Double, x: Double, y: Double, z: Double) {
        var value = SIMD4(w, x, y, z)
        let norm = (value * value).sum().squareRoot()
        value = norm > 0 && norm.isFinite ? value / norm : SIMD4(1, 0, 0, 0)
        storage = Mutex(value)
        super.init()
    }

    /// Device → reference quaternion as (w, x, y, z).
    private var components: SIMD4<Double> { storage.withLock { $0 } }

    /// The roll of the device, in radians: rotation about the device's y-axis (which runs from its bottom to
    /// its top), in [-π, π]. Positive when the right edge is lowered.
    open var roll: Double {
        let m = rotationMatrix
        return atan2(-m.m13, m.m33)
    }

    /// The pitch of the device, in radians: rotation about the device's x-axis (which runs from its left to
    /// its right side), in [-π/2, π/2]. Positive when the top edge is raised; π/2 standing upright.
    open var pitch: Double {
        asin(min(max(rotationMatrix.m23, -1), 1))
    }

    /// The yaw of the device, in radians: rotation about the vertical (the reference z-axis), in [-π, π].
    /// Positive counter-clockwise seen from above; 0 when the device's top points along the reference x-axis
    /// (for ``CMAttitudeReferenceFrame/xMagneticNorthZVertical``: magnetic north) while lying flat.
    open var yaw: Double {
        let m = rotationMatrix
        return atan2(-m.m21, m.m22)
    }

    /// The attitude as a rotation matrix (dimensionless) mapping reference coordinates into device
    /// coordinates; the transpose of the matrix of ``quaternion``. See ``CMRotationMatrix``.
    open var rotationMatrix: CMRotationMatrix {
        let q = components
        let w = q[0], x = q[1], y = q[2], z = q[3]
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z
        let wx = w * x, wy = w * y, wz = w * z
        // R (device → reference) row r, column c is mCR here.
        return CMRotationMatrix(
            m11: 1 - 2 * (yy + zz), m12: 2 * (xy + wz), m13: 2 * (xz - wy),
            m21: 2 * (xy - wz), m22: 1 - 2 * (xx + zz), m23: 2 * (yz + wx),
            m31: 2 * (xz + wy), m32: 2 * (yz - wx), m33: 1 - 2 * (xx + yy))
    }

    /// The attitude as a unit quaternion rotating device coordinates into reference coordinates.
    open var quaternion: CMQuaternion {
        let q = components
        return CMQuaternion(x: q[1], y: q[2], z: q[3], w: q[0])
    }

    /// Replaces this attitude with its change relative to `attitude`: `q ← attitude.q* ⊗ q`, the rotation
    /// taking the device from `attitude` to this attitude, expressed in the device's axes at `attitude`.
    ///
    /// Cache the attitude to use as a reference and pass it to every later call; the result is the identity
    /// when the device is back where it was.
    /// - Parameter attitude: the device's attitude at the moment taken as the reference.
    open func multiply(byInverseOf attitude: CMAttitude) {
        let reference = attitude.components
        storage.withLock { current in
            let a = SIMD4(reference[0], -reference[1], -reference[2], -reference[3])
            let b = current
            var product = SIMD4(
                a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])
            let norm = (product * product).sum().squareRoot()
            if norm > 0 && norm.isFinite { product /= norm }
            current = product
        }
    }

    /// Returns an independent attitude with the same value (``multiply(byInverseOf:)`` on one does not
    /// change the other).
    open func copy(with zone: NSZone? = nil) -> Any {
        let q = components
        return CMAttitude(w: q[0], x: q[1], y: q[2], z: q[3])
    }

    /// `CMAttitude Pitch: … Roll: … Yaw: …` in degrees, for logs.
    open override var description: String {
        let degrees = 180 / Double.pi
        return "CMAttitude Pitch: \(pitch * degrees), Roll: \(roll * degrees), Yaw: \(yaw * degrees)"
    }
}
