import MotionMath

// The gyroscope's bias and scale estimators: at rest from the low-passed rate, in motion from the
// inclination corrections (what the residual errors integrated into the attitude).
extension AttitudeFilter {
    /// Sums the corrections and rates of ``estimatorDecimation`` samples, then runs the bias and scale
    /// estimators once on the sums: they follow the corrections over seconds, so a step every few samples
    /// learns the same for a quarter of the work.
    mutating func collectForEstimators(correction: Quaternion, deltaTime: Double) {
        let estimatesMotionBias = settings.estimatesGyroscopeBias && settings.motionBiasTimeConstant > 0
        let estimatesScale = settings.gyroscopeScaleTimeConstant > 0
        guard estimatesMotionBias || estimatesScale else { return }
        // The correction's rotation vector, rad, in the earth frame: 2·v/w for the tiny angles of one sample
        // (larger ones are transients, which the estimators skip anyway).
        if correction.w > 0.5 {
            pending.correction += SIMD3(correction.x, correction.y, 0) * (2 / correction.w)
        } else {
            pending.correction += SIMD3(repeating: .infinity)  // a turn of over 120° in one step: no estimate
        }
        pending.rotation += rotationRate * deltaTime
        pending.duration += deltaTime
        pending.count += 1
        guard pending.count == Self.estimatorDecimation else { return }
        defer { pending = (.zero, .zero, 0, 0) }
        let duration = pending.duration
        let meanRate = pending.rotation / duration
        let matrix = gyroscopeAttitude.rotationMatrix
        if estimatesMotionBias {
            orientationLowPass.x.update(matrix.column0, deltaTime: duration)
            orientationLowPass.y.update(matrix.column1, deltaTime: duration)
            orientationLowPass.z.update(matrix.column2, deltaTime: duration)
        }
        if estimatesScale {
            scaleRegressors.x.update(matrix.column0 * meanRate.x, deltaTime: duration)
            scaleRegressors.y.update(matrix.column1 * meanRate.y, deltaTime: duration)
            scaleRegressors.z.update(matrix.column2 * meanRate.z, deltaTime: duration)
        }
        guard !restDetector.isAtRest, pending.correction.isFinite else { return }
        // Earth → almost inertial frame (the inclination correction is a rotation about a horizontal axis).
        let rotationInInertial = inclinationCorrection.conjugate.rotate(pending.correction)
        if estimatesMotionBias { estimateBiasInMotion(rotationInInertial, rotationInEarth: pending.correction, meanRate: meanRate, duration: duration) }
        if estimatesScale { estimateScale(rotationInInertial, meanRate: meanRate, duration: duration) }
    }

    /// In motion, the inclination corrections are what the residual bias integrated into the attitude:
    /// taken into the device frame, their mean rate is minus the bias error about the axes that are
    /// horizontal (only those are observable; a device that turns makes every axis horizontal in turn).
    /// Only while turning slower than ``Settings/motionBiasMaximumRate``: faster, scale-factor errors and
    /// the low-pass lag dominate the corrections.
    /// - Parameters:
    ///   - rotationInInertial: the corrections' rotation vector over `duration`, rad, almost inertial frame.
    ///   - rotationInEarth: the same in the earth frame.
    ///   - meanRate: the mean rotation rate over `duration`, rad/s, device frame.
    ///   - duration: s.
    mutating func estimateBiasInMotion(
        _ rotationInInertial: SIMD3<Double>, rotationInEarth: SIMD3<Double>, meanRate: SIMD3<Double>, duration: Double
    ) {
        let maximumRate = settings.motionBiasMaximumRate
        guard meanRate.lengthSquared < maximumRate * maximumRate else { return }
        // A correction faster than any bias the filter accepts is a transient (a wrong start, a long
        // acceleration), not a bias: learning from it would spoil the estimate.
        let largest = settings.maximumGyroscopeBias * duration
        guard rotationInEarth.lengthSquared < largest * largest else { return }
        // Through the low-passed (transposed) device → inertial matrix into the device frame.
        let rotationInDevice = SIMD3(
            orientationLowPass.x.value.dot(rotationInInertial), orientationLowPass.y.value.dot(rotationInInertial),
            orientationLowPass.z.value.dot(rotationInInertial))
        applyBiasCorrection(rotationInDevice / settings.motionBiasTimeConstant)
    }

    /// While the device turns, a scale error `δ` of axis `i` adds `δ·ωᵢ` about that axis to the integrated
    /// attitude; the corrections (their rate, taken into the almost inertial frame) then follow the
    /// low-passed regressor `hᵢ = LP(column i · ωᵢ)` times `δ`. Each factor takes a normalised
    /// least-mean-squares step along its regressor (`hᵢ·c / (|hᵢ|² + ε)`, ε = (0.5 rad/s)² so that slow
    /// turning, which shows no scale error, teaches nothing). Corrections faster than a scale error of
    /// ``Settings/maximumGyroscopeScaleError`` plus the largest bias could cause are transients and skipped.
    /// - Parameters:
    ///   - rotationInInertial: the corrections' rotation vector over `duration`, rad, almost inertial frame.
    ///   - meanRate: the mean rotation rate over `duration`, rad/s, device frame.
    ///   - duration: s.
    mutating func estimateScale(_ rotationInInertial: SIMD3<Double>, meanRate: SIMD3<Double>, duration: Double) {
        let rate = rotationInInertial / duration
        let limit = settings.maximumGyroscopeScaleError * meanRate.length + settings.maximumGyroscopeBias
        guard rate.lengthSquared < limit * limit else { return }
        let (x, y, z) = (scaleRegressors.x.value, scaleRegressors.y.value, scaleRegressors.z.value)
        let floor = 0.25
        let step = SIMD3(
            x.dot(rate) / (x.lengthSquared + floor), y.dot(rate) / (y.lengthSquared + floor),
            z.dot(rate) / (z.lengthSquared + floor))
        let scale = gyroscopeScale + step * (duration / settings.gyroscopeScaleTimeConstant)
        let low = 1 - settings.maximumGyroscopeScaleError, high = 1 + settings.maximumGyroscopeScaleError
        gyroscopeScale = SIMD3(
            min(max(scale.x, low), high), min(max(scale.y, low), high), min(max(scale.z, low), high))
    }

    mutating func applyBiasCorrection(_ change: SIMD3<Double>) {
        let limit = settings.maximumGyroscopeBias
        let bias = gyroscopeBias - change
        gyroscopeBias = SIMD3(min(max(bias.x, -limit), limit), min(max(bias.y, -limit), limit), min(max(bias.z, -limit), limit))
    }

    /// At rest the low-passed rate is the bias: the estimate follows it.
    mutating func estimateBias(gyroscope: SIMD3<Double>, force: SIMD3<Double>, deltaTime: Double) {
        guard settings.estimatesGyroscopeBias else { return }
        restDetector.update(gyroscope: gyroscope, accelerometer: force, deltaTime: deltaTime)
        guard restDetector.isAtRest else { return }
        let limit = settings.maximumGyroscopeBias
        let bias = gyroscopeBias + (restDetector.meanRate - gyroscopeBias) * gain(for: deltaTime).restBias
        gyroscopeBias = SIMD3(min(max(bias.x, -limit), limit), min(max(bias.y, -limit), limit), min(max(bias.z, -limit), limit))
    }
}
