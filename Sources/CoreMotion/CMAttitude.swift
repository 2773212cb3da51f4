#if canImport(Glibc)
import Glibc
#endif
import MotionMath
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
open class CMAttitude: NSObject, NSCopying, NSSecureCoding {
    /// Device → reference unit quaternion (w, x, y, z); mutable only through ``multiply(byInverseOf:)``.
    private let storage: Mutex<Quaternion>

    /// Creates the identity attitude (device lying face up with its top edge along the reference x-axis).
    public override init() {
        storage = Mutex(.identity)
        super.init()
    }

    /// Creates an attitude from its device → reference quaternion (normalised here).
    /// - Parameters: the quaternion components (dimensionless).
    init(w: Double, x: Double, y: Double, z: Double) {
        storage = Mutex(Quaternion(w: w, x: x, y: y, z: z).normalized)
        super.init()
    }

    /// Device → reference quaternion as (w, x, y, z).
    private var value: Quaternion { storage.withLock { $0 } }

    /// The roll of the device, in radians: rotation about the device's y-axis (which runs from its bottom to
    /// its top), in [-π, π]. Positive when the right edge is lowered.
    open var roll: Double {
        EulerAngles(value).roll
    }

    /// The pitch of the device, in radians: rotation about the device's x-axis (which runs from its left to
    /// its right side), in [-π/2, π/2]. Positive when the top edge is raised; π/2 standing upright.
    open var pitch: Double {
        EulerAngles(value).pitch
    }

    /// The yaw of the device, in radians: rotation about the vertical (the reference z-axis), in [-π, π].
    /// Positive counter-clockwise seen from above; 0 when the device's top points along the reference x-axis
    /// (for ``CMAttitudeReferenceFrame/xMagneticNorthZVertical``: magnetic north) while lying flat.
    open var yaw: Double {
        EulerAngles(value).yaw
    }

    /// The attitude as a rotation matrix (dimensionless) mapping reference coordinates into device
    /// coordinates; the transpose of the matrix of ``quaternion``. See ``CMRotationMatrix``.
    open var rotationMatrix: CMRotationMatrix {
        // Apple's matrix maps reference into device coordinates: the transpose of the attitude's
        // device → reference rotation, so Apple's row r, column c is MotionMath's row c, column r.
        let m = value.rotationMatrix.transposed
        return CMRotationMatrix(
            m11: m.row0.x, m12: m.row0.y, m13: m.row0.z,
            m21: m.row1.x, m22: m.row1.y, m23: m.row1.z,
            m31: m.row2.x, m32: m.row2.y, m33: m.row2.z)
    }

    /// The attitude as a unit quaternion rotating device coordinates into reference coordinates.
    open var quaternion: CMQuaternion {
        let q = value
        return CMQuaternion(x: q.x, y: q.y, z: q.z, w: q.w)
    }

    /// Replaces this attitude with its change relative to `attitude`: `q ← attitude.q* ⊗ q`, the rotation
    /// taking the device from `attitude` to this attitude, expressed in the device's axes at `attitude`.
    ///
    /// Cache the attitude to use as a reference and pass it to every later call; the result is the identity
    /// when the device is back where it was.
    /// - Parameter attitude: the device's attitude at the moment taken as the reference.
    open func multiply(byInverseOf attitude: CMAttitude) {
        let reference = attitude.value
        storage.withLock { current in
            // A product of unit quaternions is one up to rounding; normalising keeps it so (a product
            // that is not finite leaves the identity, as `normalized` does).
            current = (reference.conjugate * current).normalized
        }
    }

    /// Returns an independent attitude with the same value (``multiply(byInverseOf:)`` on one does not
    /// change the other).
    open func copy(with zone: NSZone? = nil) -> Any {
        let q = value
        return CMAttitude(w: q.w, x: q.x, y: q.y, z: q.z)
    }

    /// True: an attitude decodes only its quaternion.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the quaternion (`quaternion.w`, `.x`, `.y`, `.z`).
    open func encode(with coder: NSCoder) {
        let q = value
        coder.encode(q.w, forKey: "quaternion.w")
        coder.encodeVector(x: q.x, y: q.y, z: q.z, forKey: "quaternion")
    }

    /// Reads an archived attitude; nil when a component is missing or the quaternion has no direction.
    public required init?(coder: NSCoder) {
        guard let w = coder.decodeRequiredDouble(forKey: "quaternion.w"), let v = coder.decodeVector(forKey: "quaternion") else {
            return nil
        }
        let q = Quaternion(w: w, x: v.x, y: v.y, z: v.z)
        let norm = (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        guard norm.isFinite, norm > 1e-9 else { return nil }
        storage = Mutex(q.normalized)
        super.init()
    }

    /// `CMAttitude Pitch: … Roll: … Yaw: …` in degrees, for logs.
    open override var description: String {
        let degrees = 180 / Double.pi
        return "CMAttitude Pitch: \(pitch * degrees), Roll: \(roll * degrees), Yaw: \(yaw * degrees)"
    }
}
