import MotionMath

/// How a sensor chip sits on its board: the 3×3 matrix `M` with `v_board = M · v_chip`.
///
/// The same convention and text form as Linux IIO's `mount_matrix` attribute and the device tree's
/// `mount-matrix` property: three rows separated by `;`, three numbers each separated by `,`, for example
/// `"0, 1, 0; -1, 0, 0; 0, 0, 1"` (chip x → board −y, chip y → board x: the chip turned 90° about z).
/// Only rotations and reflections of the axes make sense; ``init(parsing:)`` rejects anything else.
public struct MountMatrix: Sendable, Equatable, CustomStringConvertible {
    /// The matrix `M` (dimensionless): row i is the board's axis i in chip coordinates.
    public var matrix: Matrix3

    /// The chip's axes are the board's.
    public static let identity = MountMatrix(matrix: .identity)

    /// Wraps a matrix (no check; see ``isOrthonormal``).
    public init(matrix: Matrix3) {
        self.matrix = matrix
    }

    /// Creates a matrix from its rows (no check; see ``isOrthonormal``).
    /// - Parameters:
    ///   - x: first row, the board's x axis in chip coordinates.
    ///   - y: second row, the board's y axis.
    ///   - z: third row, the board's z axis.
    public init(x: SIMD3<Double>, y: SIMD3<Double>, z: SIMD3<Double>) {
        self.init(matrix: Matrix3(row0: x, row1: y, row2: z))
    }

    /// First row: the board's x axis in chip coordinates.
    public var x: SIMD3<Double> { matrix.row0 }
    /// Second row: the board's y axis in chip coordinates.
    public var y: SIMD3<Double> { matrix.row1 }
    /// Third row: the board's z axis in chip coordinates.
    public var z: SIMD3<Double> { matrix.row2 }

    /// Parses the IIO / device-tree text form, `"x1, x2, x3; y1, y2, y3; z1, z2, z3"` (white space ignored).
    /// - Throws: ``MountMatrixError`` saying which row or number is wrong, or that the rows are not an
    ///   orthonormal basis (tolerance 1e-3, so `0.7071` for 45° passes).
    public init(parsing text: String) throws(MountMatrixError) {
        let rows = text.split(separator: ";", omittingEmptySubsequences: false)
        guard rows.count == 3 else { throw .malformed(text, "needs 3 rows separated by ';', found \(rows.count)") }
        var parsed: [SIMD3<Double>] = []
        for (index, row) in rows.enumerated() {
            let numbers = row.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingBlanks())
            }
            guard numbers.count == 3 else {
                throw .malformed(text, "row \(index + 1) needs 3 numbers separated by ',', found \(numbers.count)")
            }
            guard let a = numbers[0], let b = numbers[1], let c = numbers[2], a.isFinite, b.isFinite, c.isFinite
            else { throw .malformed(text, "row \(index + 1) ('\(row.trimmingBlanks())') holds something not a number") }
            parsed.append(SIMD3(a, b, c))
        }
        self.init(x: parsed[0], y: parsed[1], z: parsed[2])
        guard isOrthonormal else { throw .notARotation(text) }
    }

    /// Whether the rows are unit vectors at right angles to each other (within 1e-3): a rotation or a
    /// reflection of the axes, the only matrices a mounting can produce.
    public var isOrthonormal: Bool {
        let tolerance = 1e-3
        return abs(x.lengthSquared - 1) < tolerance && abs(y.lengthSquared - 1) < tolerance
            && abs(z.lengthSquared - 1) < tolerance && abs(x.dot(y)) < tolerance && abs(x.dot(z)) < tolerance
            && abs(y.dot(z)) < tolerance
    }

    /// `M · v`: a vector in chip axes expressed in the board's axes (units unchanged).
    @inlinable
    public func apply(_ vector: SIMD3<Double>) -> SIMD3<Double> {
        matrix * vector
    }

    /// `A · B`: mounting `B` first, then `A` (for example a board mounted inside an enclosure).
    public static func * (a: MountMatrix, b: MountMatrix) -> MountMatrix {
        MountMatrix(matrix: a.matrix * b.matrix)
    }

    /// The IIO text form, `"x1, x2, x3; y1, y2, y3; z1, z2, z3"`, numbers in their shortest exact form.
    public var description: String {
        [x, y, z].map { row in
            [row.x, row.y, row.z].map { $0 == $0.rounded() ? String(Int($0)) : String($0) }.joined(separator: ", ")
        }.joined(separator: "; ")
    }
}
