import MotionMath

/// The accelerometer's offset and scale, fitted so that every still orientation reads the same magnitude:
/// the corrected specific force is `S · (a − o)` with `a` the raw reading, `o` the offset and `S` the scale
/// matrix (diagonal: per-axis scale factors; with cross-axis terms: symmetric).
///
/// The fit minimises `Σ (‖S (aᵢ − o)‖ − g)²` over the mean readings `aᵢ` of N still orientations, by
/// Levenberg–Marquardt-damped Gauss–Newton from the six-face closed form (offset = midpoint of each axis's
/// extremes, scale = 2g / their difference). A symmetric `S` is general: any other matrix with the same
/// norms differs from it by a rotation, which a magnitude fit cannot see (and which the mount matrix
/// handles). Six faces determine the 6 diagonal parameters exactly; the 3 cross-axis terms need at least 9
/// orientations, three of them tilted between axes.
public struct AccelerometerCalibration: Sendable, Equatable {
    /// The offset `o`, m/s² (subtracted from the raw reading).
    public let offset: SIMD3<Double>
    /// The scale matrix `S` (dimensionless), applied after the offset.
    public let scale: Matrix3
    /// The magnitude the corrected readings were fitted to, m/s².
    public let gravity: Double
    /// Root mean square of `‖S (aᵢ − o)‖ − g` over the orientations, m/s².
    public let residualRMS: Double
    /// The faces among the orientations.
    public let faces: Set<AccelerometerFace>

    /// The fewest still orientations: 6.
    public static let minimumOrientationCount = 6
    /// The fewest still orientations with cross-axis terms: 9.
    public static let minimumOrientationCountWithCrossAxisTerms = 9

    /// Gauss–Newton iterations at most; it converges in 3–6 from the closed form.
    private static let maximumIterations = 100

    /// Fits offset and scale to the mean readings of still orientations.
    /// - Parameters:
    ///   - orientations: the mean specific force of each still orientation, m/s², raw.
    ///   - gravity: the magnitude to fit to, m/s² (standard gravity by default; the local value differs by
    ///     at most 0.3 %).
    ///   - includesCrossAxisTerms: fit the off-diagonal terms of `S` as well.
    /// - Throws: ``CalibrationError/tooFewSamples(_:)``, ``CalibrationError/missingOrientations(_:)`` naming
    ///   the faces not among the orientations, ``CalibrationError/degenerate(_:)`` or
    ///   ``CalibrationError/didNotConverge(_:)``.
    public init(
        orientations: [SIMD3<Double>], gravity: Double = standardGravity, includesCrossAxisTerms: Bool = false
    ) throws(CalibrationError) {
        let needed = includesCrossAxisTerms ? Self.minimumOrientationCountWithCrossAxisTerms : Self.minimumOrientationCount
        guard orientations.count >= needed else {
            throw .tooFewSamples(
                "\(orientations.count) still orientations, need at least \(needed)"
                    + (includesCrossAxisTerms ? " with cross-axis terms" : " (the six faces)"))
        }
        guard orientations.allSatisfy(\.isFinite), gravity > 0, gravity.isFinite else {
            throw .degenerate("an orientation's mean or the gravity \(gravity) m/s² is not a finite number")
        }
        let faces = Set(orientations.compactMap { AccelerometerFace(specificForce: $0) })
        let missing = AccelerometerFace.allCases.filter { !faces.contains($0) }
        guard missing.isEmpty else {
            throw .missingOrientations(
                "no still orientation with \(missing.map(\.description).joined(separator: ", ")) (within \(Int(AccelerometerFace.toleranceDegrees))°); every axis must point up and down once")
        }
        // The closed form for six faces: offset midway between each axis's extremes, scale 2g / their span.
        let lowest = orientations.reduce(SIMD3(repeating: Double.infinity)) { pointwiseMin($0, $1) }
        let highest = orientations.reduce(SIMD3(repeating: -Double.infinity)) { pointwiseMax($0, $1) }
        var parameters = Parameters(
            offset: (lowest + highest) / 2, diagonal: 2 * gravity / (highest - lowest), crossAxis: .zero)
        var damping = 1e-3
        var cost = parameters.cost(orientations, gravity)
        var isSettled = false
        for _ in 0..<Self.maximumIterations where !isSettled {
            let (normal, gradient) = parameters.normalEquations(orientations, gravity, crossAxis: includesCrossAxisTerms)
            // Levenberg–Marquardt: raise the damping until a step lowers the cost; if none does, the
            // parameters are at the minimum.
            isSettled = true
            while damping < 1e12 {
                var damped = normal
                for i in damped.indices { damped[i][i] += damping * max(normal[i][i], 1e-12) }
                guard let step = LinearSystem.solve(damped, gradient.map { -$0 }) else {
                    throw .degenerate("the orientations do not determine the accelerometer's offset and scale; use orientations that differ more")
                }
                let candidate = parameters.adding(step)
                let candidateCost = candidate.cost(orientations, gravity)
                if candidateCost <= cost {
                    let stepSize = step.reduce(0) { $0 + $1 * $1 }.squareRoot()
                    isSettled = stepSize < 1e-12 || cost - candidateCost <= 1e-15 * cost
                    parameters = candidate
                    cost = candidateCost
                    damping = max(damping / 10, 1e-12)
                    break
                }
                damping *= 10
            }
        }
        guard isSettled else {
            throw .didNotConverge("the accelerometer fit did not settle in \(Self.maximumIterations) iterations")
        }
        let scale = parameters.matrix
        guard scale.isFinite, parameters.offset.isFinite, scale.determinant > 0,
            (0...2).allSatisfy({ scale[$0, $0] > 0 })
        else {
            throw .degenerate("the fitted scale \(scale.rows) is not a plausible accelerometer scale")
        }
        offset = parameters.offset
        self.scale = scale
        self.gravity = gravity
        residualRMS = (2 * cost / Double(orientations.count)).squareRoot()
        self.faces = faces
    }

    /// Applies the calibration: `S · (reading − o)`, m/s².
    /// - Parameter reading: a raw specific force, m/s².
    public func corrected(_ reading: SIMD3<Double>) -> SIMD3<Double> {
        scale * (reading - offset)
    }

    /// The fitted quantities: offset (3), diagonal (3) and the symmetric off-diagonal terms xy, xz, yz (3).
    private struct Parameters {
        var offset: SIMD3<Double>
        var diagonal: SIMD3<Double>
        var crossAxis: SIMD3<Double>

        var matrix: Matrix3 {
            Matrix3(
                row0: SIMD3(diagonal.x, crossAxis.x, crossAxis.y),
                row1: SIMD3(crossAxis.x, diagonal.y, crossAxis.z),
                row2: SIMD3(crossAxis.y, crossAxis.z, diagonal.z))
        }

        /// Half the sum of squared residuals, (m/s²)².
        func cost(_ readings: [SIMD3<Double>], _ gravity: Double) -> Double {
            let matrix = self.matrix
            return readings.reduce(0) { sum, reading in
                let residual = (matrix * (reading - offset)).length - gravity
                return sum + residual * residual / 2
            }
        }

        /// `JᵀJ` and `Jᵀr` of the residuals (6 or 9 parameters).
        func normalEquations(_ readings: [SIMD3<Double>], _ gravity: Double, crossAxis fitsCrossAxis: Bool)
            -> ([[Double]], [Double])
        {
            let count = fitsCrossAxis ? 9 : 6
            var normal = [[Double]](repeating: [Double](repeating: 0, count: count), count: count)
            var gradient = [Double](repeating: 0, count: count)
            let matrix = self.matrix
            for reading in readings {
                let d = reading - offset
                let u = matrix * d
                let n = max(u.length, 1e-12)
                let residual = n - gravity
                // ∂n/∂o = −S u / n (S symmetric); ∂n/∂S_jj = u_j d_j / n; ∂n/∂S_jk = (u_j d_k + u_k d_j) / n.
                let dOffset = -(matrix * u) / n
                var row = [dOffset.x, dOffset.y, dOffset.z, u.x * d.x / n, u.y * d.y / n, u.z * d.z / n]
                if fitsCrossAxis {
                    row += [(u.x * d.y + u.y * d.x) / n, (u.x * d.z + u.z * d.x) / n, (u.y * d.z + u.z * d.y) / n]
                }
                for i in 0..<count {
                    gradient[i] += row[i] * residual
                    for j in 0..<count { normal[i][j] += row[i] * row[j] }
                }
            }
            return (normal, gradient)
        }

        func adding(_ step: [Double]) -> Parameters {
            var next = self
            next.offset += SIMD3(step[0], step[1], step[2])
            next.diagonal += SIMD3(step[3], step[4], step[5])
            if step.count == 9 { next.crossAxis += SIMD3(step[6], step[7], step[8]) }
            return next
        }
    }
}
