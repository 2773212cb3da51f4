/// The eigenvalues and orthonormal eigenvectors of a real symmetric 4×4 matrix, by the cyclic Jacobi
/// method (robust for repeated and clustered eigenvalues; accurate to a few ulps of the matrix's norm).
struct SymmetricEigensystem: Sendable {
    /// The eigenvalues, in the matrix's unit, sorted from largest to smallest.
    let eigenvalues: [Double]
    /// The unit eigenvectors, `eigenvectors[i]` belonging to `eigenvalues[i]`; mutually orthogonal.
    let eigenvectors: [SIMD4<Double>]

    /// The most sweeps over the off-diagonal elements; Jacobi converges quadratically, in ~6 for 4×4.
    private static let maximumSweeps = 64

    /// Decomposes `matrix`, given row-major as 4 rows; only its upper triangle is read (it is taken as
    /// symmetric). Non-finite entries give non-finite results.
    /// - Parameter matrix: rows of a symmetric matrix.
    init(symmetric matrix: [SIMD4<Double>]) {
        precondition(matrix.count == 4, "a 4×4 matrix has 4 rows")
        var a = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 4)
        for row in 0..<4 {
            for column in row..<4 {
                a[row][column] = matrix[row][column]
                a[column][row] = matrix[row][column]
            }
        }
        var v = (0..<4).map { row in (0..<4).map { column in row == column ? 1.0 : 0.0 } }

        for _ in 0..<Self.maximumSweeps {
            var offDiagonal = 0.0
            var total = 0.0
            for row in 0..<4 {
                for column in 0..<4 {
                    let square = a[row][column] * a[row][column]
                    total += square
                    if row != column { offDiagonal += square }
                }
            }
            guard offDiagonal > 1e-32 * total, offDiagonal.isFinite else { break }
            for p in 0..<3 {
                for q in (p + 1)..<4 where a[p][q] != 0 {
                    Self.rotate(&a, &v, p, q)
                }
            }
        }

        let order = (0..<4).sorted { a[$0][$0] > a[$1][$1] }
        eigenvalues = order.map { a[$0][$0] }
        eigenvectors = order.map { column in SIMD4(v[0][column], v[1][column], v[2][column], v[3][column]) }
    }

    /// One Jacobi rotation in the (p, q) plane that zeroes `a[p][q]`: `a ← Jᵀ a J`, `v ← v J`.
    private static func rotate(_ a: inout [[Double]], _ v: inout [[Double]], _ p: Int, _ q: Int) {
        let apq = a[p][q]
        let theta = (a[q][q] - a[p][p]) / (2 * apq)
        // t = tan φ, the smaller root of t² + 2θt − 1 = 0; 1/(2θ) where θ² would overflow.
        let t: Double
        if abs(theta) > 1e150 {
            t = 1 / (2 * theta)
        } else {
            t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
        }
        let c = 1 / (t * t + 1).squareRoot()
        let s = t * c
        for k in 0..<4 {
            let akp = a[k][p], akq = a[k][q]
            a[k][p] = c * akp - s * akq
            a[k][q] = s * akp + c * akq
        }
        for k in 0..<4 {
            let apk = a[p][k], aqk = a[q][k]
            a[p][k] = c * apk - s * aqk
            a[q][k] = s * apk + c * aqk
        }
        for k in 0..<4 {
            let vkp = v[k][p], vkq = v[k][q]
            v[k][p] = c * vkp - s * vkq
            v[k][q] = s * vkp + c * vkq
        }
    }
}
