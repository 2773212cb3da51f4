import FoundationEssentials
import MotionMath

/// A calibration of an IMU's sensors: the gyroscope's bias, the accelerometer's offset and scale, the
/// magnetometer's hard and soft iron. Each part is optional; ``apply(to:)`` corrects what a part exists
/// for and leaves the other readings as they are. Made by `motionctl calibrate`, stored as JSON, applied
/// by the engine to every sample before fusion (`MotionEngine.setCalibration`: the agent's `calibration`
/// setting, CoreMotion's `MOTION_CALIBRATION`).
///
/// The file (``load(contentsOf:)``, ``save(to:)``) is UTF-8 JSON; its fields, units and an example are in
/// docs/CALIBRATION.md.
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
