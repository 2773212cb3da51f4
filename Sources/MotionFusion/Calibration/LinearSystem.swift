import MotionMath

/// Solving the small dense linear systems of the calibration fits.
enum LinearSystem {
    /// Solves `matrix · x = vector` by Gaussian elimination with partial pivoting.
    /// - Parameters:
    ///   - matrix: n rows of n numbers.
    ///   - vector: n numbers.
    /// - Returns: x, or nil when the matrix is singular to working precision (a pivot below 1e-13 of the
    ///   largest entry) or the result is not finite.
    static func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double]? {
        let n = vector.count
        var a = matrix
        var b = vector
        let scale = a.lazy.flatMap { $0 }.map(abs).max() ?? 0
        guard scale > 0, scale.isFinite else { return nil }
        for column in 0..<n {
            let pivot = (column..<n).max { abs(a[$0][column]) < abs(a[$1][column]) }!
            guard abs(a[pivot][column]) > 1e-13 * scale else { return nil }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = a[row][column] / a[column][column]
                guard factor != 0 else { continue }
                for k in column..<n { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = b[row]
            for k in (row + 1)..<n { sum -= a[row][k] * x[k] }
            x[row] = sum / a[row][row]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
