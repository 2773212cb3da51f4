/// A 3 × 3 rotation matrix, `mRC` being row R, column C (dimensionless).
///
/// As returned by ``CMAttitude/rotationMatrix`` it maps reference-frame coordinates into device
/// coordinates (`v_device = M · v_reference`): row i is device axis i expressed in the reference frame,
/// so the gravity direction in device axes is `-(m13, m23, m33)`. It is the transpose of the matrix of
/// ``CMAttitude/quaternion``.
public struct CMRotationMatrix: Sendable {
    /// Row 1, column 1.
    public var m11: Double
    /// Row 1, column 2.
    public var m12: Double
    /// Row 1, column 3.
    public var m13: Double
    /// Row 2, column 1.
    public var m21: Double
    /// Row 2, column 2.
    public var m22: Double
    /// Row 2, column 3.
    public var m23: Double
    /// Row 3, column 1.
    public var m31: Double
    /// Row 3, column 2.
    public var m32: Double
    /// Row 3, column 3.
    public var m33: Double

    /// Creates the zero matrix (all elements 0), as Apple's imported C struct does.
    public init() {
        self.init(m11: 0, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 0)
    }

    /// Creates a matrix from its elements, row by row.
    public init(
        m11: Double, m12: Double, m13: Double,
        m21: Double, m22: Double, m23: Double,
        m31: Double, m32: Double, m33: Double
    ) {
        self.m11 = m11
        self.m12 = m12
        self.m13 = m13
        self.m21 = m21
        self.m22 = m22
        self.m23 = m23
        self.m31 = m31
        self.m32 = m32
        self.m33 = m33
    }
}
