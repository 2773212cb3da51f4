import FoundationEssentials
import MotionMath

/// A calibration of an IMU's sensors: the gyroscope's bias, the accelerometer's offset and scale, the
/// magnetometer's hard and soft iron. Each part is optional; ``apply(to:)`` corrects what a part exists
/// for and leaves the other readings as they are. Made by `motionctl calibrate`, stored as JSON, applied
/// by the engine to every sample before fusion (`MotionEngine.setCalibration`: the agent's `calibration`
/// setting, CoreMotion's `MOTION_CALIBRATION`).
///
/// The file (``load(contentsOf:)``, ``save(to:)``), UTF-8 JSON; every part may be left out:
/// ```json
/// {
///   "format_version": 1,
///   "created": "2026-11-30T03:10:00Z",
///   "device": "i2c:/dev/i2c-1@0x68 (mpu6050, InvenSense MPU-6050)",
///   "gyroscope": { "bias_rad_s": [0.0121, -0.0043, 0.0008] },
///   "accelerometer": {
///     "offset_m_s2": [0.12, -0.05, 0.31],
///     "scale": [[1.004, 0, 0], [0, 0.998, 0], [0, 0, 0.991]],
///     "residual_m_s2": 0.004
///   },
///   "magnetometer": {
///     "hard_iron_ut": [12.5, -30.1, 4.2],
///     "soft_iron": [[1.05, 0.02, 0], [0.02, 0.97, 0.01], [0, 0.01, 0.98]],
///     "field_strength_ut": 48.7,
///     "residual_ut": 0.6,
///     "coverage": 0.91,
///     "quality": "high"
///   },
///   "noise": {
///     "gyroscope": { "noise_density": [1.7e-4, 1.6e-4, 1.9e-4], "bias_instability": [2.1e-5, 1.8e-5, 2.6e-5] },
///     "accelerometer": { "noise_density": [1.1e-3, 1.2e-3, 1.6e-3], "bias_instability": [2.0e-4, 1.7e-4, 3.1e-4] },
///     "duration_s": 120
///   }
/// }
/// ```
/// - `format_version`: 1.
/// - `created`: when the calibration was made, ISO 8601 in UTC.
/// - `device`: which device it was made on (the device string and driver/chip), for people.
/// - `gyroscope.bias_rad_s`: rad/s, subtracted from the angular velocity.
/// - `accelerometer.offset_m_s2`: m/s², subtracted from the specific force, which is then multiplied by
///   the dimensionless 3×3 `scale` (rows); `residual_m_s2`: RMS misfit of the still orientations, m/s².
/// - `magnetometer.hard_iron_ut`: µT, subtracted from the field, which is then multiplied by the
///   dimensionless symmetric 3×3 `soft_iron` (rows); `field_strength_ut`: the strength of the corrected
///   field, µT; `residual_ut`: RMS distance of the corrected readings from that sphere, µT; `coverage`: the
///   fraction of the sphere of directions the readings covered, 0…1; `quality`: `low`, `medium` or `high`.
/// - `noise`: from the Allan deviation of a still recording of `duration_s` seconds, per axis, each sensor's
///   white-noise density (`noise_density`: rad/s/√Hz for the gyroscope, its angle random walk; m/s²/√Hz for
///   the accelerometer, its velocity random walk) and `bias_instability` (rad/s, m/s²).
public struct IMUCalibration: Sendable, Equatable, Codable {
    /// The format version this code writes and reads.
    public static let formatVersion = 1

    /// When the calibration was made.
    public var created: Date
    /// The device it was made on (device string, driver and chip), for people.
    public var device: String
    /// The gyroscope's bias, if calibrated.
    public var gyroscope: Gyroscope?
    /// The accelerometer's offset and scale, if calibrated.
    public var accelerometer: Accelerometer?
    /// The magnetometer's hard and soft iron, if calibrated.
    public var magnetometer: Magnetometer?
    /// The sensors' noise figures, if characterised.
    public var noise: Noise?

    /// Creates a calibration.
    /// - Parameters:
    ///   - created: when it was made.
    ///   - device: the device it was made on.
    ///   - gyroscope: the gyroscope part, or nil.
    ///   - accelerometer: the accelerometer part, or nil.
    ///   - magnetometer: the magnetometer part, or nil.
    ///   - noise: the noise figures, or nil.
    public init(
        created: Date, device: String, gyroscope: Gyroscope? = nil, accelerometer: Accelerometer? = nil,
        magnetometer: Magnetometer? = nil, noise: Noise? = nil
    ) {
        self.created = created
        self.device = device
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        self.noise = noise
    }

    /// The sample with every calibrated reading corrected: angular velocity minus the bias, specific force
    /// `scale · (a − offset)`, field `softIron · (m − hardIron)`. Readings without a calibration part, and
    /// absent readings, are left as they are; the timestamp is unchanged.
    /// - Parameter sample: a raw sample (SI units, board axes).
    public func apply(to sample: IMUSample) -> IMUSample {
        var corrected = sample
        if let gyroscope, let rate = sample.rotationRate {
            corrected.rotationRate = rate - gyroscope.bias
        }
        if let accelerometer, let force = sample.acceleration {
            corrected.acceleration = accelerometer.scale * (force - accelerometer.offset)
        }
        if let magnetometer, let field = sample.magneticField {
            corrected.magneticField = magnetometer.softIron * (field - magnetometer.hardIron)
        }
        return corrected
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case formatVersion = "format_version"
        case created, device, gyroscope, accelerometer, magnetometer, noise
    }

    /// Decodes the JSON form (see the type's documentation); the version must be ``formatVersion``.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .formatVersion)
        guard version == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: container,
                debugDescription: "version \(version) is not supported (this program reads version \(Self.formatVersion))")
        }
        let created = try container.decode(String.self, forKey: .created)
        guard let date = try? Date(created, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(
                forKey: .created, in: container,
                debugDescription: "'\(created)' is not an ISO 8601 date and time such as 2026-11-30T03:10:00Z")
        }
        self.created = date
        device = try container.decode(String.self, forKey: .device)
        gyroscope = try container.decodeIfPresent(Gyroscope.self, forKey: .gyroscope)
        accelerometer = try container.decodeIfPresent(Accelerometer.self, forKey: .accelerometer)
        magnetometer = try container.decodeIfPresent(Magnetometer.self, forKey: .magnetometer)
        noise = try container.decodeIfPresent(Noise.self, forKey: .noise)
    }

    /// Encodes the JSON form (see the type's documentation).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .formatVersion)
        try container.encode(created.ISO8601Format(), forKey: .created)
        try container.encode(device, forKey: .device)
        try container.encodeIfPresent(gyroscope, forKey: .gyroscope)
        try container.encodeIfPresent(accelerometer, forKey: .accelerometer)
        try container.encodeIfPresent(magnetometer, forKey: .magnetometer)
        try container.encodeIfPresent(noise, forKey: .noise)
    }
}
