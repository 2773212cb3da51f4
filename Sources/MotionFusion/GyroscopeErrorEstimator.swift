import MotionMath

/// The gyroscope's bias and scale estimators in motion, part of an ``AttitudeFilter``: they learn from the
/// filter's inclination corrections, which are what the residual bias and scale errors integrated into the
/// attitude, and the scale about the vertical from its heading corrections. (At rest the filter takes the
/// bias from the mean rate itself, ``RestDetector/restRate``.)
///
/// A value with no I/O and no clock, changed only through the filter that owns it.
struct GyroscopeErrorEstimator: Sendable {
    /// The columns of the device → almost-inertial rotation matrix, low-passed like the specific force: the
    /// corrections come out of that filter, so a bias error shows in them through this matrix, not the
    /// current one (which matters while the device turns).
    private var orientationLowPass: (x: ButterworthLowPass, y: ButterworthLowPass, z: ButterworthLowPass)
    /// The rotation rate about each device axis carried into the almost-inertial frame (that axis's column of
    /// the rotation matrix times its rate), low-passed like the specific force: what a scale error of that
    /// axis shows as in the corrections.
    private var scaleRegressors: (x: ButterworthLowPass, y: ButterworthLowPass, z: ButterworthLowPass)
    /// What the estimators have not seen yet: the corrections' rotation vector (earth frame, rad), the
    /// rotation (device frame, rad), their duration (s) and the number of samples.
    private var pending = (correction: SIMD3<Double>.zero, rotation: SIMD3<Double>.zero, duration: 0.0, count: 0)
    /// The rotation about the reference vertical each device axis contributed (`vᵢ·ωᵢ`, rad/s, with `v` the
    /// vertical in the device frame), low-passed with the heading correction's own gain: what a scale
    /// error of that axis shows as in the heading corrections.
    private var headingRegressor = SIMD3<Double>.zero
    /// The inclination corrections' rate, rad/s, earth frame, low-passed over ``transientTimeConstant``:
    /// what decides whether they are a transient, which teaches nothing.
    private var sustainedCorrectionRate = SIMD3<Double>.zero
    /// The time ``sustainedCorrectionRate`` has averaged over since the start, s: until it reaches
    /// ``transientTimeConstant`` it is the running mean, so a transient right after the start (a wrong
    /// first reading) shows in full at once instead of through a low-pass starting from zero.
    private var sustainedFor = 0.0
    /// The time constant of ``sustainedCorrectionRate``, s: the rest detector's low-pass, 0.5 s
    /// (``RestDetector/lowPassTimeConstant``, VQF's `restFilterTau`). A transient (a wrong start, a long acceleration) keeps its direction for seconds
    /// and passes it; the corrections of a translation swing about zero and average out in it (a 1 Hz
    /// swing to a third, faster ones further). The test is on this mean, not on each correction: skipping
    /// the corrections past a limit one by one keeps a one-sided selection of a swing's, which taught a
    /// 0.5 Hz, 7 m/s² translation a false bias of 0.009 rad/s and 1.4° of inclination error
    /// (`AttitudeFilterTranslationTests`).
    static let transientTimeConstant = RestDetector.lowPassTimeConstant
    /// Samples per step of the estimators.
    static let decimation = 4
    /// The heading corrections teach the scale of a device axis only while it lies within about 25° of the
    /// vertical (|vᵢ| above this): that axis carries the turn about the vertical, while tilted axes share
    /// it with the others, whose scales the inclination corrections already learn.
    static let verticalAxisAlignment = 0.9

    /// Estimators whose low-passes match the filter's accelerometer low-pass.
    /// - Parameter timeConstant: the filter's ``AttitudeFilterSettings/accelerometerTimeConstant``, s.
    init(timeConstant: Double) {
        orientationLowPass = (
            ButterworthLowPass(timeConstant: timeConstant), ButterworthLowPass(timeConstant: timeConstant),
            ButterworthLowPass(timeConstant: timeConstant))
        scaleRegressors = (
            ButterworthLowPass(timeConstant: timeConstant), ButterworthLowPass(timeConstant: timeConstant),
            ButterworthLowPass(timeConstant: timeConstant))
    }

    /// Starts the low-passes afresh at the filter's (new) initial attitude.
    /// - Parameter gyroscopeAttitude: device → almost inertial frame.
    mutating func reset(gyroscopeAttitude: Quaternion) {
        let matrix = gyroscopeAttitude.rotationMatrix
        orientationLowPass.x.reset(to: matrix.column0)
        orientationLowPass.y.reset(to: matrix.column1)
        orientationLowPass.z.reset(to: matrix.column2)
        scaleRegressors.x.reset(to: .zero)
        scaleRegressors.y.reset(to: .zero)
        scaleRegressors.z.reset(to: .zero)
        sustainedCorrectionRate = .zero
        sustainedFor = 0
    }

    /// The filter's state around one heading correction, what the scale estimator reads.
    struct HeadingStep {
        /// The correction just applied, rad, about the reference vertical.
        var angle: Double
        /// The correction's gain (the fraction of the heading error it removed).
        var gain: Double
        /// The time since the previous heading correction, s.
        var deltaTime: Double
        /// The reference vertical in the device frame (unit).
        var vertical: SIMD3<Double>
        /// The filter's rotation rate, rad/s, device frame.
        var rotationRate: SIMD3<Double>
        /// Whether the corrections follow the magnetometer at its time constant (not while the first
        /// heading is still being averaged, when they reflect the first readings' noise).
        var isSettled: Bool
        /// Whether the filter's rest detector sees the device at rest.
        var isAtRest: Bool
    }

    /// While the device turns about the vertical, a scale error `δᵢ` of the axis `i` along it turns the
    /// integrated heading by `δᵢ·vᵢ·ωᵢ` per second, which the accelerometer never sees; the heading then lags
    /// by that times the magnetometer's time constant (1 % at 15 °/s for 15 s: 2.2°). The magnetometer's
    /// corrections follow the regressor `hᵢ = LP(vᵢ·ωᵢ)` (low-passed with the corrections' own gain) times
    /// `δᵢ`, and the factor of the axis within ``verticalAxisAlignment`` of the vertical takes the same
    /// normalised step as from the inclination corrections.
    /// - Parameters:
    ///   - step: the filter's state around this heading correction.
    ///   - settings: the filter's tuning.
    ///   - scale: the factors, changed in place.
    mutating func collectHeading(_ step: HeadingStep, settings: AttitudeFilterSettings, scale: inout SIMD3<Double>) {
        guard settings.gyroscopeScaleTimeConstant > 0, step.deltaTime > 0 else { return }
        headingRegressor += (step.vertical * step.rotationRate - headingRegressor) * step.gain
        guard step.isSettled, !step.isAtRest else { return }
        let rate = step.angle / step.deltaTime
        let limit = settings.maximumGyroscopeScaleError * step.rotationRate.length + settings.maximumGyroscopeBias
        guard abs(rate) < limit else { return }
        let alignment = Self.verticalAxisAlignment
        let vertical = step.vertical
        let along = SIMD3<Double>(
            abs(vertical.x) > alignment ? 1 : 0, abs(vertical.y) > alignment ? 1 : 0, abs(vertical.z) > alignment ? 1 : 0)
        guard along != .zero else { return }
        let h = headingRegressor
        let normalisedStep = along * h * rate / (h * h + Self.scaleStepFloor(settings))
        scale = Self.learn(scale, step: normalisedStep, over: step.deltaTime, settings: settings)
    }

    /// The filter's state around one inclination correction, what the estimators read.
    struct Step {
        /// The correction just applied (a rotation about a horizontal axis, earth frame).
        var correction: Quaternion
        /// The sample's time step, s.
        var deltaTime: Double
        /// The filter's rotation rate output so far (the previous sample's), rad/s, device frame.
        var rotationRate: SIMD3<Double>
        /// Device → almost inertial frame.
        var gyroscopeAttitude: Quaternion
        /// Almost inertial → tilt-corrected frame, after the correction.
        var inclinationCorrection: Quaternion
        /// Whether the filter's rest detector sees the device at rest.
        var isAtRest: Bool
    }

    /// Sums the corrections and rates of ``decimation`` samples, then runs the bias and scale estimators
    /// once on the sums: they follow the corrections over seconds, so a step every few samples learns the
    /// same for a quarter of the work.
    /// - Parameters:
    ///   - step: the filter's state around this sample's correction.
    ///   - settings: the filter's tuning.
    ///   - bias: the gyroscope bias estimate, rad/s, changed in place.
    ///   - scale: the gyroscope scale factors, changed in place.
    mutating func collect(
        _ step: Step, settings: AttitudeFilterSettings, bias: inout SIMD3<Double>, scale: inout SIMD3<Double>
    ) {
        let estimatesMotionBias = settings.estimatesGyroscopeBias && settings.motionBiasTimeConstant > 0
        let estimatesScale = settings.gyroscopeScaleTimeConstant > 0
        guard estimatesMotionBias || estimatesScale else { return }
        let correction = step.correction
        // The correction's rotation vector, rad, in the earth frame: 2·v/w for the tiny angles of one sample
        // (larger ones are transients, which the estimators skip anyway).
        if correction.w > 0.5 {
            pending.correction += SIMD3(correction.x, correction.y, 0) * (2 / correction.w)
        } else {
            pending.correction += SIMD3(repeating: .infinity)  // a turn of over 120° in one step: no estimate
        }
        pending.rotation += step.rotationRate * step.deltaTime
        pending.duration += step.deltaTime
        pending.count += 1
        guard pending.count == Self.decimation else { return }
        defer { pending = (.zero, .zero, 0, 0) }
        let duration = pending.duration
        let meanRate = pending.rotation / duration
        let matrix = step.gyroscopeAttitude.rotationMatrix
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
        guard pending.correction.isFinite else { return }
        sustainedFor += duration
        let sustainedGain = duration / min(sustainedFor, Self.transientTimeConstant)
        sustainedCorrectionRate += (pending.correction / duration - sustainedCorrectionRate) * sustainedGain
        guard !step.isAtRest else { return }
        // Earth → almost inertial frame (the inclination correction is a rotation about a horizontal axis).
        let rotationInInertial = step.inclinationCorrection.conjugate.rotate(pending.correction)
        if estimatesMotionBias {
            estimateBias(rotationInInertial, meanRate: meanRate, duration: duration, settings: settings, bias: &bias)
        }
        if estimatesScale {
            estimateScale(rotationInInertial, meanRate: meanRate, duration: duration, settings: settings, scale: &scale)
        }
    }

    /// In motion, the inclination corrections are what the residual bias integrated into the attitude:
    /// taken into the device frame, their mean rate is minus the bias error about the axes that are
    /// horizontal (only those are observable; a device that turns makes every axis horizontal in turn).
    /// Only while turning slower than ``AttitudeFilterSettings/lowPassCutoff``: faster, scale-factor errors
    /// and the low-pass lag dominate the corrections.
    /// - Parameters:
    ///   - rotationInInertial: the corrections' rotation vector over `duration`, rad, almost inertial frame.
    ///   - meanRate: the mean rotation rate over `duration`, rad/s, device frame.
    ///   - duration: s.
    ///   - settings: the filter's tuning.
    ///   - bias: the estimate, rad/s, changed in place.
    private func estimateBias(
        _ rotationInInertial: SIMD3<Double>, meanRate: SIMD3<Double>, duration: Double,
        settings: AttitudeFilterSettings, bias: inout SIMD3<Double>
    ) {
        let maximumRate = settings.lowPassCutoff
        guard meanRate.lengthSquared < maximumRate * maximumRate else { return }
        // Corrections sustained faster than any bias the filter accepts are a transient (a wrong start, a
        // long acceleration), not a bias: learning from them would spoil the estimate.
        let largest = settings.maximumGyroscopeBias
        guard sustainedCorrectionRate.lengthSquared < largest * largest else { return }
        // Through the low-passed (transposed) device → inertial matrix into the device frame.
        let rotationInDevice = SIMD3(
            orientationLowPass.x.value.dot(rotationInInertial), orientationLowPass.y.value.dot(rotationInInertial),
            orientationLowPass.z.value.dot(rotationInInertial))
        bias = settings.limitedBias(bias - rotationInDevice / settings.motionBiasTimeConstant)
    }

    /// While the device turns, a scale error `δ` of axis `i` adds `δ·ωᵢ` about that axis to the integrated
    /// attitude; the corrections (their rate, taken into the almost inertial frame) then follow the
    /// low-passed regressor `hᵢ = LP(column i · ωᵢ)` times `δ`. Each factor takes a normalised
    /// least-mean-squares step along its regressor (`hᵢ·c / (|hᵢ|² + ε)`, ε the square of the low-pass's
    /// cut-off, so that slow turning, which shows no scale error, teaches nothing). Corrections sustained
    /// (``sustainedCorrectionRate``) faster than a scale error of
    /// ``AttitudeFilterSettings/maximumGyroscopeScaleError`` plus the largest bias could cause are
    /// transients and skipped.
    /// - Parameters:
    ///   - rotationInInertial: the corrections' rotation vector over `duration`, rad, almost inertial frame.
    ///   - meanRate: the mean rotation rate over `duration`, rad/s, device frame.
    ///   - duration: s.
    ///   - settings: the filter's tuning.
    ///   - scale: the factors, changed in place.
    private func estimateScale(
        _ rotationInInertial: SIMD3<Double>, meanRate: SIMD3<Double>, duration: Double, settings: AttitudeFilterSettings,
        scale: inout SIMD3<Double>
    ) {
        let rate = rotationInInertial / duration
        let limit = settings.maximumGyroscopeScaleError * meanRate.length + settings.maximumGyroscopeBias
        guard sustainedCorrectionRate.lengthSquared < limit * limit else { return }
        let (x, y, z) = (scaleRegressors.x.value, scaleRegressors.y.value, scaleRegressors.z.value)
        let floor = Self.scaleStepFloor(settings)
        let step = SIMD3(
            x.dot(rate) / (x.lengthSquared + floor), y.dot(rate) / (y.lengthSquared + floor),
            z.dot(rate) / (z.lengthSquared + floor))
        scale = Self.learn(scale, step: step, over: duration, settings: settings)
    }

    /// ε of the scale estimators' normalised steps, (rad/s)²: the square of the low-pass's cut-off
    /// (``AttitudeFilterSettings/lowPassCutoff``, 0.47 rad/s at 3 s), so that slow turning, which shows no
    /// scale error, teaches nothing.
    private static func scaleStepFloor(_ settings: AttitudeFilterSettings) -> Double {
        settings.lowPassCutoff * settings.lowPassCutoff
    }

    /// The scale factors moved by `step` (per second of ``AttitudeFilterSettings/gyroscopeScaleTimeConstant``)
    /// over `duration` s, kept within ``AttitudeFilterSettings/maximumGyroscopeScaleError`` of 1.
    private static func learn(
        _ scale: SIMD3<Double>, step: SIMD3<Double>, over duration: Double, settings: AttitudeFilterSettings
    ) -> SIMD3<Double> {
        let learned = scale + step * (duration / settings.gyroscopeScaleTimeConstant)
        let low = 1 - settings.maximumGyroscopeScaleError, high = 1 + settings.maximumGyroscopeScaleError
        return SIMD3(min(max(learned.x, low), high), min(max(learned.y, low), high), min(max(learned.z, low), high))
    }
}
