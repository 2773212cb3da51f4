import MotionContract
import Foundation
import MotionTestSupport
import Testing

import CoreMotion
import MotionMath
@testable import MotionAgent

@Suite struct QuaternionMeanTests {
    private func rotation(_ axis: SIMD3<Double>, _ angle: Double) -> Quaternion {
        let unit = axis / (axis * axis).sum().squareRoot()
        let sine = sin(angle / 2)
        return Quaternion(w: cos(angle / 2), x: unit.x * sine, y: unit.y * sine, z: unit.z * sine)
    }

    private func negated(_ q: Quaternion) -> Quaternion { Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }

    private func randomRotation(_ random: inout SeededGenerator) -> Quaternion {
        rotation(random.unitVector(), Double.random(in: 0...Double.pi, using: &random))
    }

    /// The 4×4 matrix (rows) of left multiplication by the unit quaternion `p`: orthogonal.
    private func leftMultiplication(_ p: SIMD4<Double>) -> [SIMD4<Double>] {
        let w = p[0], x = p[1], y = p[2], z = p[3]
        return [SIMD4(w, -x, -y, -z), SIMD4(x, w, -z, y), SIMD4(y, z, w, -x), SIMD4(z, -y, x, w)]
    }

    private func multiply(_ matrix: [SIMD4<Double>], _ vector: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4((matrix[0] * vector).sum(), (matrix[1] * vector).sum(), (matrix[2] * vector).sum(), (matrix[3] * vector).sum())
    }

    @Test func eigensystemOfAMatrixWithKnownSpectrum() {
        var random = SeededGenerator(seed: 42)
        for spectrum in [[4, 2.5, 1, -0.5], [3, 3, 1, 1], [1e-9, 0, 0, 0], [2, 2, 2, 2]] as [[Double]] {
            for _ in 0..<20 {
                // A = Q diag(λ) Qᵀ with Q orthogonal: the columns of Q are the eigenvectors.
                let q = leftMultiplication(randomRotation(&random).components)
                let columns: [SIMD4<Double>] = (0..<4).map { column in SIMD4(q[0][column], q[1][column], q[2][column], q[3][column]) }
                var rows = [SIMD4<Double>](repeating: .zero, count: 4)
                for (eigenvalue, eigenvector) in zip(spectrum, columns) {
                    for row in 0..<4 { rows[row] += eigenvalue * eigenvector[row] * eigenvector }
                }
                let system = eigensystem(rows)
                for (value, expected) in zip(system.eigenvalues, spectrum.sorted(by: >)) {
                    #expect(abs(value - expected) < 1e-12)
                }
                for (index, vector) in system.eigenvectors.enumerated() {
                    let residual = multiply(rows, vector) - system.eigenvalues[index] * vector
                    #expect((residual * residual).sum().squareRoot() < 1e-12)
                    for (otherIndex, other) in system.eigenvectors.enumerated() {
                        let dot = (vector * other).sum()
                        #expect(abs(dot - (otherIndex == index ? 1 : 0)) < 1e-12)
                    }
                }
            }
        }
    }

    /// The decomposition of a 4×4 matrix given as rows, largest eigenvalue first.
    private func eigensystem(_ rows: [SIMD4<Double>]) -> (eigenvalues: [Double], eigenvectors: [SIMD4<Double>]) {
        let decomposition = SymmetricEigendecomposition(symmetric: rows.map { [$0[0], $0[1], $0[2], $0[3]] })!
        return (decomposition.eigenvalues.reversed(), decomposition.eigenvectors.reversed().map { SIMD4($0) })
    }

    @Test func theSignOfEachQuaternionDoesNotMatter() {
        var random = SeededGenerator(seed: 1)
        for _ in 0..<50 {
            let q = randomRotation(&random)
            let mean = QuaternionMean.mean(of: [q, negated(q), q, negated(q), negated(q)])
            #expect(mean.angle(to: q) < 1e-12)
            #expect(abs(mean.norm - 1) < 1e-12)
            #expect((mean.components * q.components).sum() > 0, "in the first sample's hemisphere")
        }
    }

    @Test func oppositeRotationsAboutAnAxisAverageToTheIdentity() {
        var random = SeededGenerator(seed: 2)
        for _ in 0..<50 {
            let axis = random.unitVector()
            let angle = Double.random(in: 0.01...1.5, using: &random)
            let mean = QuaternionMean.mean(of: [rotation(axis, angle), negated(rotation(axis, -angle))])
            #expect(mean.angle(to: Quaternion(w: 1, x: 0, y: 0, z: 0)) < 1e-12)
        }
    }

    @Test func rotationsAboutOneAxisAverageToTheCircularMeanOfTheirAngles() {
        // For q_i = (cos θ_i/2, sin θ_i/2 · a), M's top eigenvector is at half the angle of Σ (cos θ_i, sin θ_i).
        var random = SeededGenerator(seed: 3)
        for _ in 0..<50 {
            let axis = random.unitVector()
            let angles = (0..<7).map { _ in Double.random(in: -0.8...1.6, using: &random) }
            let expected = atan2(angles.reduce(0) { $0 + sin($1) }, angles.reduce(0) { $0 + cos($1) })
            let inputs = angles.enumerated().map { $0.offset.isMultiple(of: 2) ? rotation(axis, $0.element) : negated(rotation(axis, $0.element)) }
            #expect(QuaternionMean.mean(of: inputs).angle(to: rotation(axis, expected)) < 1e-10)
        }
    }

    @Test func closeAttitudesAgreeWithTheNormalizedArithmeticMean() {
        var random = SeededGenerator(seed: 4)
        for _ in 0..<50 {
            let base = randomRotation(&random)
            // A 20 ms window turning at up to ~1 rad/s, plus noise: attitudes within ~0.01 rad.
            let window = (0..<20).map { _ in
                let delta = rotation(random.unitVector(), Double.random(in: 0...0.01, using: &random))
                return Quaternion(components: multiplyQuaternions(base.components, delta.components))
            }
            let sum = window.reduce(SIMD4<Double>.zero) { $0 + $1.components }
            let arithmetic = Quaternion(components: sum / (sum * sum).sum().squareRoot())
            #expect(QuaternionMean.mean(of: window).angle(to: arithmetic) < 1e-6)
        }
    }

    @Test func mixedSignsDefeatTheNaiveMeanButNotMarkleys() {
        let axis = SIMD3(0.3, -0.5, 0.8)
        let first = rotation(axis, 0.1), second = negated(rotation(axis, 0.3))
        let truth = rotation(axis, 0.2)
        let sum = first.components + second.components
        let naive = Quaternion(components: sum / (sum * sum).sum().squareRoot())
        #expect(naive.angle(to: truth) > 2.5, "the naive mean is nearly a half turn off")
        #expect(QuaternionMean.mean(of: [first, second]).angle(to: truth) < 1e-12)
    }

    @Test func markleysMeanMinimisesTheChordalCost() {
        // The mean maximises Σ (q·q_i)² (equivalently minimises Σ ‖R(q) − R(q_i)‖²_F): no nearby attitude does better.
        var random = SeededGenerator(seed: 5)
        for _ in 0..<20 {
            let inputs = (0..<6).map { _ in randomRotation(&random) }
            func score(_ q: Quaternion) -> Double {
                inputs.reduce(0) { let dot = (q.normalized.components * $1.components).sum(); return $0 + dot * dot }
            }
            let mean = QuaternionMean.mean(of: inputs)
            for _ in 0..<50 {
                let nearby = Quaternion(components: multiplyQuaternions(
                    mean.components, rotation(random.unitVector(), Double.random(in: 1e-4...0.5, using: &random)).components))
                #expect(score(nearby) <= score(mean) + 1e-12)
            }
        }
    }

    @Test func degenerateInputsGiveAUnitQuaternion() {
        let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)
        #expect(QuaternionMean.mean(of: []).components == identity.components)
        #expect(QuaternionMean.mean(of: [Quaternion(w: 0, x: 0, y: 0, z: 0)]).components == identity.components)
        let half = rotation(SIMD3(0, 0, 1), .pi)
        let mean = QuaternionMean.mean(of: [identity, half, Quaternion(w: 1, x: .nan, y: 0, z: 0)])
        #expect(abs(mean.norm - 1) < 1e-12, "two attitudes half a turn apart: any of the equally good means")
        #expect(QuaternionMean.mean(of: [Quaternion(w: -2, x: 0, y: 0, z: 0)]).components == SIMD4(-1, 0, 0, 0))
    }

    @Test func eulerAnglesInvertTheirDefiningRotationSequence() {
        // Device → reference = Rz(yaw) · Rx(pitch) · Ry(roll), with pitch in (−π/2, π/2), roll and yaw in (−π, π).
        var random = SeededGenerator(seed: 8)
        for _ in 0..<500 {
            let roll = Double.random(in: -3.1...3.1, using: &random)
            let pitch = Double.random(in: -1.5...1.5, using: &random)
            let yaw = Double.random(in: -3.1...3.1, using: &random)
            let q = multiplyQuaternions(
                multiplyQuaternions(rotation(SIMD3(0, 0, 1), yaw).components, rotation(SIMD3(1, 0, 0), pitch).components),
                rotation(SIMD3(0, 1, 0), roll).components)
            let angles = EulerAngles(Quaternion(components: q))
            #expect(abs(angles.roll - roll) < 1e-9 && abs(angles.pitch - pitch) < 1e-9 && abs(angles.yaw - yaw) < 1e-9)
        }
    }

    @Test func headingsAverageOnTheCircle() {
        /// The angle between two headings on the circle, degrees in [0, 180].
        func separation(_ a: Double, _ b: Double) -> Double {
            let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
            return min(difference, 360 - difference)
        }
        for (headings, expected) in [([359.0, 1.0], 0.0), ([350, 10, 355, 5], 0), ([90, 100, 110], 100), ([270, 300], 285),
                                     ([179, 181], 180), ([340, 20], 0)] {
            let mean = DeviceMotionSample.circularMeanHeading(headings)
            #expect((0..<360).contains(mean))
            #expect(separation(mean, expected) < 1e-9, "\(headings) → \(mean)")
        }
        #expect(DeviceMotionSample.circularMeanHeading([-1, -1]) == -1)
        #expect(DeviceMotionSample.circularMeanHeading([10, -1]) == -1, "no north in part of the window")
    }

    @Test func deviceMotionMeanCombinesEachValueItsOwnWay() {
        let axis = SIMD3(1.0, 2, 2)
        let samples = [(0.0, 358.0, MagneticFieldAccuracy.high), (0.02, 2, .low), (0.04, 6, .medium)].map { time, heading, accuracy in
            DeviceMotionSample(
                timestamp: 500 + time, attitude: rotation(axis, 0.5 + time), rotationRate: SIMD3(time, 1, 0),
                gravity: SIMD3(0, 0, -1), userAcceleration: SIMD3(0, time * 10, 0), magneticField: SIMD3(20, -5, time * 100),
                magneticAccuracy: accuracy, heading: heading)
        }
        let mean = DeviceMotionSample.mean(of: samples)
        #expect(abs(mean.timestamp - 500.02) < 1e-9)
        #expect(mean.attitude.angle(to: rotation(axis, 0.52)) < 1e-12)
        #expect(((mean.rotationRate - SIMD3(0.02, 1, 0)) * (mean.rotationRate - SIMD3(0.02, 1, 0))).sum() < 1e-24)
        #expect(((mean.userAcceleration - SIMD3(0, 0.2, 0)) * (mean.userAcceleration - SIMD3(0, 0.2, 0))).sum() < 1e-24)
        #expect(((mean.magneticField - SIMD3(20, -5, 2)) * (mean.magneticField - SIMD3(20, -5, 2))).sum() < 1e-24)
        #expect(mean.gravity == SIMD3(0, 0, -1))
        #expect(mean.magneticAccuracy == .low)
        #expect(abs(mean.heading - 2) < 1e-9)
    }

    /// The Hamilton product `a ⊗ b` of quaternions given as (w, x, y, z) — written out independently of the code under test.
    private func multiplyQuaternions(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(
            a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])
    }
}
