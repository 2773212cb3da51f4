import MotionMath

/// What another sensor, mounting or rate would have recorded of the same motion: a recording changed in
/// one physical respect, its reference attitude changed to match. A filter that is tuned to one data set
/// shows it here (`motion-bench broad-variants`, the robustness battery of `Benchmarks/broad/run.sh`).
///
/// A pure value: ``apply(to:)`` reads one recording and returns another.
public enum IMURecordingVariant: Sendable, Equatable {
    /// Sampled at `rate` Hz instead: each sensor averaged over the new sample interval centred on the new
    /// time (an integrating sensor, each recorded reading held over the interval around it; no delay is
    /// added against the reference), the reference interpolated along the shorter arc, the motion flag of
    /// the sample before.
    case resampled(rate: Double)
    /// The magnetometer's readings times `factor` (another unit's sensitivity, or a stronger or weaker
    /// local field).
    case magnetometerScaled(factor: Double)
    /// The sensor mounted turned by `degrees` about its own `axis`: every reading is expressed in the
    /// turned axes, and the reference rotates from them.
    case mounted(axis: SIMD3<Double>, degrees: Double)
    /// White noise added to every reading: densities for the gyroscope (rad/s/√Hz) and the accelerometer
    /// (m/s²/√Hz), whose standard deviation per sample is density × √(rate / 2); the magnetometer's as an
    /// rms value per reading (µT), as magnetometer datasheets give it. `seed` makes it repeatable.
    case noiseAdded(gyroscopeDensity: Double, accelerometerDensity: Double, magnetometerRMS: Double, seed: UInt64)
    /// The magnetometer's readings `seconds` older than the other sensors' (a timing skew between the
    /// chips), interpolated linearly; the first reading stands for the field before it.
    case magnetometerDelayed(seconds: Double)
    /// A constant field added to every magnetometer reading in the sensor's axes, µT: the hard-iron residual
    /// a less well calibrated magnetometer keeps (the field's norm and dip then vary as the device turns).
    case magnetometerOffset(SIMD3<Double>)

    /// The battery the fusion benchmark runs on every trial (issue 32): two lower rates, a magnetometer
    /// at half and twice the field, two mountings, a second sensor's noise (the ICM-20948's gyroscope,
    /// 0.015 °/s/√Hz, and accelerometer, 230 µg/√Hz; the LIS3MDL's magnetometer, 0.32 µT rms), a 2 ms
    /// magnetometer skew, and a 2 µT hard-iron residual (4.8 % of BROAD's 41.5 µT field: its norm swings by
    /// that much as the device turns, just inside a 5 % threshold) along each of the sensor's six axis
    /// directions: a residual's direction is unknown, and what it does to a trial's heading depends on it
    /// (``hardIronResiduals``).
    public static let battery: [IMURecordingVariant] =
        [
            .resampled(rate: 100), .resampled(rate: 50),
            .magnetometerScaled(factor: 0.5), .magnetometerScaled(factor: 2),
            .mounted(axis: SIMD3(1, 0, 0), degrees: 90), .mounted(axis: SIMD3(0, 1, 0), degrees: 180),
            .noiseAdded(gyroscopeDensity: 0.015 * .pi / 180, accelerometerDensity: 230e-6 * 9.80665, magnetometerRMS: 0.32, seed: 32),
            .magnetometerDelayed(seconds: 0.002),
        ] + hardIronResiduals

    /// The battery's hard-iron residuals: 2 µT along +x, −x, +y, −y, +z and −z of the sensor.
    public static let hardIronResiduals: [IMURecordingVariant] = [
        SIMD3<Double>(1, 0, 0), SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -1, 0), SIMD3(0, 0, 1), SIMD3(0, 0, -1),
    ].map { .magnetometerOffset($0 * 2) }

    /// A short name for tables and directories: `rate-100Hz`, `mag-x0.5`, `mount-x90`, `noise`, `mag-late-2ms`,
    /// `mag-offset-x+2uT` (an offset along one axis), `mag-offset-2,0,-1uT` (any other).
    public var name: String {
        switch self {
        case .resampled(let rate): "rate-\(Self.compact(rate))Hz"
        case .magnetometerScaled(let factor): "mag-x\(Self.compact(factor))"
        case .mounted(let axis, let degrees):
            "mount-" + (axis == SIMD3(1, 0, 0) ? "x" : axis == SIMD3(0, 1, 0) ? "y" : axis == SIMD3(0, 0, 1) ? "z" : "axis")
                + Self.compact(degrees)
        case .noiseAdded: "noise"
        case .magnetometerDelayed(let seconds): "mag-late-\(Self.compact(seconds * 1000))ms"
        case .magnetometerOffset(let offset): "mag-offset-" + Self.signedComponents(offset) + "uT"
        }
    }

    /// The recording as this variant would have recorded it.
    /// - Precondition: a rate, factor or delay that is finite and > 0 (a delay ≥ 0), densities ≥ 0.
    public func apply(to recording: IMURecording) -> IMURecording {
        switch self {
        case .resampled(let rate):
            precondition(rate.isFinite && rate > 0, "IMURecordingVariant: rate \(rate) Hz")
            return IMURecordingResampler(recording).resampled(rate: rate)
        case .magnetometerScaled(let factor):
            precondition(factor.isFinite && factor > 0, "IMURecordingVariant: factor \(factor)")
            return recording.mapSamples { sample, _ in sample.magneticField = sample.magneticField.map { $0 * factor } }
        case .mounted(let axis, let degrees):
            let turn = Quaternion(axis: axis, angle: degrees * .pi / 180)
            let back = turn.conjugate
            var turned = recording.mapSamples { sample, _ in
                sample.rotationRate = sample.rotationRate.map(back.rotate)
                sample.acceleration = sample.acceleration.map(back.rotate)
                sample.magneticField = sample.magneticField.map(back.rotate)
            }
            // v_ENU = q·v_old = q·turn·v_new: the new sensor → ENU rotation is q ⊗ turn.
            turned.referenceAttitudes = recording.referenceAttitudes.map { reference in
                reference.map { (Quaternion(w: $0[0], x: $0[1], y: $0[2], z: $0[3]) * turn).components }
            }
            return turned
        case .noiseAdded(let gyroscope, let accelerometer, let magnetometer, let seed):
            precondition(gyroscope >= 0 && accelerometer >= 0 && magnetometer >= 0, "IMURecordingVariant: negative noise")
            let bandwidth = (recording.sampleRate / 2).squareRoot()
            return recording.mapSamples { sample, index in
                var random = SeededGaussianGenerator(seed: seed, stream: UInt64(index))
                func noise(_ deviation: Double) -> SIMD3<Double> {
                    SIMD3(random.nextGaussian(), random.nextGaussian(), random.nextGaussian()) * deviation
                }
                sample.rotationRate = sample.rotationRate.map { $0 + noise(gyroscope * bandwidth) }
                sample.acceleration = sample.acceleration.map { $0 + noise(accelerometer * bandwidth) }
                sample.magneticField = sample.magneticField.map { $0 + noise(magnetometer) }
            }
        case .magnetometerDelayed(let seconds):
            precondition(seconds.isFinite && seconds >= 0, "IMURecordingVariant: delay \(seconds) s")
            return IMURecordingResampler(recording).magnetometerDelayed(by: seconds)
        case .magnetometerOffset(let offset):
            precondition(offset.isFinite, "IMURecordingVariant: offset \(offset) µT")
            return recording.mapSamples { sample, _ in sample.magneticField = sample.magneticField.map { $0 + offset } }
        }
    }

    /// `x+2`, `z-0.5` for a vector along one axis; `2,0,-1` for any other.
    private static func signedComponents(_ vector: SIMD3<Double>) -> String {
        let components = [("x", vector.x), ("y", vector.y), ("z", vector.z)]
        let nonZero = components.filter { $0.1 != 0 }
        if nonZero.count == 1, let (axis, value) = nonZero.first {
            return axis + (value > 0 ? "+" : "-") + compact(abs(value))
        }
        return components.map { compact($0.1) }.joined(separator: ",")
    }

    /// `100`, `0.5`: the number without a trailing `.0`.
    private static func compact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension IMURecording {
    /// The recording with each sample changed by `change` (given the sample's index); the reference and
    /// the motion flags kept.
    func mapSamples(_ change: (inout IMUSample, Int) -> Void) -> IMURecording {
        var changed = self
        for index in changed.samples.indices { change(&changed.samples[index], index) }
        return changed
    }
}
