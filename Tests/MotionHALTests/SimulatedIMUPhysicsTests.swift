import MotionHAL
import MotionMath
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The simulator's readings against physics worked out by hand.
@Suite struct SimulatedIMUPhysicsTests {
    /// A resting orientation and the specific force it must read: +g on the body axis that points up.
    struct RestingOrientation: Sendable, CustomTestStringConvertible {
        var name: String
        var attitude: Quaternion
        var expectedAcceleration: SIMD3<Double>
        var testDescription: String { name }
    }

    static let g = 9.81
    static let restingOrientations = [
        RestingOrientation(name: "face up", attitude: .identity, expectedAcceleration: SIMD3(0, 0, g)),
        RestingOrientation(
            name: "face down", attitude: Quaternion(axis: SIMD3(1, 0, 0), angle: .pi),
            expectedAcceleration: SIMD3(0, 0, -g)),
        // Lying on its left edge, +x points up.
        RestingOrientation(
            name: "on its left side", attitude: Quaternion(axis: SIMD3(0, 1, 0), angle: -.pi / 2),
            expectedAcceleration: SIMD3(g, 0, 0)),
        RestingOrientation(
            name: "on its right side", attitude: Quaternion(axis: SIMD3(0, 1, 0), angle: .pi / 2),
            expectedAcceleration: SIMD3(-g, 0, 0)),
        // Standing upright in portrait, +y points up.
        RestingOrientation(
            name: "portrait upright", attitude: Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2),
            expectedAcceleration: SIMD3(0, g, 0)),
        RestingOrientation(
            name: "portrait upside down", attitude: Quaternion(axis: SIMD3(1, 0, 0), angle: -.pi / 2),
            expectedAcceleration: SIMD3(0, -g, 0)),
    ]

    @Test(arguments: restingOrientations)
    func atRestTheAccelerometerReadsGravityOnTheUpAxis(orientation: RestingOrientation) {
        let device = SimulatedIMU(configuration: .init(motion: .stationary(attitude: orientation.attitude)))
        let samples = device.samples(count: 400)
        // Noise 0.02 m/s² per axis → standard error of a 400-sample mean 0.001 m/s²; allow 6σ.
        #expect(maxDifference(mean(samples.map { $0.acceleration! }), orientation.expectedAcceleration) < 0.006)
        // At rest the gyroscope reads its bias only (noise 0.002 rad/s → standard error 1e-4 rad/s).
        #expect(maxDifference(mean(samples.map { $0.rotationRate! }), device.configuration.gyroscopeBias) < 6e-4)
    }

    @Test(arguments: restingOrientations)
    func theMagnetometerHasTheConfiguredStrengthAndDip(orientation: RestingOrientation) {
        let device = SimulatedIMU(configuration: .init(motion: .stationary(attitude: orientation.attitude)))
        let samples = device.samples(count: 400)
        let field = mean(samples.map { $0.magneticField! })
        let up = mean(samples.map { $0.acceleration! }) / Self.g
        // 19.5 µT horizontal, 44.5 µT down: |B| = √(19.5² + 44.5²) = 48.585 µT,
        // dip = atan(44.5 / 19.5) = 66.34°.
        #expect(abs(length(field) - 48.585) < 0.02)
        let dip = degrees(asin(-(field * up).sum() / length(field) / length(up)))
        #expect(abs(dip - 66.34) < 0.05)
    }

    @Test func faceUpTheMagnetometerPointsNorthAndDown() {
        let device = SimulatedIMU(configuration: .init(motion: .stationary(attitude: .identity)))
        let field = mean(device.samples(count: 400).map { $0.magneticField! })
        #expect(maxDifference(field, SIMD3(0, 19.5, -44.5)) < 0.03)
    }

    @Test func constantRotationGyroscopeMeanIsRatePlusBias() {
        let axis = SIMD3<Double>(1, 2, -2) / 3
        let rate = 0.7
        let device = SimulatedIMU(configuration: .init(motion: .rotation(axis: axis * 5, rate: rate)))
        let rates = device.samples(count: 2000).map { $0.rotationRate! }
        // Noise 0.002 rad/s → standard error of the mean 4.5e-5 rad/s.
        #expect(maxDifference(mean(rates), axis * rate + device.configuration.gyroscopeBias) < 3e-4)
        // After 0.5 turn-times the attitude is the closed-form rotation by rate·t about the axis.
        let truth = device.groundTruth(at: 3)
        #expect(truth.attitude.angle(to: Quaternion(axis: axis, angle: 2.1)) < 1e-9)
    }

    @Test func spinAboutTheVerticalTurnsTheHorizontalFieldAndKeepsGravity() {
        let rate = 0.9
        let device = SimulatedIMU(
            configuration: SimulatedIMU.Configuration(
                motion: .rotation(axis: SIMD3(0, 0, 1), rate: rate)
            ).withoutSensorErrors)
        for index in stride(from: 0, to: 2000, by: 137) {
            let sample = device.sample(index: index, sampleRate: 200)
            let turned = rate * Double(index) / 200
            // Body x points (cos α, sin α, 0) in ENU after turning α anticlockwise, body y (−sin α, cos α, 0).
            #expect(maxDifference(sample.magneticField!, SIMD3(19.5 * sin(turned), 19.5 * cos(turned), -44.5)) < 1e-9)
            #expect(maxDifference(sample.acceleration!, SIMD3(0, 0, 9.81)) < 1e-12)
            #expect(maxDifference(sample.rotationRate!, SIMD3(0, 0, rate)) < 1e-15)
        }
    }

    @Test func integratingTheDemoAngularVelocityReproducesTheAttitude() {
        let device = SimulatedIMU(configuration: .init(motion: .demo))
        let step = 0.001
        var attitude = device.groundTruth(at: 0).attitude
        var worstError = 0.0
        for index in 0..<10_000 {
            let time = Double(index) * step
            // Midpoint rule on the body rate: q ← q ⊗ exp(ω(t + h/2)·h).
            let rate = device.groundTruth(at: time + step / 2).angularVelocity
            attitude = attitude * Quaternion(rotationVector: rate * step)
            if (index + 1) % 100 == 0 {
                worstError = max(worstError, attitude.angle(to: device.groundTruth(at: time + step).attitude))
            }
        }
        #expect(degrees(worstError) < 0.1)
        // The test means something only if the demo really turns: more than 30° away from the start at 10 s
        // or earlier, about every axis.
        let turns = stride(from: 0.0, through: 10, by: 0.1).map { device.groundTruth(at: $0) }
        #expect(turns.map { $0.attitude.angle(to: turns[0].attitude) }.max()! > 30 * .pi / 180)
        for axis in 0..<3 {
            #expect(turns.map { abs($0.angularVelocity[axis]) }.max()! > 0.1)
        }
    }

    @Test func integratingNoiseFreeGyroSamplesFollowsARotationSequence() {
        let steps = [
            SimulatedRotationStep(duration: 1, angularVelocity: SIMD3(.pi / 2, 0, 0)),  // +90° about x
            SimulatedRotationStep(duration: 2, angularVelocity: SIMD3(0, 0, -.pi / 4)),  // −90° about z
            SimulatedRotationStep(duration: 0.5, angularVelocity: SIMD3(0, .pi, 0)),  // +90° about y
        ]
        let device = SimulatedIMU(
            configuration: SimulatedIMU.Configuration(
                motion: .rotationSequence(initialAttitude: .identity, steps: steps)
            ).withoutSensorErrors)
        let rate = 1000.0
        var attitude = Quaternion.identity
        for index in 0..<4000 {
            let sample = device.sample(index: index, sampleRate: rate)
            // The rate is constant over [tₙ, tₙ₊₁) because step boundaries fall on sample times.
            attitude = attitude * Quaternion(rotationVector: sample.rotationRate! / rate)
            if index % 250 == 249 {
                #expect(attitude.angle(to: device.groundTruth(at: Double(index + 1) / rate).attitude) < 1e-9)
            }
        }
        // By hand: x ends pointing north and z down (face down, x north), so y points east.
        #expect(maxDifference(attitude.rotate(SIMD3(1, 0, 0)), SIMD3(0, 1, 0)) < 1e-9)
        #expect(maxDifference(attitude.rotate(SIMD3(0, 0, 1)), SIMD3(0, 0, -1)) < 1e-9)
        // Resting there: gravity on −z, the field 19.5 µT along x (north) and 44.5 µT along +z (down).
        let resting = device.sample(index: 4000, sampleRate: rate)
        #expect(maxDifference(resting.acceleration!, SIMD3(0, 0, -9.81)) < 1e-9)
        #expect(maxDifference(resting.magneticField!, SIMD3(19.5, 0, 44.5)) < 1e-9)
        #expect(resting.rotationRate! == SIMD3(repeating: 0))
    }

    @Test func specificForceDuringTranslationIsRotatedAccelerationPlusGravity() {
        let device = SimulatedIMU(configuration: SimulatedIMU.Configuration(motion: .demo).withoutSensorErrors)
        let h = 1e-3
        var largestAcceleration = 0.0
        for index in stride(from: 0, to: 2000, by: 53) {
            let time = Double(index) / 200
            let truth = device.groundTruth(at: time)
            // Acceleration and velocity are the derivatives of the position (central differences).
            let before = device.groundTruth(at: time - h), after = device.groundTruth(at: time + h)
            let secondDifference = (after.position - 2 * truth.position + before.position) / (h * h)
            #expect(maxDifference(truth.linearAcceleration, secondDifference) < 1e-5)
            #expect(maxDifference(truth.velocity, (after.position - before.position) / (2 * h)) < 1e-5)
            // f = Rᵀ (a + g ẑ) and m = Rᵀ B, R from the textbook quaternion matrix.
            let rows = rotationMatrix(truth.attitude)
            let expectedForce = transposeTimes(rows, truth.linearAcceleration + SIMD3(0, 0, 9.81))
            let sample = device.sample(index: index, sampleRate: 200)
            #expect(maxDifference(sample.acceleration!, expectedForce) < 1e-12)
            #expect(maxDifference(truth.specificForce, expectedForce) < 1e-12)
            #expect(maxDifference(sample.magneticField!, transposeTimes(rows, SIMD3(0, 19.5, -44.5))) < 1e-12)
            largestAcceleration = max(largestAcceleration, length(truth.linearAcceleration))
        }
        // The demo really translates.
        #expect(largestAcceleration > 0.1)
    }

    @Test func sameSeedGivesTheSameNoiseAndAnotherSeedDifferentNoise() {
        let first = SimulatedIMU(configuration: .init(seed: 7)).samples(count: 50)
        let again = SimulatedIMU(configuration: .init(seed: 7)).samples(count: 50)
        let other = SimulatedIMU(configuration: .init(seed: 8)).samples(count: 50)
        #expect(first == again)
        #expect(zip(first, other).allSatisfy { $0.acceleration != $1.acceleration })
        // Same trajectory, so the seeds differ only by noise: within a few standard deviations.
        #expect(zip(first, other).allSatisfy { maxDifference($0.acceleration!, $1.acceleration!) < 0.2 })
        // A sample does not depend on which were generated before it.
        let device = SimulatedIMU(configuration: .init(seed: 7))
        #expect(device.sample(index: 37, sampleRate: 200) == first[37])
    }

    @Test func noiseHasTheConfiguredStandardDeviations() {
        let device = SimulatedIMU(configuration: .init(motion: .stationary(attitude: .identity), seed: 3))
        let samples = device.samples(count: 4000)
        let truth = device.groundTruth(at: 0)
        func deviation(_ values: [SIMD3<Double>], around centre: SIMD3<Double>) -> Double {
            (values.map { ($0 - centre) * ($0 - centre) }.reduce(SIMD3(repeating: 0), +).sum()
                / Double(3 * values.count)).squareRoot()
        }
        // 12 000 values each: the sample deviation is within ~1.3 % (1σ) of the true one; allow 5 %.
        let accelerometer = deviation(samples.map { $0.acceleration! }, around: truth.specificForce)
        let gyroscope = deviation(
            samples.map { $0.rotationRate! }, around: truth.angularVelocity + device.configuration.gyroscopeBias)
        let magnetometer = deviation(samples.map { $0.magneticField! }, around: truth.magneticField)
        #expect(abs(accelerometer / 0.02 - 1) < 0.05)
        #expect(abs(gyroscope / 0.002 - 1) < 0.05)
        #expect(abs(magnetometer / 0.1 - 1) < 0.05)
    }
}
