#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What an attitude filter does at every sample, made cheap: the rotation of one gyroscope step, keeping
// a product of unit quaternions at unit norm, the heading error's angle, and the attitude from the
// vertical and a northward vector. Inlinable: they run in the filter's per-sample path.
extension Quaternion {
    /// The rotation by `rotationVector` (axis × angle, rad): for the small angles of one sample (below
    /// 0.05 rad) by the series of cos(θ/2) and sin(θ/2)/θ (error below 1e-12), else exactly
    /// (``init(rotationVector:)``).
    @inlinable
    public static func rotation(by rotationVector: SIMD3<Double>) -> Quaternion {
        let angleSquared = rotationVector.lengthSquared
        guard angleSquared < 0.0025 else { return Quaternion(rotationVector: rotationVector) }
        let cosine = 1 - angleSquared * (1.0 / 8 - angleSquared * (1.0 / 384))
        let sineOverAngle = 0.5 - angleSquared * (1.0 / 48 - angleSquared * (1.0 / 3840))
        let v = rotationVector * sineOverAngle
        return Quaternion(w: cosine, x: v.x, y: v.y, z: v.z)
    }

    /// The quaternion brought back to unit norm when it is already within 1e-3 of it (one Newton step for
    /// 1/|q|, no square root or division: the products of unit quaternions drift only by rounding);
    /// otherwise normalised exactly.
    @inlinable
    public var renormalized: Quaternion {
        let normSquared = w * w + x * x + y * y + z * z
        guard abs(normSquared - 1) < 1e-3 else { return normalized }
        let scale = (3 - normSquared) / 2
        return Quaternion(w: w * scale, x: x * scale, y: y * scale, z: z * scale)
    }

    /// The attitude whose reference z axis is `up` and whose reference x axis is the horizontal part of
    /// `northward` (both in device coordinates). Without `northward`, or when it is (nearly) vertical,
    /// the device x axis — or, if that is vertical too, the device z axis — defines x.
    public static func attitude(up: SIMD3<Double>, northward: SIMD3<Double>?) -> Quaternion {
        let candidates = [northward, SIMD3(1, 0, 0), SIMD3(0, 0, 1)].compactMap { $0 }
        for candidate in candidates {
            let west = up.cross(candidate)  // reference y = z × x
            guard west.length > 0.1 * candidate.length else { continue }
            let westUnit = west.normalized
            let northUnit = westUnit.cross(up)
            // Rows of the device → reference matrix are the reference axes seen in the device frame.
            return Quaternion(rotationMatrix: Matrix3(row0: northUnit, row1: westUnit, row2: up))
        }
        return .identity  // unreachable: device x and z cannot both be parallel to `up`
    }
}

extension Double {
    /// `atan2(y, x)`, rad, by its series when x > 0 and |y/x| < 0.1 (error below 3e-8 rad: a filter's small
    /// heading errors), else `atan2`.
    @inlinable
    public static func angle(y: Double, x: Double) -> Double {
        if x > 0, abs(y) < 0.1 * x {
            let t = y / x, t2 = t * t
            return t * (1 - t2 * (1.0 / 3 - t2 * (1.0 / 5)))
        }
        return atan2(y, x)
    }
}
