import Foundation
import MotionFusion
import MotionMath
import MotionTestSupport
import Testing

/// Accelerometer offset and scale from still orientations.
@Suite struct CalibrationAccelerometerTests {
    static let gravity = 9.80665
    /// The true error: raw = D · true + offset, so the calibration should find S = D⁻¹ and the offset.
    static let offset = SIMD3(0.31, -0.22, 0.47)
    static let gains = Matrix3(diagonal: SIMD3(1.021, 0.982, 1.013))

    /// The mean reading of a still orientation whose up axis is `up`, with the mean's noise (σ = 0.002
    /// m/s² per axis: 0.02 m/s² noise averaged over 100 samples).
    static func reading(up: SIMD3<Double>, gains: Matrix3 = gains, random: inout SeededGenerator) -> SIMD3<Double> {
        gains * (gravity * up.normalized) + offset + random.gaussianVector(standardDeviation: 0.002)
    }

    @Test func recoversOffsetAndScaleFromSixFaces() throws {
        var random = SeededGenerator(seed: 21)
        let orientations = AccelerometerFace.allCases.map { Self.reading(up: $0.axis, random: &random) }
        let calibration = try AccelerometerCalibration(orientations: orientations)
        #expect((calibration.offset - Self.offset).length < 0.005, "offset \(calibration.offset)")
        let expectedScale = try #require(Self.gains.inverse)
        #expect((calibration.scale.diagonal - expectedScale.diagonal).length < 5e-4, "scale \(calibration.scale.diagonal)")
        #expect(calibration.scale.row0.y == 0 && calibration.scale.row1.z == 0)
        // Six faces, six parameters: the fit is exact up to the noise.
        #expect(calibration.residualRMS < 1e-9)
        #expect(calibration.faces.count == 6)
        // Corrected faces read g.
        for reading in orientations { #expect(abs(calibration.corrected(reading).length - Self.gravity) < 1e-9) }
    }

    @Test func recoversCrossAxisTermsFromTiltedOrientations() throws {
        var random = SeededGenerator(seed: 22)
        // A symmetric gain with cross-axis coupling of about 1 %.
        let gains = Matrix3(row0: SIMD3(1.02, 0.012, -0.008), row1: SIMD3(0.012, 0.985, 0.01), row2: SIMD3(-0.008, 0.01, 1.01))
        var ups = AccelerometerFace.allCases.map(\.axis)
        for _ in 0..<20 { ups.append(random.unitVector()) }
        let orientations = ups.map { Self.reading(up: $0, gains: gains, random: &random) }
        let calibration = try AccelerometerCalibration(orientations: orientations, includesCrossAxisTerms: true)
        let expected = try #require(gains.inverse)
        #expect((calibration.offset - Self.offset).length < 0.005)
        for (row, truth) in zip([calibration.scale.row0, calibration.scale.row1, calibration.scale.row2], [expected.row0, expected.row1, expected.row2]) {
            #expect((row - truth).length < 1e-3, "\(row) vs \(truth)")
        }
        // Residual: the orientations' noise, 0.002 m/s² per axis.
        #expect(calibration.residualRMS < 0.004)
    }

    @Test func namesTheMissingFaces() {
        var random = SeededGenerator(seed: 23)
        // +z twice and no -z.
        let ups = [SIMD3(1.0, 0, 0), SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -1, 0), SIMD3(0, 0, 1), SIMD3(0.1, 0, 1)]
        let orientations = ups.map { Self.reading(up: $0, random: &random) }
        do {
            _ = try AccelerometerCalibration(orientations: orientations)
            Issue.record("six orientations without -z up were accepted")
        } catch {
            guard case .missingOrientations(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("-z up") && !why.contains("+z up"))
        }
    }

    @Test func refusesTooFewOrientations() {
        var random = SeededGenerator(seed: 24)
        let five = AccelerometerFace.allCases.dropLast().map { Self.reading(up: $0.axis, random: &random) }
        #expect(throws: CalibrationError.tooFewSamples("5 still orientations, need at least 6 (the six faces)")) {
            try AccelerometerCalibration(orientations: five)
        }
        let six = AccelerometerFace.allCases.map { Self.reading(up: $0.axis, random: &random) }
        #expect(throws: CalibrationError.tooFewSamples("6 still orientations, need at least 9 with cross-axis terms")) {
            try AccelerometerCalibration(orientations: six, includesCrossAxisTerms: true)
        }
    }

    @Test func facesAreRecognisedWithinTheirTolerance() {
        #expect(AccelerometerFace(specificForce: SIMD3(0, 0, 9.8)) == .positiveZ)
        #expect(AccelerometerFace(specificForce: SIMD3(0, -9.8, 0)) == .negativeY)
        // 20° off vertical still counts; 45° does not.
        #expect(AccelerometerFace(specificForce: SIMD3(sin(20 * .pi / 180), 0, -cos(20 * .pi / 180))) == .negativeZ)
        #expect(AccelerometerFace(specificForce: SIMD3(1, 0, 1)) == nil)
    }
}
