import Foundation
import MotionFusion
import MotionMath
import MotionTestSupport
import Testing

/// Magnetometer hard and soft iron from an ellipsoid fit.
@Suite struct CalibrationMagnetometerTests {
    static let field = 50.0
    static let hardIron = SIMD3(21.5, -14.2, 36.8)
    /// The distortion A (symmetric): raw = A · (field in board axes) + hard iron.
    static let softIron = Matrix3(row0: SIMD3(1.12, 0.06, -0.03), row1: SIMD3(0.06, 0.91, 0.04), row2: SIMD3(-0.03, 0.04, 1.02))

    /// Readings of a board turned through `directions` (board-axis field directions), with 0.3 µT noise.
    static func readings(_ directions: [SIMD3<Double>], random: inout SeededGenerator) -> [SIMD3<Double>] {
        directions.map { softIron * (field * $0) + hardIron + random.gaussianVector(standardDeviation: 0.3) }
    }

    @Test func recoversHardAndSoftIron() throws {
        var random = SeededGenerator(seed: 31)
        let directions = (0..<2000).map { _ in random.unitVector() }
        let calibration = try MagnetometerCalibration(readings: Self.readings(directions, random: &random))
        // The fit cannot see A's size apart from the field's: it maps to the sphere of radius det(A)^⅓ · F
        // with W = det(A)^⅓ · A⁻¹, so that W · A = det(A)^⅓ · I.
        let size = cbrt(Self.softIron.determinant)
        #expect((calibration.hardIron - Self.hardIron).length < 0.1, "hard iron \(calibration.hardIron)")
        #expect(abs(calibration.fieldStrength - size * Self.field) < 0.1, "field \(calibration.fieldStrength)")
        let product = calibration.softIron * Self.softIron
        for (row, axis) in zip([product.row0, product.row1, product.row2], [SIMD3(1.0, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]) {
            #expect((row - size * axis).length < 2e-3, "W·A row \(row)")
        }
        #expect(abs(calibration.softIron.determinant - 1) < 1e-9)
        // Residual: the 0.3 µT noise along the radius.
        #expect(abs(calibration.residualRMS - 0.3) < 0.05)
        #expect(calibration.coverage == 1)
        #expect(calibration.quality == .high)
    }

    @Test func partialCoverageLowersTheGrade() throws {
        var random = SeededGenerator(seed: 32)
        /// 1500 directions with z above `lowest`.
        func cap(above lowest: Double) -> [SIMD3<Double>] {
            var directions: [SIMD3<Double>] = []
            while directions.count < 1500 {
                let direction = random.unitVector()
                if direction.z > lowest { directions.append(direction) }
            }
            return directions
        }
        // A hemisphere (z > 0) of the corrected field: the upper two bands, 16 of 32 sectors.
        let hemisphere = try MagnetometerCalibration(readings: Self.readings(cap(above: 0.02), random: &random))
        #expect(hemisphere.coverage == 0.5)
        #expect(hemisphere.quality == .medium)
        #expect((hemisphere.hardIron - Self.hardIron).length < 0.5)
        // The top band only (z > 0.5), a quarter of the sphere: the ellipsoid is poorly determined by so
        // small a cap, so the corrected directions spread past it, but they stay under half the sphere.
        let quarter = try MagnetometerCalibration(readings: Self.readings(cap(above: 0.52), random: &random))
        #expect(quarter.coverage < 0.5)
        #expect(quarter.quality == .low)
    }

    @Test func refusesReadingsInAPlane() {
        var random = SeededGenerator(seed: 33)
        // A board turned about its z axis only: the field's direction sweeps a cone, its readings an ellipse.
        let directions = (0..<500).map { index -> SIMD3<Double> in
            let angle = Double(index) / 500 * 2 * .pi
            return SIMD3(0.6 * cos(angle), 0.6 * sin(angle), 0.8)
        }
        let readings = directions.map { Self.softIron * (Self.field * $0) + Self.hardIron + random.gaussianVector(standardDeviation: 0.05) }
        do {
            _ = try MagnetometerCalibration(readings: readings)
            Issue.record("readings in a plane were accepted")
        } catch {
            guard case .degenerate(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("plane"))
        }
    }

    @Test func refusesTooFewOrIdenticalReadings() {
        #expect(throws: CalibrationError.tooFewSamples("10 magnetometer readings, need at least 50")) {
            try MagnetometerCalibration(readings: Array(repeating: SIMD3(1, 2, 3), count: 10))
        }
        #expect(throws: CalibrationError.self) {
            try MagnetometerCalibration(readings: Array(repeating: SIMD3(1, 2, 3), count: 100))
        }
    }

    @Test func gradesFollowTheDocumentedThresholds() {
        #expect(MagnetometerCalibrationQuality(relativeResidual: 0.01, coverage: 0.8) == .high)
        #expect(MagnetometerCalibrationQuality(relativeResidual: 0.03, coverage: 0.8) == .medium)
        #expect(MagnetometerCalibrationQuality(relativeResidual: 0.01, coverage: 0.6) == .medium)
        #expect(MagnetometerCalibrationQuality(relativeResidual: 0.06, coverage: 1) == .low)
        #expect(MagnetometerCalibrationQuality(relativeResidual: 0.01, coverage: 0.4) == .low)
    }

    @Test func sphereCoverageCountsEqualAreaSectors() {
        var coverage = SphereCoverage()
        #expect(coverage.fraction == 0)
        // Three readings in one sector make it count; two do not.
        coverage.add(SIMD3(1, 0.1, 0.1))
        coverage.add(SIMD3(2, 0.2, 0.3))
        #expect(coverage.coveredSectorCount == 0)
        coverage.add(SIMD3(5, 0.1, 0.2))
        #expect(coverage.coveredSectorCount == 1)
        #expect(coverage.fraction == 1.0 / 32)
        coverage.add(.zero)
        #expect(coverage.counts.reduce(0, +) == 3)
    }
}
