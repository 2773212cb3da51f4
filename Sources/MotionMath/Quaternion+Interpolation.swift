#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Quaternion {
    /// The rotation a fraction of the way from `self` to `other` along the shorter arc (spherical linear
    /// interpolation): `self` at 0, `other` (or `-other`) at 1, turning at a constant rate in between.
    /// Both must be unit quaternions; the result is one. Nearly equal rotations (under 1e-6 rad apart)
    /// are interpolated linearly and normalised.
    /// - Parameters:
    ///   - other: the rotation at `fraction` 1.
    ///   - fraction: where between the two, usually in [0, 1].
    public func interpolated(to other: Quaternion, fraction: Double) -> Quaternion {
        var target = other
        var cosine = w * other.w + x * other.x + y * other.y + z * other.z
        if cosine < 0 {
            target = Quaternion(w: -other.w, x: -other.x, y: -other.y, z: -other.z)
            cosine = -cosine
        }
        let (a, b): (Double, Double)
        if cosine > 1 - 1e-12 {
            (a, b) = (1 - fraction, fraction)
        } else {
            let angle = acos(min(cosine, 1))
            let sine = sin(angle)
            (a, b) = (sin((1 - fraction) * angle) / sine, sin(fraction * angle) / sine)
        }
        return Quaternion(
            w: a * w + b * target.w, x: a * x + b * target.x, y: a * y + b * target.y, z: a * z + b * target.z
        ).normalized
    }
}
