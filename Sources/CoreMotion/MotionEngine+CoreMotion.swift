import MotionEngine
import MotionFusion
import MotionMath
import MotionModel

// The conversions between the engine's values and Apple's objects: CoreMotion is Apple's API over the
// ``MotionEngine``, which knows nothing of Foundation or of `CMLogItem`.

extension CMAttitudeReferenceFrame {
    /// The engine's frame of a single CoreMotion frame (a combination of flags, which no service runs in,
    /// maps to `xArbitraryZVertical`).
    var engineFrame: AttitudeReferenceFrame {
        switch self {
        case .xArbitraryCorrectedZVertical: .xArbitraryCorrectedZVertical
        case .xMagneticNorthZVertical: .xMagneticNorthZVertical
        case .xTrueNorthZVertical: .xTrueNorthZVertical
        default: .xArbitraryZVertical
        }
    }

    /// The CoreMotion flag of an engine frame.
    init(_ frame: AttitudeReferenceFrame) {
        self =
            switch frame {
            case .xArbitraryZVertical: .xArbitraryZVertical
            case .xArbitraryCorrectedZVertical: .xArbitraryCorrectedZVertical
            case .xMagneticNorthZVertical: .xMagneticNorthZVertical
            case .xTrueNorthZVertical: .xTrueNorthZVertical
            }
    }
}

extension CMMagneticFieldCalibrationAccuracy {
    /// Apple's accuracy of the contract's (same raw values).
    init(_ accuracy: MagneticFieldAccuracy) {
        self = CMMagneticFieldCalibrationAccuracy(rawValue: Int32(accuracy.rawValue)) ?? .uncalibrated
    }
}

/// Apple's sample object of an engine sample of `stream`.
func makeLogItem(_ sample: MotionSample, of stream: MotionStream) -> CMLogItem {
    switch sample {
    case .vector(let reading):
        let v = reading.value
        switch stream {
        case .gyroscope:
            return CMGyroData(rotationRate: CMRotationRate(x: v.x, y: v.y, z: v.z), timestamp: reading.timestamp)
        case .magnetometer:
            return CMMagnetometerData(magneticField: CMMagneticField(x: v.x, y: v.y, z: v.z), timestamp: reading.timestamp)
        default:
            return CMAccelerometerData(acceleration: CMAcceleration(x: v.x, y: v.y, z: v.z), timestamp: reading.timestamp)
        }
    case .deviceMotion(let motion):
        let q = motion.attitude, rate = motion.rotationRate, gravity = motion.gravity
        let user = motion.userAcceleration, field = motion.magneticField
        return CMDeviceMotion(
            attitude: CMAttitude(w: q.w, x: q.x, y: q.y, z: q.z),
            rotationRate: CMRotationRate(x: rate.x, y: rate.y, z: rate.z),
            gravity: CMAcceleration(x: gravity.x, y: gravity.y, z: gravity.z),
            userAcceleration: CMAcceleration(x: user.x, y: user.y, z: user.z),
            magneticField: CMCalibratedMagneticField(
                field: CMMagneticField(x: field.x, y: field.y, z: field.z),
                accuracy: CMMagneticFieldCalibrationAccuracy(motion.magneticAccuracy)),
            heading: motion.heading,
            uncertainty: motion.uncertainty.map { ($0.heading, $0.inclination) } ?? (-1, -1), timestamp: motion.timestamp)
    case .fused(let fused):
        // No manager asks for it; made total as device motion with no field, heading or uncertainty.
        let (user, gravity) = fused.appleVectors
        return makeLogItem(.deviceMotion(DeviceMotionSample(
            timestamp: fused.timestamp, attitude: fused.attitude, rotationRate: fused.rotationRate, gravity: gravity,
            userAcceleration: user, magneticField: .zero, magneticAccuracy: .uncalibrated, heading: -1, uncertainty: nil)), of: stream)
    }
}

extension MotionEngineFault {
    /// The `NSError` in ``CMErrorDomain`` that reports the fault: ``CMErrorNotAvailable`` for an unavailable
    /// device or a failed start, ``CMErrorUnknown`` otherwise.
    var nsError: NSError {
        (kind == .notAvailable ? CMErrorNotAvailable : CMErrorUnknown).nsError(description)
    }
}
