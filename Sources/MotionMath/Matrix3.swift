/// A 3×3 matrix stored as three rows: rotations (attitudes, mountings) and the linear maps of sensor
/// calibration (accelerometer scale and cross-axis terms, magnetometer soft iron). Entries carry whatever
/// unit their context gives them; rotations and calibration matrices are dimensionless.
///
/// As the rotation of an attitude (device → reference, `matrix * v_device = v_reference`): **row i is
/// reference axis i in device coordinates** (row 2 is "up" as the device sees it) and **column j is
/// device axis j in reference coordinates**; the transpose maps the other way.
///
/// Encoded (`Codable`) as three rows of three numbers, `[[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]]`.
public struct Matrix3: Sendable, Equatable, Hashable, Codable {
    /// First row.
    public var row0: SIMD3<Double>
    /// Second row.
    public var row1: SIMD3<Double>
    /// Third row.
    public var row2: SIMD3<Double>

    /// The identity matrix.
    public static let identity = Matrix3(row0: SIMD3(1, 0, 0), row1: SIMD3(0, 1, 0), row2: SIMD3(0, 0, 1))

    /// Creates a matrix from its rows.
    public init(row0: SIMD3<Double>, row1: SIMD3<Double>, row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// Creates a matrix from its three columns.
    public init(column0: SIMD3<Double>, column1: SIMD3<Double>, column2: SIMD3<Double>) {
        self.init(
            row0: SIMD3(column0.x, column1.x, column2.x),
            row1: SIMD3(column0.y, column1.y, column2.y),
            row2: SIMD3(column0.z, column1.z, column2.z))
    }

    /// The first column: (m00, m10, m20).
    public var column0: SIMD3<Double> { SIMD3(row0.x, row1.x, row2.x) }
    /// The second column: (m01, m11, m21).
    public var column1: SIMD3<Double> { SIMD3(row0.y, row1.y, row2.y) }
    /// The third column: (m02, m12, m22).
    public var column2: SIMD3<Double> { SIMD3(row0.z, row1.z, row2.z) }

    /// Creates a diagonal matrix.
    /// - Parameter diagonal: the diagonal entries.
    public init(diagonal: SIMD3<Double>) {
        self.init(row0: SIMD3(diagonal.x, 0, 0), row1: SIMD3(0, diagonal.y, 0), row2: SIMD3(0, 0, diagonal.z))
    }

    /// The rows as arrays, `rows[i][j]` the entry in row i and column j.
    public var rows: [[Double]] {
        [row0, row1, row2].map { [$0.x, $0.y, $0.z] }
    }

    /// The entry in row `row` and column `column` (both 0...2).
    public subscript(row: Int, column: Int) -> Double {
        [row0, row1, row2][row][column]
    }

    /// The diagonal entries.
    public var diagonal: SIMD3<Double> { SIMD3(row0.x, row1.y, row2.z) }

    /// The transpose.
    public var transposed: Matrix3 {
        Matrix3(row0: SIMD3(row0.x, row1.x, row2.x), row1: SIMD3(row0.y, row1.y, row2.y), row2: SIMD3(row0.z, row1.z, row2.z))
    }

    /// The determinant; +1 for a proper rotation.
    public var determinant: Double { row0.dot(row1.cross(row2)) }

    /// Whether every entry is finite.
    public var isFinite: Bool { row0.isFinite && row1.isFinite && row2.isFinite }

    /// The inverse, or nil when the matrix is singular (|det| below 1e-12 of the cube of its largest entry)
    /// or not finite.
    public var inverse: Matrix3? {
        let scale = [row0, row1, row2].map { max(abs($0.x), abs($0.y), abs($0.z)) }.max() ?? 0
        let determinant = determinant
        guard isFinite, scale > 0, abs(determinant) > 1e-12 * scale * scale * scale else { return nil }
        // The adjugate is the transposed matrix of cofactors, whose rows are cross products of the rows.
        let cofactors = Matrix3(row0: row1.cross(row2), row1: row2.cross(row0), row2: row0.cross(row1))
        return (1 / determinant) * cofactors.transposed
    }

    /// `matrix · vector`, in the vector's unit times the matrix's.
    @inlinable
    public static func * (matrix: Matrix3, vector: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(matrix.row0.dot(vector), matrix.row1.dot(vector), matrix.row2.dot(vector))
    }

    /// The product `lhs · rhs`: applying `rhs` first, then `lhs`.
    public static func * (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        let columns = rhs.transposed
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3(r.dot(columns.row0), r.dot(columns.row1), r.dot(columns.row2)) }
        return Matrix3(row0: row(lhs.row0), row1: row(lhs.row1), row2: row(lhs.row2))
    }

    /// Every entry times `factor`.
    public static func * (factor: Double, matrix: Matrix3) -> Matrix3 {
        Matrix3(row0: factor * matrix.row0, row1: factor * matrix.row1, row2: factor * matrix.row2)
    }

    /// The entrywise sum `lhs + rhs`.
    public static func + (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        Matrix3(row0: lhs.row0 + rhs.row0, row1: lhs.row1 + rhs.row1, row2: lhs.row2 + rhs.row2)
    }

    /// The entrywise difference `lhs − rhs`.
    public static func - (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        Matrix3(row0: lhs.row0 - rhs.row0, row1: lhs.row1 - rhs.row1, row2: lhs.row2 - rhs.row2)
    }

    /// For a symmetric matrix: its eigen decomposition (eigenvalues ascending, see
    /// ``SymmetricEigendecomposition``), or nil if an entry is not finite.
    public var symmetricEigendecomposition: SymmetricEigendecomposition? {
        SymmetricEigendecomposition(symmetric: rows)
    }

    /// For a symmetric matrix with eigen decomposition `Q Λ Qᵀ`: `Q f(Λ) Qᵀ` (a matrix function such as the
    /// square root), or nil if an entry is not finite.
    /// - Parameter function: applied to each eigenvalue.
    public func symmetricFunction(_ function: (Double) -> Double) -> Matrix3? {
        guard let decomposition = symmetricEigendecomposition else { return nil }
        var result = [[Double]](repeating: [0, 0, 0], count: 3)
        for (value, vector) in zip(decomposition.eigenvalues, decomposition.eigenvectors) {
            let mapped = function(value)
            for i in 0..<3 {
                for j in 0..<3 { result[i][j] += mapped * vector[i] * vector[j] }
            }
        }
        return Matrix3(rows: result)
    }

    /// Creates a matrix from three rows of three numbers (`rows[i][j]`: row i, column j).
    /// - Parameter rows: exactly 3 rows of 3 numbers.
    public init(rows: [[Double]]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == 3 }, "a 3×3 matrix has 3 rows of 3")
        self.init(
            row0: SIMD3(rows[0][0], rows[0][1], rows[0][2]), row1: SIMD3(rows[1][0], rows[1][1], rows[1][2]),
            row2: SIMD3(rows[2][0], rows[2][1], rows[2][2]))
    }

    /// Decodes three rows of three numbers.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        if let count = container.count, count != 3 {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "needs 3 rows of 3 numbers, found \(count) rows"))
        }
        row0 = try container.decode(SIMD3<Double>.self)
        row1 = try container.decode(SIMD3<Double>.self)
        row2 = try container.decode(SIMD3<Double>.self)
    }

    /// Encodes three rows of three numbers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(row0)
        try container.encode(row1)
        try container.encode(row2)
    }
}
