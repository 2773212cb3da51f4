import MotionHAL
import Testing

@Suite struct SimulatedAttitudeTests {
    @Test func quarterTurnAboutZTakesEastToNorth() {
        let quarterTurn = SimulatedAttitude(axis: SIMD3(0, 0, 1), angle: .pi / 2)
        #expect(maxDifference(quarterTurn.rotate(SIMD3(1, 0, 0)), SIMD3(0, 1, 0)) < 1e-12)
        #expect(maxDifference(quarterTurn.rotate(SIMD3(0, 1, 0)), SIMD3(-1, 0, 0)) < 1e-12)
        #expect(maxDifference(quarterTurn.rotate(SIMD3(0, 0, 2)), SIMD3(0, 0, 2)) < 1e-12)
    }

    @Test func rotationAgreesWithTheMatrixFormulaAndComposes() {
        let a = SimulatedAttitude(axis: SIMD3(1, -2, 0.5), angle: 1.1)
        let b = SimulatedAttitude(axis: SIMD3(-0.3, 0.4, 2), angle: -2.3)
        let vector = SIMD3(0.7, -1.9, 3.2)
        let rows = rotationMatrix(a)
        let byMatrix = SIMD3((rows[0] * vector).sum(), (rows[1] * vector).sum(), (rows[2] * vector).sum())
        #expect(maxDifference(a.rotate(vector), byMatrix) < 1e-12)
        #expect(maxDifference((a * b).rotate(vector), a.rotate(b.rotate(vector))) < 1e-12)
        #expect(maxDifference(a.conjugate.rotate(a.rotate(vector)), vector) < 1e-12)
        #expect(abs(length(a.rotate(vector)) - length(vector)) < 1e-12)
    }

    @Test func angleBetweenRotationsIsTheRelativeTurn() {
        let a = SimulatedAttitude(axis: SIMD3(0, 1, 1), angle: 0.4)
        let b = a * SimulatedAttitude(axis: SIMD3(1, 0, 0), angle: 0.25)
        #expect(abs(a.angle(to: b) - 0.25) < 1e-9)
        #expect(a.angle(to: a) < 1e-12)
        // q and −q are the same rotation.
        let negated = SimulatedAttitude(w: -a.w, x: -a.x, y: -a.y, z: -a.z)
        #expect(a.angle(to: negated) < 1e-12)
    }

    @Test func rotationVectorIsTheExponentialMap() {
        let turn = SimulatedAttitude(rotationVector: SIMD3(0, 0, -.pi / 2))
        #expect(maxDifference(turn.rotate(SIMD3(1, 0, 0)), SIMD3(0, -1, 0)) < 1e-12)
        #expect(SimulatedAttitude(rotationVector: SIMD3(repeating: 0)) == .identity)
    }
}
