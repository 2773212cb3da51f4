import Foundation
import Testing
import MotionFusion
import MotionMath

/// Poses the device holds at rest: device → NWU reference.
private let restingPoses: [Quaternion] = [
    .identity,
    Quaternion(axis: SIMD3(1, 0, 0), angle: radians(30)),
    Quaternion(axis: SIMD3(0, 1, 0), angle: radians(-60)),
    Quaternion(axis: SIMD3(1, 0, 0), angle: radians(90)),  // on its side
    Quaternion(axis: SIMD3(1, 0, 0), angle: radians(170)),  // nearly face down
    Quaternion(axis: SIMD3(0, 0, 1), angle: radians(135)) * Quaternion(axis: SIMD3(1, 1, 0), angle: radians(40)),
    Quaternion(axis: SIMD3(1, 2, -0.5), angle: 2.2),
]

private let realisticNoise = (gyroscope: 0.002, accelerometer: 0.03, magnetometer: 0.3)

private func nineAxis() -> AttitudeFilter {
    AttitudeFilter(settings: .init(useMagnetometer: true))
}

@Suite("AttitudeFilter")
struct AttitudeFilterTests {
    @Test("initialises from the first sample and holds the true inclination within 1° after 2 s at rest",
          arguments: [false, true])
    func inclinationConvergesAtRest(useMagnetometer: Bool) {
        for (index, pose) in restingPoses.enumerated() {
            let motion = SyntheticMotion(
                initialAttitude: pose,
                gyroscopeNoise: realisticNoise.gyroscope,
                accelerometerNoise: realisticNoise.accelerometer,
                magnetometerNoise: realisticNoise.magnetometer
            )
            var filter = AttitudeFilter(settings: .init(useMagnetometer: useMagnetometer))
            var firstError = Double.nan
            motion.run(&filter, duration: 2, seed: UInt64(index + 1)) { time, truth, filter in
                if time == 0 {
                    #expect(filter.isInitialized)
                    firstError = inclinationError(filter.attitude, truth)
                }
            }
            // The first sample alone is already close (only its noise, ≈ 0.2°, separates it from truth).
            #expect(firstError < 1, "pose \(index): first-sample inclination error \(firstError)°")
            let error = inclinationError(filter.attitude, motion.attitude(at: 2))
            #expect(error < 1, "pose \(index): inclination error \(error)° after 2 s")
            if useMagnetometer {
                let heading = headingError(filter.attitude, motion.attitude(at: 2))
                #expect(abs(heading) < 2, "pose \(index): heading error \(heading)° after 2 s")
            }
        }
    }

    @Test("9-axis heading is within 2° of magnetic north at rest and during/after 10 s of constant rotation")
    func nineAxisHeadingDuringRotation() {
        let rotations: [SIMD3<Double>] = [SIMD3(0, 0, 0.6), SIMD3(0.3, -0.4, 0.5), SIMD3(-0.8, 0.2, 0.1)]
        for (index, bodyRate) in rotations.enumerated() {
            let motion = SyntheticMotion(
                initialAttitude: restingPoses[index + 1],
                bodyRate: .zero,
                gyroscopeNoise: realisticNoise.gyroscope,
                accelerometerNoise: realisticNoise.accelerometer,
                magnetometerNoise: realisticNoise.magnetometer
            )
            var filter = nineAxis()
            motion.run(&filter, duration: 3, seed: 5)
            #expect(abs(headingError(filter.attitude, motion.attitude(at: 3))) < 2)

            // Then turn at a constant rate for 10 s from the resting pose.
            var turning = motion
            turning.initialAttitude = motion.attitude(at: 3)
            turning.bodyRate = bodyRate
            var worstHeading = 0.0, worstTotal = 0.0, farthest = 0.0
            turning.run(&filter, from: 0.01, duration: 10, seed: 6) { _, truth, filter in
                farthest = max(farthest, degrees(truth.angle(to: turning.initialAttitude)))
                worstHeading = max(worstHeading, abs(headingError(filter.attitude, truth)))
                worstTotal = max(worstTotal, degrees(filter.attitude.angle(to: truth)))
            }
            let truthAtEnd = turning.attitude(at: 10.01)
            #expect(farthest > 90, "rotation \(index) turned only \(farthest)° away")
            #expect(abs(headingError(filter.attitude, truthAtEnd)) < 2, "rotation \(index)")
            #expect(worstHeading < 2, "rotation \(index): worst heading error \(worstHeading)°")
            #expect(worstTotal < 2, "rotation \(index): worst total error \(worstTotal)°")
        }
    }

    @Test("9-axis: a gyroscope bias of (0.01, −0.02, 0.015) rad/s is estimated within 0.003 rad/s after 30 s at rest")
    func nineAxisBiasEstimation() {
        let bias = SIMD3<Double>(0.01, -0.02, 0.015)
        for (index, pose) in restingPoses.enumerated() {
            let motion = SyntheticMotion(
                initialAttitude: pose,
                gyroscopeBias: bias,
                gyroscopeNoise: realisticNoise.gyroscope,
                accelerometerNoise: realisticNoise.accelerometer,
                magnetometerNoise: realisticNoise.magnetometer
            )
            var filter = nineAxis()
            motion.run(&filter, duration: 30, seed: UInt64(20 + index))
            let biasError = (filter.gyroscopeBias - bias).length
            #expect(biasError < 0.003, "pose \(index): bias \(filter.gyroscopeBias), error \(biasError) rad/s")
            #expect(filter.rotationRate.length < 0.003 + 4 * realisticNoise.gyroscope)
            let truth = motion.attitude(at: 30)
            #expect(degrees(filter.attitude.angle(to: truth)) < 1, "pose \(index)")
        }
    }

    @Test("6-axis: with the bias estimated, yaw drift stays small while tumbling (and is large without it)")
    func sixAxisYawDrift() {
        let bias = SIMD3<Double>(0.01, -0.02, 0.015)
        // Turning about a body axis 60° from the vertical sweeps "up" through the device frame, which
        // makes every bias component observable from the accelerometer alone.
        let pose = Quaternion(axis: SIMD3(1, 0, 0), angle: radians(60))
        let motion = SyntheticMotion(
            initialAttitude: pose,
            bodyRate: SIMD3(0, 0, 0.3),
            gyroscopeBias: bias,
            gyroscopeNoise: realisticNoise.gyroscope,
            accelerometerNoise: realisticNoise.accelerometer
        )

        func yawDrift(estimatesBias: Bool) -> (drift: Double, filter: AttitudeFilter) {
            var filter = AttitudeFilter(settings: .init(estimatesGyroscopeBias: estimatesBias))
            var headingAt40 = 0.0
            var offset = Quaternion.identity  // fixes the arbitrary x axis chosen at the first sample
            motion.run(&filter, duration: 60, useMagnetometerReadings: false) { time, truth, filter in
                if time == 0 { offset = filter.attitude * truth.conjugate }
                if abs(time - 40) < 1e-9 { headingAt40 = headingError(filter.attitude, offset * truth) }
            }
            let headingAt60 = headingError(filter.attitude, offset * motion.attitude(at: 60))
            return (abs(headingAt60 - headingAt40), filter)
        }

        let estimated = yawDrift(estimatesBias: true)
        #expect(estimated.drift < 1, "yaw drift over 40…60 s with bias estimation: \(estimated.drift)°")
        #expect((estimated.filter.gyroscopeBias - bias).length < 0.003, "bias \(estimated.filter.gyroscopeBias)")
        let unestimated = yawDrift(estimatesBias: false)
        #expect(unestimated.drift > 5, "yaw drift over 40…60 s without bias estimation: \(unestimated.drift)°")
    }

    @Test("6-axis: the first sample fixes yaw so that the device x axis points along reference x")
    func sixAxisInitialYaw() {
        for pose in restingPoses {
            var filter = AttitudeFilter()
            let up = pose.conjugate.rotate(SIMD3(0, 0, SyntheticMotion.gravity))
            filter.update(gyroscope: .zero, accelerometer: up, magnetometer: nil, deltaTime: 0)
            let deviceX = filter.attitude.rotate(SIMD3(1, 0, 0))
            #expect(abs(deviceX.y) < 1e-12 && deviceX.x > 0)
            #expect(inclinationError(filter.attitude, pose) < 1e-9)
        }
    }

    @Test("at rest face up: gravity = (0, 0, −9.81) m/s² and user acceleration ≈ 0")
    func gravityAndUserAccelerationAtRest() {
        let motion = SyntheticMotion(initialAttitude: .identity)
        var filter = AttitudeFilter()
        motion.run(&filter, duration: 1)
        #expect((filter.gravity - SIMD3(0, 0, -9.81)).length < 1e-9)
        #expect(filter.userAcceleration.length < 1e-9)
        #expect(filter.rotationRate == .zero)

        // Tilted: gravity keeps its magnitude and points along the true "down".
        let tilted = SyntheticMotion(initialAttitude: restingPoses[6], accelerometerNoise: 0.03)
        var tiltedFilter = AttitudeFilter()
        tilted.run(&tiltedFilter, duration: 3)
        let trueGravity = restingPoses[6].conjugate.rotate(SIMD3(0, 0, -9.81))
        #expect((tiltedFilter.gravity - trueGravity).length < 0.05)
        #expect(abs(tiltedFilter.gravity.length - 9.81) < 1e-9)
        #expect(tiltedFilter.userAcceleration.length < 0.2)
    }

    @Test("a linear acceleration along x while level shows up in userAcceleration and fades only slowly")
    func linearAccelerationShowsInUserAcceleration() {
        // No filter can tell a sustained acceleration from a tilt for ever: the specific force, low-passed
        // in the gyroscope's frame (τ = 3 s), slowly leans the estimated "up" towards f = (a, 0, g). A push
        // of a few seconds is therefore seen almost whole at first and still mostly after 2 s.
        let push = 1.5, start = 3.0
        let motion = SyntheticMotion(
            initialAttitude: .identity,
            linearAcceleration: { time in time >= start ? SIMD3(push, 0, 0) : .zero }
        )
        var filter = AttitudeFilter()
        var previous = Double.infinity
        var checked = 0
        motion.run(&filter, duration: start + 2) { time, _, filter in
            guard time >= start - 1e-9 else { return }
            let seen = filter.userAcceleration.x
            if time - start <= 0.2 + 1e-9 { #expect(abs(seen - push) < 0.05, "t = \(time): \(seen)") }
            #expect(seen <= previous + 1e-9, "t = \(time): fading, \(seen) after \(previous)")
            #expect(abs(filter.userAcceleration.y) < 1e-9 && abs(filter.userAcceleration.z) < 0.15)
            previous = seen
            checked += 1
        }
        #expect(checked == 201)
        #expect((0.5 * push...0.95 * push).contains(previous), "after 2 s: \(previous) m/s²")
    }

    @Test("a burst of bogus accelerometer readings (3 g) barely tilts the attitude; gyroscope integration carries on")
    func bogusAccelerometerIsRejected() {
        let pose = restingPoses[2]
        let motion = SyntheticMotion(initialAttitude: pose, bodyRate: SIMD3(0, 0, 0.2))
        var filter = AttitudeFilter()
        motion.run(&filter, duration: 3)
        let bogus = SIMD3<Double>(3, 5, -7).normalized * (3 * 9.81)
        var time = 3.0
        for _ in 0..<10 {  // 0.1 s
            time += 0.01
            filter.update(gyroscope: motion.bodyRate, accelerometer: bogus, magnetometer: nil, deltaTime: 0.01)
        }
        let truth = motion.attitude(at: time)
        #expect(inclinationError(filter.attitude, truth) < 1, "\(inclinationError(filter.attitude, truth))°")
        #expect(abs(filter.userAcceleration.length - (bogus + filter.gravity).length) < 1e-9)
        #expect(filter.userAcceleration.length > 9.81)

        // The same reading on the first update does not initialise the filter (only a reading near 1 g
        // shows "up" on its own), nor does a non-finite one.
        var fresh = AttitudeFilter()
        fresh.update(gyroscope: .zero, accelerometer: bogus, magnetometer: nil, deltaTime: 0)
        #expect(!fresh.isInitialized)
        fresh.update(gyroscope: .zero, accelerometer: SIMD3(.nan, 0, 9.81), magnetometer: nil, deltaTime: 0.01)
        #expect(!fresh.isInitialized)
    }

    @Test("a distorted field is rejected while the device is still, adopted once it proved steady as the device turned; it never tilts the attitude")
    func magnetometerAffectsHeadingOnly() {
        let pose = restingPoses[5]
        let motion = SyntheticMotion(initialAttitude: pose)
        var filter = nineAxis()
        // Long enough for the filter to trust its inclination, and so the field's dip (about 13 s).
        motion.run(&filter, duration: 20)
        // A field 25° off in heading and with a much steeper inclination (a local disturbance), fixed in the
        // room: for 30 s with the device still, then for 100 s while it turns about the vertical at 0.1 rad/s.
        let disturbedField = Quaternion(axis: SIMD3(0, 0, 1), angle: radians(25))
            .rotate(SIMD3(19.5, 0, -80))
        let turnRate = 0.1
        for step in 1...13000 {
            let time = Double(step) * 0.01
            let turned = time > 30 ? turnRate * (time - 30) : 0
            let truth = Quaternion(axis: SIMD3(0, 0, 1), angle: turned) * pose
            filter.update(
                gyroscope: time > 30 ? truth.conjugate.rotate(SIMD3(0, 0, turnRate)) : .zero,
                accelerometer: truth.conjugate.rotate(SIMD3(0, 0, 9.81)),
                magnetometer: truth.conjugate.rotate(disturbedField),
                deltaTime: 0.01
            )
            #expect(inclinationError(filter.attitude, truth) < 0.01)
            if step == 2900 {
                // Still, the field's norm and dip differ from the reference and nothing shows that it is the
                // room's rather than a magnet's on the device: rejected, the heading holds.
                #expect(filter.isMagneticallyDisturbed)
                #expect(abs(headingError(filter.attitude, truth)) < 0.5)
            }
            if step == 13000 {
                // Steady in the room for 20 s while the device turned, the new field became the reference; the
                // heading then followed its horizontal direction: north appears 25° to the left.
                #expect(!filter.isMagneticallyDisturbed)
                #expect(abs(headingError(filter.attitude, truth) - -25) < 0.5)
            }
        }
    }

    @Test("zero and NaN magnetometer readings are ignored; a later first reading references the heading")
    func magnetometerValidation() {
        let pose = restingPoses[6]
        let accelerometer = pose.conjugate.rotate(SIMD3(0, 0, 9.81))
        let field = pose.conjugate.rotate(SyntheticMotion.magneticField)
        var filter = nineAxis()
        filter.update(gyroscope: .zero, accelerometer: accelerometer, magnetometer: .zero, deltaTime: 0)
        #expect(filter.isInitialized && !filter.isHeadingReferenced)
        let unreferenced = filter.attitude
        filter.update(gyroscope: .zero, accelerometer: accelerometer, magnetometer: SIMD3(.nan, 1, 2), deltaTime: 0.01)
        filter.update(gyroscope: .zero, accelerometer: accelerometer, magnetometer: .zero, deltaTime: 0.01)
        #expect(!filter.isHeadingReferenced && !filter.magnetometerUsed)
        #expect(filter.attitude.angle(to: unreferenced) < 1e-9)
        filter.update(gyroscope: .zero, accelerometer: accelerometer, magnetometer: field, deltaTime: 0.01)
        #expect(filter.isHeadingReferenced && filter.magnetometerUsed)
        #expect(degrees(filter.attitude.angle(to: pose)) < 1e-6)

        // Without useMagnetometer the field is never used.
        var sixAxis = AttitudeFilter()
        sixAxis.update(gyroscope: .zero, accelerometer: accelerometer, magnetometer: field, deltaTime: 0)
        #expect(!sixAxis.isHeadingReferenced && !sixAxis.magnetometerUsed)
    }

    @Test("deltaTime ≤ 0 or NaN integrates nothing; an absurd deltaTime is clamped")
    func deltaTimeGuards() {
        var filter = AttitudeFilter()
        filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil, deltaTime: 0)
        let spin = SIMD3<Double>(0, 0, 1)
        for deltaTime in [0, -0.5, Double.nan, -Double.infinity] {
            filter.update(gyroscope: spin, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil, deltaTime: deltaTime)
            #expect(filter.attitude.angle(to: .identity) < 1e-12)
            #expect(filter.rotationRate == spin)
        }
        filter.update(gyroscope: spin, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil, deltaTime: 3600)
        // Clamped to maximumDeltaTime (0.5 s) at 1 rad/s about z.
        #expect(abs(filter.attitude.angle(to: .identity) - 0.5) < 1e-9)
        #expect(filter.attitude.rotationAngle.isFinite)
    }
}
