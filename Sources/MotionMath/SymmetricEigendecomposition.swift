/// The eigenvalues and orthonormal eigenvectors of a real symmetric n×n matrix, by the cyclic Jacobi method.
///
/// Jacobi rotations are slow for large matrices but exact to a few ulps of the matrix's norm and robust for
/// repeated and clustered eigenvalues, which is what the small matrices here need: the 4×4 matrix of
/// quaternion averaging (the eigenvector of the largest eigenvalue) and the normal matrices of a
/// calibration fit, 3×3 to 10×10 (the ellipsoid fit takes the eigenvector of the *smallest* eigenvalue,
/// whose accuracy matters most and which a power or QR iteration in single passes would resolve worst).
public struct SymmetricEigendecomposition: Sendable, Equatable {
    /// The eigenvalues, in the matrix's unit, sorted from smallest to largest.
    public let eigenvalues: [Double]
    /// The unit eigenvectors (dimensionless), `eigenvectors[i]` belonging to `eigenvalues[i]`; mutually
    /// orthogonal.
    public let eigenvectors: [[Double]]

    /// The most sweeps over the off-diagonal elements; Jacobi converges quadratically, in about 6–10
    /// sweeps for matrices up to 10×10.
    private static let maximumSweeps = 100

    /// Decomposes `matrix`, given as n rows of n numbers; only its upper triangle is read (it is taken as
    /// symmetric).
    /// - Parameter matrix: rows of a symmetric matrix, n ≥ 1, all finite.
    /// - Returns: nil if the matrix is empty, not square or holds a value that is not finite.
    public init?(symmetric matrix: [[Double]]) {
        let n = matrix.count
        guard n > 0, matrix.allSatisfy({ $0.count == n && $0.allSatisfy(\.isFinite) }) else { return nil }
        var a = matrix
        for row in 0..<n {
            for column in row..<n { a[column][row] = a[row][column] }
        }
        var v = (0..<n).map { row in (0..<n).map { column in row == column ? 1.0 : 0.0 } }
        for _ in 0..<Self.maximumSweeps {
            var offDiagonal = 0.0
            var total = 0.0
            for row in 0..<n {
                for column in 0..<n {
                    let square = a[row][column] * a[row][column]
                    total += square
                    if row != column { offDiagonal += square }
                }
            }
            // Converged when the off-diagonal part is negligible against the whole (or exactly zero).
            guard offDiagonal > 1e-32 * total, offDiagonal.isFinite else { break }
            for p in 0..<(n - 1) {
                for q in (p + 1)..<n where a[p][q] != 0 {
                    Self.rotate(&a, &v, p, q)
                }
            }
        }
        let order = (0..<n).sorted { a[$0][$0] < a[$1][$1] }
        eigenvalues = order.map { a[$0][$0] }
        eigenvectors = order.map { column in (0..<n).map { row in v[row][column] } }
    }

    /// One Jacobi rotation in the (p, q) plane that zeroes `a[p][q]`: `a ← Jᵀ a J`, `v ← v J` (the columns
    /// of `v` become the eigenvectors).
    private static func rotate(_ a: inout [[Double]], _ v: inout [[Double]], _ p: Int, _ q: Int) {
        let n = a.count
        // θ from cot 2θ = (a_qq − a_pp) / 2a_pq; t = tan φ, the smaller root of t² + 2θt − 1 = 0 for
        // stability (Numerical Recipes §11.1), 1/(2θ) where θ² would overflow.
        let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
        let t =
            abs(theta) > 1e150
            ? 1 / (2 * theta) : (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
        let c = 1 / (t * t + 1).squareRoot()
        let s = t * c
        for k in 0..<n {
            let akp = a[k][p], akq = a[k][q]
            a[k][p] = c * akp - s * akq
            a[k][q] = s * akp + c * akq
        }
        for k in 0..<n {
            let apk = a[p][k], aqk = a[q][k]
            a[p][k] = c * apk - s * aqk
            a[q][k] = s * apk + c * aqk
        }
        a[p][q] = 0
        a[q][p] = 0
        for k in 0..<n {
            let vkp = v[k][p], vkq = v[k][q]
            v[k][p] = c * vkp - s * vkq
            v[k][q] = s * vkp + c * vkq
        }
    }
}
