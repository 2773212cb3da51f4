#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Roll, pitch and yaw of an attitude quaternion, with Apple's `CMAttitude` conventions.
///
/// The device-to-reference rotation is `Rz(yaw) · Rx(pitch) · Ry(roll)`; ``pitch`` is in [−π/2, π/2],
/// ``roll`` and ``yaw`` in [−π, π]. With `m` the matrix mapping reference into device coordinates (the
/// transpose of the quaternion's matrix, as `CMAttitude.rotationMatrix`): `roll = atan2(−m13, m33)`,
/// `pitch = asin(m23)`, `yaw = atan2(−m21, m22)`.
public struct EulerAngles: Sendable, Equatable {
    /// Rotation about the device's y-axis, rad, in [−π, π]; positive when the right edge is lowered.
    public var roll: Double
    /// Rotation about the device's x-axis, rad, in [−π/2, π/2]; positive when the top edge is raised.
    public var pitch: Double
    /// Rotation about the vertical, rad, in [−π, π]; positive counter-clockwise seen from above.
    public var yaw: Double

    /// The angles of an attitude quaternion (device → reference; normalised here, the identity if it has
    /// no direction).
    /// - Parameter attitude: the attitude, dimensionless components.
    public init(_ attitude: Quaternion) {
        let q = attitude.normalized
        let w = q.w, x = q.x, y = q.y, z = q.z
        let m13 = 2 * (x * z - w * y)
        let m21 = 2 * (x * y - w * z)
        let m22 = 1 - 2 * (x * x + z * z)
        let m23 = 2 * (y * z + w * x)
        let m33 = 1 - 2 * (x * x + y * y)
        roll = atan2(-m13, m33)
        pitch = asin(min(max(m23, -1), 1))
        yaw = atan2(-m21, m22)
    }
}
