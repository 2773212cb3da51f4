import Foundation
import MotionFusion
import MotionMath
import Testing

/// The fusion issue's requirements on bias, drift and magnetic disturbances, against synthetic physics.
@Suite("AttitudeFilter robustness")
struct AttitudeFilterRobustnessTests {
    private let noise = (gyroscope: 0.002, accelerometer: 0.03, magnetometer: 0.3)
    private let bias = SIMD3<Double>(0.012, -0.018, 0.009)  // rad/s, about 1 °/s per axis

    @Test("the gyroscope bias is within 0.1 °/s after 10 s at rest, in any pose, 6- and 9-axis",
          arguments: [false, true])
    func biasAtRest(useMagnetometer: Bool) {
        let poses = [
            Quaternion.identity, Quaternion(axis: SIMD3(1, 0, 0), angle: 2.5),
            Quaternion(axis: SIMD3(0.3, -1, 0.4), angle: 1.2),
        ]
        for (index, pose) in poses.enumerated() {
            let motion = SyntheticMotion(
                initialAttitude: pose, gyroscopeBias: bias, gyroscopeNoise: noise.gyroscope,
                accelerometerNoise: noise.accelerometer, magnetometerNoise: noise.magnetometer)
            var filter = AttitudeFilter(settings: .init(useMagnetometer: useMagnetometer))
            motion.run(&filter, duration: 10, seed: UInt64(40 + index))
            let error = (filter.gyroscopeBias - bias).length * 180 / .pi
            #expect(error < 0.1, "pose \(index): bias error \(error) °/s")
            #expect(filter.isAtRest)
        }
    }

    @Test("6-axis: the yaw drift at rest is the residual bias about the vertical, integrated")
    func sixAxisDriftMatchesTheBiasResidual() {
        // Face up, so the vertical is the device z axis.
        let motion = SyntheticMotion(
            initialAttitude: .identity, gyroscopeBias: bias, gyroscopeNoise: noise.gyroscope,
            accelerometerNoise: noise.accelerometer)
        var filter = AttitudeFilter()
        var predictedDrift = 0.0  // rad: ∫ (true − estimated bias)·ẑ dt
        var yawAtStart = 0.0
        let start = 5.0
        motion.run(&filter, duration: 30, useMagnetometerReadings: false) { time, _, filter in
            if abs(time - start) < 1e-9 { yawAtStart = Self.yaw(filter.attitude) }
            if time > start + 1e-9 { predictedDrift += (bias.z - filter.gyroscopeBias.z) * 0.01 }
        }
        let drift = Self.yaw(filter.attitude) - yawAtStart
        // Noise adds a random walk of about 0.002 rad/s · √(0.01 s · 25 s) ≈ 0.001 rad.
        #expect(abs(drift - predictedDrift) < 0.003, "drift \(drift) rad, predicted \(predictedDrift) rad")
        #expect(abs(predictedDrift) < 0.02)  // the residual is small once the bias is measured
    }

    @Test("a 20 s magnetic disturbance changes the 9-axis heading by less than 3°, and is detected",
          arguments: [SIMD3<Double>(25, 15, 5), SIMD3(-10, 30, -20), SIMD3(0, 0, 40)])
    func magneticDisturbanceIsRejected(disturbance: SIMD3<Double>) {
        // Turning slowly the whole time (about 0.1 rad/s), with the gyroscope bias already measured (a
        // residual of 0.03 °/s, as after a rest): during the disturbance only the gyroscope holds the heading.
        let motion = SyntheticMotion(
            initialAttitude: Quaternion(axis: SIMD3(1, 0, 0), angle: 0.3), bodyRate: SIMD3(0, 0.03, 0.1),
            gyroscopeBias: SIMD3(0.0003, -0.0003, 0.0005),
            magneticDisturbance: { time in (30..<50).contains(time) ? disturbance : .zero },
            gyroscopeNoise: noise.gyroscope, accelerometerNoise: noise.accelerometer,
            magnetometerNoise: noise.magnetometer)
        var filter = AttitudeFilter(settings: .init(useMagnetometer: true))
        var before = Double.nan
        var worst = 0.0
        var detected = false
        motion.run(&filter, duration: 80, seed: 9) { time, truth, filter in
            let error = headingError(filter.attitude, truth)
            if time < 30 { before = error; return }
            worst = max(worst, abs(error - before))
            if (31..<49).contains(time) { detected = detected || filter.isMagneticallyDisturbed }
        }
        #expect(abs(before) < 2, "heading error before the disturbance \(before)°")
        #expect(detected)
        #expect(worst < 3, "the disturbance of \(disturbance) µT moved the heading by up to \(worst)°")
    }

    @Test("started while being shaken (the first reading 25° off), the attitude converges from any pose",
          arguments: [false, true])
    func convergesFromAWrongStart(useMagnetometer: Bool) {
        let poses = [
            Quaternion.identity, Quaternion(axis: SIMD3(1, 0, 0), angle: 2.8),
            Quaternion(axis: SIMD3(0.5, 1, -0.3), angle: 1.7), Quaternion(axis: SIMD3(0, 1, 0), angle: -1.2),
        ]
        for (index, pose) in poses.enumerated() {
            // For the first 0.3 s the device is pushed sideways at 4.6 m/s² (the specific force leans 25°).
            // The gyroscope is unbiased here: an unmeasured bias of 1 °/s would add its own lag (about
            // bias × 3 s of tilt until it is estimated), which the bias tests cover.
            let motion = SyntheticMotion(
                initialAttitude: pose, bodyRate: SIMD3(0.05, -0.1, 0.2),
                linearAcceleration: { time in time < 0.3 ? SIMD3(4.6, 0, 0) : .zero },
                gyroscopeNoise: noise.gyroscope, accelerometerNoise: noise.accelerometer,
                magnetometerNoise: noise.magnetometer)
            var filter = AttitudeFilter(settings: .init(useMagnetometer: useMagnetometer))
            var initial = Double.nan, after15 = Double.nan
            motion.run(&filter, duration: 45, seed: UInt64(60 + index)) { time, truth, filter in
                if time == 0 { initial = inclinationError(filter.attitude, truth) }
                if abs(time - 15) < 1e-9 { after15 = inclinationError(filter.attitude, truth) }
            }
            #expect(initial > 20, "pose \(index): the start is wrong by \(initial)°")
            #expect(after15 < 1, "pose \(index): inclination error \(after15)° after 15 s")
            if useMagnetometer {
                // The heading, taken at the start through the wrong tilt, converges with its 15 s time constant.
                let heading = abs(headingError(filter.attitude, motion.attitude(at: 45)))
                #expect(heading < 2, "pose \(index): heading error \(heading)° after 45 s")
            }
        }
    }

    private static func yaw(_ attitude: Quaternion) -> Double {
        let x = attitude.rotate(SIMD3(1, 0, 0))
        return atan2(x.y, x.x)
    }
}

/// The gyroscope's scale factors, learnt while the device turns.
@Suite("AttitudeFilter gyroscope scale") struct AttitudeFilterGyroscopeScaleTests {
    /// Turns about a different axis every 8 s (rates of 2.5–3.5 rad/s, axes tilted so that each device axis
    /// spends time horizontal), `cycles` times, each segment continuing the attitude of the last.
    static func turn(
        _ filter: inout AttitudeFilter, gyroscopeScale: SIMD3<Double>, cycles: Int,
        check: (Double, Quaternion, AttitudeFilter) -> Void = { _, _, _ in }
    ) {
        let rates: [SIMD3<Double>] = [
            SIMD3(3, 0.5, 0), SIMD3(0, 3, -0.6), SIMD3(0.5, 0, 3), SIMD3(-2, 2, 1), SIMD3(1.5, -1, -2.5),
        ]
        var attitude = Quaternion(axis: SIMD3(1, 1, 0), angle: 1)
        var time = 0.0
        for cycle in 0..<cycles {
            for (index, rate) in rates.enumerated() {
                let motion = SyntheticMotion(
                    initialAttitude: attitude * Quaternion(rotationVector: -rate * time), bodyRate: rate,
                    gyroscopeScale: gyroscopeScale, gyroscopeNoise: 0.005, accelerometerNoise: 0.05)
                motion.run(&filter, from: time, duration: 8, seed: UInt64(cycle * 10 + index + 1), check: check)
                time += 8.01
                attitude = motion.attitude(at: time)
            }
        }
    }

    @Test("a gyroscope 1–1.5 % off on each axis is learnt to 0.2 % while turning, and tilts the attitude less")
    func learnsAScaleErrorWhileTurning() {
        let scale = SIMD3(1.015, 0.985, 1.01)
        var filter = AttitudeFilter()
        var worstLate = 0.0
        Self.turn(&filter, gyroscopeScale: scale, cycles: 4) { time, truth, filter in
            if time > 120 { worstLate = max(worstLate, inclinationError(filter.attitude, truth)) }
        }
        // The estimate multiplies the reading: it converges to the reciprocal of the sensitivity error.
        let expected = 1 / scale
        let error = filter.gyroscopeScale - expected
        #expect(max(abs(error.x), abs(error.y), abs(error.z)) < 0.002, "estimate \(filter.gyroscopeScale), expected \(expected)")

        var withoutEstimate = AttitudeFilter(settings: .init(gyroscopeScaleTimeConstant: 0))
        var worstLateWithout = 0.0
        Self.turn(&withoutEstimate, gyroscopeScale: scale, cycles: 4) { time, truth, filter in
            if time > 120 { worstLateWithout = max(worstLateWithout, inclinationError(filter.attitude, truth)) }
        }
        #expect(withoutEstimate.gyroscopeScale == SIMD3(repeating: 1))
        #expect(worstLate < worstLateWithout / 2, "worst inclination \(worstLate)° with, \(worstLateWithout)° without")
    }

    @Test("9-axis: a 1 % scale error of the axis along the vertical is learnt from the heading while turning about it")
    func learnsTheVerticalAxisScaleFromTheHeading() {
        // Face up, turning about the vertical at 30 °/s: the accelerometer sees nothing of a z scale error,
        // and without the estimate the heading lags by 1 % × 30 °/s × 15 s ≈ 4.5°.
        let motion = SyntheticMotion(
            initialAttitude: .identity, bodyRate: SIMD3(0, 0, radians(30)), gyroscopeScale: SIMD3(1, 1, 1.01),
            gyroscopeNoise: 0.002, accelerometerNoise: 0.02, magnetometerNoise: 0.3)
        var lastHeading = (with: 0.0, without: 0.0)
        var filter = AttitudeFilter(settings: .init(useMagnetometer: true))
        motion.run(&filter, duration: 240) { _, truth, filter in lastHeading.with = headingError(filter.attitude, truth) }
        var without = AttitudeFilter(settings: .init(useMagnetometer: true, gyroscopeScaleTimeConstant: 0))
        motion.run(&without, duration: 240) { _, truth, filter in lastHeading.without = headingError(filter.attitude, truth) }
        #expect(abs(filter.gyroscopeScale.z - 1 / 1.01) < 0.001, "scale \(filter.gyroscopeScale)")
        #expect(abs(filter.gyroscopeScale.x - 1) < 0.001 && abs(filter.gyroscopeScale.y - 1) < 0.001, "scale \(filter.gyroscopeScale)")
        #expect(abs(lastHeading.with) < 0.5 && abs(lastHeading.without) > 3, "heading off by \(lastHeading)°")
    }

    @Test("an exact gyroscope keeps scale factors of 1, and they stay 1 at rest and while turning slowly")
    func anExactGyroscopeStaysAtOne() {
        var filter = AttitudeFilter()
        Self.turn(&filter, gyroscopeScale: SIMD3(repeating: 1), cycles: 2)
        let error = filter.gyroscopeScale - SIMD3(repeating: 1)
        #expect(max(abs(error.x), abs(error.y), abs(error.z)) < 0.003, "estimate \(filter.gyroscopeScale)")

        var slow = AttitudeFilter()
        let motion = SyntheticMotion(
            initialAttitude: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.7), bodyRate: SIMD3(0.1, -0.05, 0.08),
            gyroscopeScale: SIMD3(1.02, 1.02, 1.02), gyroscopeNoise: 0.005, accelerometerNoise: 0.05)
        motion.run(&slow, duration: 60)
        let drift = slow.gyroscopeScale - SIMD3(repeating: 1)
        #expect(max(abs(drift.x), abs(drift.y), abs(drift.z)) < 0.001, "slow turning taught \(slow.gyroscopeScale)")
    }
}
