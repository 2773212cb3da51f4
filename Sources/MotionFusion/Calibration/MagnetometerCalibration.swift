#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// The magnetometer's hard- and soft-iron calibration, from an ellipsoid fitted to readings taken while the
/// board turned through every orientation.
///
/// In a uniform field `B` of strength `F`, the readings `m = A·R·B + c` of a board in every orientation `R`
/// lie on an ellipsoid: `c` is the hard iron (the field of magnetised parts that turn with the board, plus
/// the sensor's offset) and `A` the soft iron (the distortion by soft magnetic material and the axes'
/// unequal gains). The corrected reading is `W · (m − c)` with `W` the symmetric matrix mapping the
/// ellipsoid onto the sphere of radius ``fieldStrength``; like any such fit it cannot see a rotation of
/// `A`, so `W` is taken symmetric, and the radius is the geometric mean of the semi-axes (`det W = 1`: the
/// correction changes shapes, not the mean size).
///
/// The fit: the general quadric `x²a + y²b + z²c + 2yz·f + 2xz·g + 2xy·h + 2x·p + 2y·q + 2z·r + d = 0`
/// whose 10 coefficients minimise the algebraic residual over the readings with a unit coefficient vector:
/// the eigenvector of the smallest eigenvalue of the 10×10 scatter matrix `DᵀD` (``SymmetricEigendecomposition``).
/// The readings are first centred on their mean and divided by their RMS radius, which keeps `DᵀD` well
/// conditioned in Double whatever the field's offset. The quadric must be an ellipsoid (its 3×3 part
/// definite); a hyperboloid, or readings in a plane, is refused.
public struct MagnetometerCalibration: Sendable, Equatable {
    /// The hard iron `c` (the ellipsoid's centre), µT: subtracted from every reading.
    public let hardIron: SIMD3<Double>
    /// The soft-iron correction `W` (symmetric, dimensionless, determinant 1), applied after the hard iron.
    public let softIron: Matrix3
    /// The strength of the field the corrected readings lie on, µT.
    public let fieldStrength: Double
    /// Root mean square of `‖W (mᵢ − c)‖ − F` over the readings, µT.
    public let residualRMS: Double
    /// The covered fraction of the sphere of corrected field directions, 0…1 (``SphereCoverage``).
    public let coverage: Double
    /// The grade of residual and coverage together.
    public let quality: MagnetometerCalibrationQuality
    /// Readings fitted.
    public let sampleCount: Int

    /// The fewest readings: 50 (10 coefficients, with room for noise).
    public static let minimumSampleCount = 50
    /// Smallest ratio of the smallest to the largest variance of the readings along any direction: below
    /// it (a layer thinner than about 3 % of its width) the readings lie in a plane and leave an axis of
    /// the ellipsoid undetermined.
    public static let minimumThicknessRatio = 1e-3

    /// Fits the calibration to readings taken while the board turned.
    /// - Parameter readings: raw magnetometer readings, µT.
    /// - Throws: ``CalibrationError/tooFewSamples(_:)`` below ``minimumSampleCount``,
    ///   ``CalibrationError/degenerate(_:)`` for readings that are not finite, lie in a plane or a line, or
    ///   fit a quadric that is not an ellipsoid.
    public init(readings: [SIMD3<Double>]) throws(CalibrationError) {
        guard readings.count >= Self.minimumSampleCount else {
            throw .tooFewSamples("\(readings.count) magnetometer readings, need at least \(Self.minimumSampleCount)")
        }
        guard readings.allSatisfy(\.isFinite) else { throw .degenerate("a magnetometer reading is not finite") }
        let statistics = VectorStatistics(readings)
        let radius = statistics.spread
        guard radius > 0 else { throw .degenerate("all magnetometer readings are the same; turn the board") }
        let normalized = readings.map { ($0 - statistics.mean) / radius }
        try Self.checkThickness(normalized)
        let coefficients = try Self.quadricCoefficients(normalized)

        // (x − c')ᵀ A (x − c') = k with c' = −A⁻¹ b and k = c'ᵀ A c' − d.
        let quadratic = Matrix3(
            row0: SIMD3(coefficients[0], coefficients[5], coefficients[4]),
            row1: SIMD3(coefficients[5], coefficients[1], coefficients[3]),
            row2: SIMD3(coefficients[4], coefficients[3], coefficients[2]))
        let linear = SIMD3(coefficients[6], coefficients[7], coefficients[8])
        guard let inverse = quadratic.inverse else {
            throw .degenerate("the fitted quadric has no centre (a paraboloid or cylinder); turn the board through more orientations")
        }
        let centre = -(inverse * linear)
        let level = centre.dot(quadratic * centre) - coefficients[9]
        // Back in µT: x = mean + radius·x', so M = A / (k·radius²) and c = mean + radius·c'.
        let shape = (1 / (level * radius * radius)) * quadratic
        guard let eigenvalues = shape.symmetricEigendecomposition?.eigenvalues, eigenvalues.allSatisfy({ $0 > 0 }) else {
            throw .degenerate("the readings fit a hyperboloid, not an ellipsoid; turn the board through more orientations")
        }
        let hardIron = statistics.mean + radius * centre
        // Semi-axes are 1/√λ; their geometric mean is (λ₁λ₂λ₃)^(−1/6).
        let fieldStrength = pow(eigenvalues.reduce(1, *), -1.0 / 6)
        guard let root = shape.symmetricFunction({ $0.squareRoot() }) else {
            throw .degenerate("the fitted ellipsoid is not finite")
        }
        let softIron = fieldStrength * root
        var squaredResiduals = 0.0
        var coverage = SphereCoverage()
        for reading in readings {
            let corrected = softIron * (reading - hardIron)
            let residual = corrected.length - fieldStrength
            squaredResiduals += residual * residual
            coverage.add(corrected)
        }
        self.hardIron = hardIron
        self.softIron = softIron
        self.fieldStrength = fieldStrength
        residualRMS = (squaredResiduals / Double(readings.count)).squareRoot()
        self.coverage = coverage.fraction
        quality = MagnetometerCalibrationQuality(relativeResidual: residualRMS / fieldStrength, coverage: coverage.fraction)
        sampleCount = readings.count
    }

    /// Applies the calibration: `W · (reading − c)`, µT.
    /// - Parameter reading: a raw magnetometer reading, µT.
    public func corrected(_ reading: SIMD3<Double>) -> SIMD3<Double> {
        softIron * (reading - hardIron)
    }

    /// Refuses readings that lie in a plane or on a line (centred and normalised).
    private static func checkThickness(_ points: [SIMD3<Double>]) throws(CalibrationError) {
        var covariance = [[Double]](repeating: [0, 0, 0], count: 3)
        for point in points {
            let p = [point.x, point.y, point.z]
            for i in 0..<3 {
                for j in 0..<3 { covariance[i][j] += p[i] * p[j] }
            }
        }
        guard let variances = SymmetricEigendecomposition(symmetric: covariance)?.eigenvalues,
            let largest = variances.last, largest > 0, variances[0] / largest >= minimumThicknessRatio
        else {
            throw .degenerate(
                "the magnetometer readings lie in a plane (the board turned about one axis only); turn it through every orientation")
        }
    }

    /// The quadric's 10 coefficients (a, b, c, f, g, h, p, q, r, d) of least algebraic residual.
    private static func quadricCoefficients(_ points: [SIMD3<Double>]) throws(CalibrationError) -> [Double] {
        var scatter = [[Double]](repeating: [Double](repeating: 0, count: 10), count: 10)
        for point in points {
            let (x, y, z) = (point.x, point.y, point.z)
            let row = [x * x, y * y, z * z, 2 * y * z, 2 * x * z, 2 * x * y, 2 * x, 2 * y, 2 * z, 1]
            for i in 0..<10 {
                for j in i..<10 { scatter[i][j] += row[i] * row[j] }
            }
        }
        guard let decomposition = SymmetricEigendecomposition(symmetric: scatter) else {
            throw .degenerate("the ellipsoid fit's scatter matrix is not finite")
        }
        return decomposition.eigenvectors[0]
    }
}
