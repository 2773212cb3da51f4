/// The mean of attitudes given as unit quaternions, by Markley, Cheng, Crassidis & Oshman, "Averaging
/// Quaternions" (J. Guidance, Control, and Dynamics 30(4), 2007): the eigenvector of the largest
/// eigenvalue of `M = Σ q qᵀ`.
///
/// It minimises the sum of squared chordal distances between the attitude matrices, is insensitive to the
/// sign of each quaternion (`q` and `−q` are the same rotation), and does not depend on the order of the
/// samples; for close attitudes it agrees with the normalised arithmetic mean of sign-aligned quaternions.
public enum QuaternionMean {
    /// The mean attitude of `quaternions` (dimensionless, each normalised first; zero or non-finite
    /// quaternions are skipped). The result is a unit quaternion with the sign that puts it in the same
    /// hemisphere as the first usable input; the identity when there is none.
    ///
    /// When the largest eigenvalue is repeated (for example two attitudes 180° apart, equally weighted) the
    /// mean is not unique and one of the equally good answers is returned.
    /// - Parameter quaternions: attitudes, device → reference.
    public static func mean(of quaternions: [Quaternion]) -> Quaternion {
        let usable = quaternions.filter(\.isUsableRotation).map { $0.normalized.components }
        guard let first = usable.first else { return .identity }
        if usable.count == 1 { return Quaternion(components: first) }

        var rows = [SIMD4<Double>](repeating: .zero, count: 4)
        for q in usable {
            for row in 0..<4 { rows[row] += q * q[row] }
        }
        let count = Double(usable.count)
        for row in 0..<4 { rows[row] /= count }

        let matrix = rows.map { [$0[0], $0[1], $0[2], $0[3]] }
        guard let largest = SymmetricEigendecomposition(symmetric: matrix)?.eigenvectors.last else {
            return Quaternion(components: first)
        }
        var result = SIMD4(largest[0], largest[1], largest[2], largest[3])
        let length = (result * result).sum().squareRoot()
        guard length.isFinite, length > 0 else { return Quaternion(components: first) }
        result /= length
        if (result * first).sum() < 0 { result = -result }
        return Quaternion(components: result)
    }
}

extension Quaternion {
    /// The components ordered (w, x, y, z), dimensionless.
    public var components: SIMD4<Double> { SIMD4(w, x, y, z) }

    /// Creates a quaternion from its components ordered (w, x, y, z), unchanged.
    public init(components: SIMD4<Double>) {
        self.init(w: components[0], x: components[1], y: components[2], z: components[3])
    }

    /// `true` when every component is finite and the norm is not zero: the quaternion is a rotation once
    /// normalised.
    public var isUsableRotation: Bool {
        let norm = self.norm
        return norm.isFinite && norm > 0
    }
}
