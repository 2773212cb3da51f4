import Foundation
import MotionMath
import Testing

/// The linear algebra under the calibration fits and quaternion averaging: the symmetric eigen decomposition and 3×3 matrices.
@Suite struct LinearAlgebraTests {
    @Test func jacobiFindsTheEigenvaluesOfAKnownMatrix() throws {
        // Q diag(1, 2, 5, 10) Qᵀ with Q a rotation in the (0,1) and (2,3) planes.
        let c = cos(0.3), s = sin(0.3)
        let q: [[Double]] = [[c, -s, 0, 0], [s, c, 0, 0], [0, 0, c, s], [0, 0, -s, c]]
        let values = [1.0, 2, 5, 10]
        let matrix = (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0.0) { $0 + q[i][$1] * values[$1] * q[j][$1] } } }
        let decomposition = try #require(SymmetricEigendecomposition(symmetric: matrix))
        for (found, expected) in zip(decomposition.eigenvalues, values) { #expect(abs(found - expected) < 1e-12) }
        for (index, vector) in decomposition.eigenvectors.enumerated() {
            // A·v = λ·v, and |v| = 1.
            let product = (0..<4).map { i in (0..<4).reduce(0.0) { $0 + matrix[i][$1] * vector[$1] } }
            for i in 0..<4 { #expect(abs(product[i] - decomposition.eigenvalues[index] * vector[i]) < 1e-12) }
            #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-12)
        }
    }

    @Test func jacobiHandlesRepeatedEigenvaluesAndRefusesBadInput() throws {
        let decomposition = try #require(SymmetricEigendecomposition(symmetric: [[2, 0, 0], [0, 2, 0], [0, 0, 2]]))
        #expect(decomposition.eigenvalues == [2, 2, 2])
        #expect(SymmetricEigendecomposition(symmetric: [[1, 2], [2]]) == nil)
        #expect(SymmetricEigendecomposition(symmetric: [[1, .nan], [.nan, 1]]) == nil)
        #expect(SymmetricEigendecomposition(symmetric: []) == nil)
    }

    @Test func matrixInverseAndSquareRoot() throws {
        let a = Matrix3(row0: SIMD3(1.1, 0.05, 0.02), row1: SIMD3(0.05, 0.9, 0.03), row2: SIMD3(0.02, 0.03, 1.0))
        let inverse = try #require(a.inverse)
        let identity = a * inverse
        for (row, expected) in zip([identity.row0, identity.row1, identity.row2], [Matrix3.identity.row0, Matrix3.identity.row1, Matrix3.identity.row2]) {
            #expect((row - expected).length < 1e-14)
        }
        let root = try #require(a.symmetricFunction { $0.squareRoot() })
        let square = root * root
        for (row, expected) in zip([square.row0, square.row1, square.row2], [a.row0, a.row1, a.row2]) {
            #expect((row - expected).length < 1e-14)
        }
        #expect(Matrix3(row0: SIMD3(1, 2, 3), row1: SIMD3(2, 4, 6), row2: SIMD3(0, 0, 1)).inverse == nil)
    }

    @Test func matrixSumAndDifferenceAreEntrywise() {
        let a = Matrix3(row0: SIMD3(1, 2, 3), row1: SIMD3(4, 5, 6), row2: SIMD3(7, 8, 9))
        let b = Matrix3(diagonal: SIMD3(0.5, -1, 2))
        #expect(a + b == Matrix3(row0: SIMD3(1.5, 2, 3), row1: SIMD3(4, 4, 6), row2: SIMD3(7, 8, 11)))
        #expect(a - b == Matrix3(row0: SIMD3(0.5, 2, 3), row1: SIMD3(4, 6, 6), row2: SIMD3(7, 8, 7)))
        #expect(a + b - b == a)
    }
}
