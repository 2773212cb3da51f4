import CoreMotion

/// Rotation helpers on CoreMotion's quaternion (dimensionless components, device → reference attitude).
extension CMQuaternion {
    /// The components as (w, x, y, z).
    var components: SIMD4<Double> { SIMD4(w, x, y, z) }

    /// Creates a quaternion from its components ordered (w, x, y, z).
    init(components: SIMD4<Double>) {
        self.init(x: components[1], y: components[2], z: components[3], w: components[0])
    }

    /// The Euclidean norm `√(w² + x² + y² + z²)`; 1 for a rotation.
    var norm: Double { (components * components).sum().squareRoot() }

    /// `true` when every component is finite and the norm is not zero: the quaternion is a rotation once
    /// normalised.
    var isUsableRotation: Bool {
        let norm = self.norm
        return norm.isFinite && norm > 0
    }

    /// The unit quaternion with the same direction, or the identity when there is none (zero or non-finite).
    var normalized: CMQuaternion {
        let norm = self.norm
        guard norm.isFinite, norm > 0 else { return CMQuaternion(x: 0, y: 0, z: 0, w: 1) }
        return CMQuaternion(components: components / norm)
    }

    /// The smallest rotation angle taking this attitude to `other`, rad, in [0, π]: the angle of
    /// `self* ⊗ other`. Insensitive to the sign of either quaternion.
    func rotationAngle(to other: CMQuaternion) -> Double {
        let a = normalized, b = other.normalized
        // self* ⊗ other: scalar part is the 4-D dot product, vector part w_a·v_b − w_b·v_a − v_a × v_b.
        let scalar = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z
        let va = SIMD3(a.x, a.y, a.z), vb = SIMD3(b.x, b.y, b.z)
        let cross = SIMD3(va.y * vb.z - va.z * vb.y, va.z * vb.x - va.x * vb.z, va.x * vb.y - va.y * vb.x)
        let vector = a.w * vb - b.w * va - cross
        return 2 * atan2((vector * vector).sum().squareRoot(), abs(scalar))
    }
}
