/// A 3×3 rotation matrix stored as three rows.
///
/// For an attitude that rotates the device frame into the reference frame, `matrix * v_device = v_reference`.
/// Read that way, **row i is reference axis i expressed in device coordinates** (row 2 is "up" as the device
/// sees it), and **column j is device axis j expressed in reference coordinates**. The transpose maps the
/// other way (`v_device = matrix.transposed * v_reference`). All entries are dimensionless.
public struct RotationMatrix: Sendable, Equatable, Hashable {
    /// First row: (m00, m01, m02).
    public var row0: SIMD3<Double>
    /// Second row: (m10, m11, m12).
    public var row1: SIMD3<Double>
    /// Third row: (m20, m21, m22).
    public var row2: SIMD3<Double>

    /// The identity matrix (no rotation).
    public static let identity = RotationMatrix(
        row0: SIMD3(1, 0, 0),
        row1: SIMD3(0, 1, 0),
        row2: SIMD3(0, 0, 1)
    )

    /// Creates a matrix from its three rows. The rows should be orthonormal and right-handed
    /// (`row0 × row1 = row2`) for the matrix to be a rotation; this is not checked.
    public init(row0: SIMD3<Double>, row1: SIMD3<Double>, row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// Creates a matrix from its three columns (each a device axis in reference coordinates, see the type
    /// documentation).
    public init(column0: SIMD3<Double>, column1: SIMD3<Double>, column2: SIMD3<Double>) {
        self.init(
            row0: SIMD3(column0.x, column1.x, column2.x),
            row1: SIMD3(column0.y, column1.y, column2.y),
            row2: SIMD3(column0.z, column1.z, column2.z)
        )
    }

    /// The first column: (m00, m10, m20).
    public var column0: SIMD3<Double> { SIMD3(row0.x, row1.x, row2.x) }
    /// The second column: (m01, m11, m21).
    public var column1: SIMD3<Double> { SIMD3(row0.y, row1.y, row2.y) }
    /// The third column: (m02, m12, m22).
    public var column2: SIMD3<Double> { SIMD3(row0.z, row1.z, row2.z) }

    /// The transpose, which for a rotation is also its inverse.
    public var transposed: RotationMatrix {
        RotationMatrix(row0: column0, row1: column1, row2: column2)
    }

    /// The determinant (dimensionless); +1 for a proper rotation.
    public var determinant: Double {
        row0.dot(row1.cross(row2))
    }

    /// Applies the matrix to a vector: `matrix * vector`. The result has the vector's unit.
    public static func * (matrix: RotationMatrix, vector: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(matrix.row0.dot(vector), matrix.row1.dot(vector), matrix.row2.dot(vector))
    }

    /// The matrix product `lhs * rhs`: applying `rhs` first, then `lhs`.
    public static func * (lhs: RotationMatrix, rhs: RotationMatrix) -> RotationMatrix {
        RotationMatrix(column0: lhs * rhs.column0, column1: lhs * rhs.column1, column2: lhs * rhs.column2)
    }
}
