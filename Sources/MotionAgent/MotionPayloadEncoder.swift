import CoreMotion

/// Encodes CoreMotion samples as the JSON payloads of the MQTT contract, in Apple's names and units.
///
/// Every payload has `seq` (per topic, from 1, so subscribers can detect loss), `timestamp` (seconds since
/// boot, as `CMLogItem`) and `ts` (Unix time in seconds with fraction).
public struct MotionPayloadEncoder: Sendable {
    /// Unix time minus monotonic time at the moment the encoder was made, s.
    public let wallClockOffset: Double

    /// Creates an encoder.
    /// - Parameter wallClockOffset: Unix time minus `CMLogItem` time (seconds since boot), s.
    public init(wallClockOffset: Double) {
        self.wallClockOffset = wallClockOffset
    }

    /// `{"seq","timestamp","ts","acceleration":{"x","y","z"}}`, acceleration in g.
    public func encode(_ data: CMAccelerometerData, seq: UInt64) -> String {
        var writer = header(data, seq: seq)
        writer.vector("acceleration", x: data.acceleration.x, y: data.acceleration.y, z: data.acceleration.z)
        return writer.finished()
    }

    /// `{"seq","timestamp","ts","rotationRate":{"x","y","z"}}`, rotation rate in rad/s.
    public func encode(_ data: CMGyroData, seq: UInt64) -> String {
        var writer = header(data, seq: seq)
        writer.vector("rotationRate", x: data.rotationRate.x, y: data.rotationRate.y, z: data.rotationRate.z)
        return writer.finished()
    }

    /// `{"seq","timestamp","ts","magneticField":{"x","y","z"}}`, field in µT.
    public func encode(_ data: CMMagnetometerData, seq: UInt64) -> String {
        var writer = header(data, seq: seq)
        writer.vector("magneticField", x: data.magneticField.x, y: data.magneticField.y, z: data.magneticField.z)
        return writer.finished()
    }

    /// Device motion: attitude (quaternion, roll, pitch, yaw in rad), rotation rate (rad/s), gravity and
    /// user acceleration (g), calibrated magnetic field (µT) with its accuracy, heading (degrees).
    public func encode(_ motion: CMDeviceMotion, seq: UInt64) -> String {
        var writer = header(motion, seq: seq)
        let attitude = motion.attitude
        writer.object("attitude") { attitudeWriter in
            let quaternion = attitude.quaternion
            attitudeWriter.object("quaternion") { quaternionWriter in
                quaternionWriter.field("x", quaternion.x)
                quaternionWriter.field("y", quaternion.y)
                quaternionWriter.field("z", quaternion.z)
                quaternionWriter.field("w", quaternion.w)
            }
            attitudeWriter.field("roll", attitude.roll)
            attitudeWriter.field("pitch", attitude.pitch)
            attitudeWriter.field("yaw", attitude.yaw)
        }
        let rate = motion.rotationRate
        writer.vector("rotationRate", x: rate.x, y: rate.y, z: rate.z)
        writer.vector("gravity", x: motion.gravity.x, y: motion.gravity.y, z: motion.gravity.z)
        let user = motion.userAcceleration
        writer.vector("userAcceleration", x: user.x, y: user.y, z: user.z)
        let calibrated = motion.magneticField
        writer.object("magneticField") { fieldWriter in
            fieldWriter.vector("field", x: calibrated.field.x, y: calibrated.field.y, z: calibrated.field.z)
            fieldWriter.field("accuracy", Self.name(of: calibrated.accuracy))
        }
        writer.field("heading", motion.heading)
        return writer.finished()
    }

    /// The contract's name of a calibration accuracy: `uncalibrated`, `low`, `medium` or `high`.
    public static func name(of accuracy: CMMagneticFieldCalibrationAccuracy) -> String {
        switch accuracy {
        case .uncalibrated: "uncalibrated"
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    private func header(_ item: CMLogItem, seq: UInt64) -> JSONWriter {
        var writer = JSONWriter()
        writer.field("seq", seq)
        writer.field("timestamp", item.timestamp)
        writer.field("ts", item.timestamp + wallClockOffset)
        return writer
    }
}
