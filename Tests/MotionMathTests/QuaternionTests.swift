import Foundation
import MotionTestSupport
import Testing
import MotionMath

/// Rodrigues' rotation formula: independent truth for rotating `v` by `angle` about unit `axis`.
private func rodrigues(_ v: SIMD3<Double>, axis: SIMD3<Double>, angle: Double) -> SIMD3<Double> {
    v * cos(angle) + axis.cross(v) * sin(angle) + axis * (axis.dot(v) * (1 - cos(angle)))
}

private func isClose(_ a: SIMD3<Double>, _ b: SIMD3<Double>, tolerance: Double = 1e-12) -> Bool {
    (a - b).length <= tolerance
}

private func isClose(_ a: Quaternion, _ b: Quaternion, tolerance: Double = 1e-12) -> Bool {
    abs(a.w - b.w) <= tolerance && abs(a.x - b.x) <= tolerance
        && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
}

private func randomQuaternion(_ generator: inout SeededGenerator) -> Quaternion {
    Quaternion(axis: generator.unitVector(), angle: Double.random(in: -Double.pi...Double.pi, using: &generator))
}

@Suite("Quaternion")
struct QuaternionTests {
    @Test("90° about z maps x → y and y → −x; 90° about x maps y → z")
    func knownRotations() {
        let aboutZ = Quaternion(axis: SIMD3(0, 0, 1), angle: Double.pi / 2)
        #expect(isClose(aboutZ.rotate(SIMD3(1, 0, 0)), SIMD3(0, 1, 0)))
        #expect(isClose(aboutZ.rotate(SIMD3(0, 1, 0)), SIMD3(-1, 0, 0)))
        #expect(isClose(aboutZ.rotate(SIMD3(0, 0, 1)), SIMD3(0, 0, 1)))
        let aboutX = Quaternion(axis: SIMD3(2, 0, 0), angle: Double.pi / 2)  // axis need not be unit
        #expect(isClose(aboutX.rotate(SIMD3(0, 1, 0)), SIMD3(0, 0, 1)))
        // Components: cos(45°) + sin(45°)·k.
        #expect(isClose(aboutZ, Quaternion(w: 0.5.squareRoot(), x: 0, y: 0, z: 0.5.squareRoot())))
        // The matrix of 90° about z, written out.
        let matrix = aboutZ.rotationMatrix
        #expect(isClose(matrix.row0, SIMD3(0, -1, 0)))
        #expect(isClose(matrix.row1, SIMD3(1, 0, 0)))
        #expect(isClose(matrix.row2, SIMD3(0, 0, 1)))
    }

    @Test("rotate agrees with Rodrigues' formula and with the rotation matrix")
    func rotateMatchesRodriguesAndMatrix() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let axis = generator.unitVector()
            let angle = Double.random(in: -2 * Double.pi...2 * Double.pi, using: &generator)
            let v = generator.gaussianVector(standardDeviation: 5)
            let q = Quaternion(axis: axis, angle: angle)
            let expected = rodrigues(v, axis: axis, angle: angle)
            #expect(isClose(q.rotate(v), expected, tolerance: 1e-11))
            #expect(isClose(q.rotationMatrix * v, expected, tolerance: 1e-11))
            #expect(abs(q.rotationMatrix.determinant - 1) < 1e-12)
            let product = q.rotationMatrix * q.rotationMatrix.transposed
            #expect(isClose(product.row0, SIMD3(1, 0, 0)) && isClose(product.row1, SIMD3(0, 1, 0)))
        }
    }

    @Test("Hamilton product is associative and composes rotations right to left")
    func productAssociativityAndComposition() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<100 {
            let a = randomQuaternion(&generator), b = randomQuaternion(&generator), c = randomQuaternion(&generator)
            #expect(isClose((a * b) * c, a * (b * c), tolerance: 1e-12))
            let v = generator.gaussianVector(standardDeviation: 3)
            #expect(isClose((a * b).rotate(v), a.rotate(b.rotate(v)), tolerance: 1e-11))
            let matrixProduct = a.rotationMatrix * b.rotationMatrix
            #expect(isClose(matrixProduct * v, (a * b).rotate(v), tolerance: 1e-11))
        }
        // i·j = k, j·i = −k (Hamilton's rules).
        let i = Quaternion(w: 0, x: 1, y: 0, z: 0), j = Quaternion(w: 0, x: 0, y: 1, z: 0)
        #expect(i * j == Quaternion(w: 0, x: 0, y: 0, z: 1))
        #expect(j * i == Quaternion(w: 0, x: 0, y: 0, z: -1))
    }

    @Test("axis-angle round trip, rotation vector, and matrix round trip including near 180°")
    func roundTrips() {
        var generator = SeededGenerator(seed: 13)
        let angles = [0.001, 0.5, 1.5, 3.0, Double.pi - 1e-6, Double.pi]
        for angle in angles {
            for _ in 0..<20 {
                let axis = generator.unitVector()
                let q = Quaternion(axis: axis, angle: angle)
                #expect(abs(q.norm - 1) < 1e-15)
                #expect(abs(q.rotationAngle - angle) < 1e-9)
                if angle < Double.pi - 1e-3 {
                    #expect(isClose(q.vector.normalized, axis, tolerance: 1e-9))
                }
                #expect(isClose(Quaternion(rotationVector: axis * angle), q, tolerance: 1e-15))
                // Matrix → quaternion gives the same rotation (up to sign).
                let recovered = Quaternion(rotationMatrix: q.rotationMatrix)
                #expect(recovered.angle(to: q) < 1e-7)
                let v = generator.gaussianVector(standardDeviation: 1)
                #expect(isClose(recovered.rotate(v), q.rotate(v), tolerance: 1e-9))
            }
        }
        #expect(Quaternion(axis: .zero, angle: 1) == .identity)
        #expect(Quaternion(rotationVector: .zero) == .identity)
    }

    @Test("angle(to:) is the smallest angle, symmetric and sign-insensitive")
    func angleBetween() {
        let axis = SIMD3<Double>(1, 2, 3).normalized
        let a = Quaternion(axis: axis, angle: 0.3), b = Quaternion(axis: axis, angle: 1.0)
        #expect(abs(a.angle(to: b) - 0.7) < 1e-12)
        #expect(abs(b.angle(to: a) - 0.7) < 1e-12)
        let negated = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z)
        #expect(abs(a.angle(to: negated) - 0.7) < 1e-12)
        // 350° the long way is 10° the short way.
        let almostFull = Quaternion(axis: axis, angle: 350 * .pi / 180)
        #expect(abs(Quaternion.identity.angle(to: almostFull) * 180 / .pi - 10) < 1e-9)
    }

    @Test("conjugate, inverse, norm and normalised")
    func inverseAndNorm() {
        let q = Quaternion(w: 1, x: -2, y: 3, z: 0.5)
        #expect(abs(q.norm - (1 + 4 + 9 + 0.25).squareRoot()) < 1e-15)
        #expect(isClose(q * q.inverse, .identity, tolerance: 1e-15))
        #expect(isClose(q.inverse * q, .identity, tolerance: 1e-15))
        #expect(q.conjugate == Quaternion(w: 1, x: 2, y: -3, z: -0.5))
        #expect(abs(q.normalized.norm - 1) < 1e-15)
        let unit = q.normalized
        #expect(isClose(unit.conjugate, unit.inverse, tolerance: 1e-15))
        let v = SIMD3<Double>(0.3, -1, 2)
        #expect(isClose(unit.conjugate.rotate(unit.rotate(v)), v, tolerance: 1e-14))
        #expect(Quaternion(w: 0, x: 0, y: 0, z: 0).normalized == .identity)
    }
}

@Suite("Vector helpers")
struct VectorTests {
    @Test("dot, cross, length, normalized")
    func basics() {
        let x = SIMD3<Double>(1, 0, 0), y = SIMD3<Double>(0, 1, 0)
        #expect(x.cross(y) == SIMD3(0, 0, 1))
        #expect(y.cross(x) == SIMD3(0, 0, -1))
        #expect(SIMD3<Double>(1, 2, 3).dot(SIMD3(4, -5, 6)) == 12)
        #expect(SIMD3<Double>(3, 4, 12).length == 13)
        #expect(isClose(SIMD3<Double>(3, 4, 12).normalized, SIMD3(3, 4, 12) / 13))
        #expect(SIMD3<Double>.zero.normalized == .zero)
        #expect(!SIMD3<Double>(1, .nan, 0).isFinite)
        let a = SIMD3<Double>(0.2, -1.3, 2.1), b = SIMD3<Double>(-0.7, 0.4, 1.9)
        #expect(abs(a.cross(b).dot(a)) < 1e-15 && abs(a.cross(b).dot(b)) < 1e-15)
    }
}

/// Spherical interpolation, for a reference attitude between two samples.
@Suite struct QuaternionInterpolationTests {
    @Test func turnsAtAConstantRateAlongTheShorterArc() {
        let start = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.2)
        let stop = Quaternion(axis: SIMD3(0, 0, 1), angle: 1.4)
        #expect(isClose(start.interpolated(to: stop, fraction: 0), start))
        #expect(isClose(start.interpolated(to: stop, fraction: 1), stop))
        for fraction in [0.1, 0.25, 0.5, 0.9] {
            let expected = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.2 + 1.2 * fraction)
            #expect(isClose(start.interpolated(to: stop, fraction: fraction), expected))
        }
        // The same rotation written with the other sign: still the short way, the same result.
        let negated = Quaternion(w: -stop.w, x: -stop.x, y: -stop.y, z: -stop.z)
        #expect(start.interpolated(to: negated, fraction: 0.5).angle(to: Quaternion(axis: SIMD3(0, 0, 1), angle: 0.8)) < 1e-12)
        // Equal rotations give that rotation, at unit norm.
        let same = start.interpolated(to: start, fraction: 0.3)
        #expect(isClose(same, start) && abs(same.norm - 1) < 1e-15)
    }
}
