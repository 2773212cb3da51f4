/// The motion services the agent bridges, one per CoreMotion service and MQTT data topic.
public enum MotionService: String, CaseIterable, Sendable, Codable {
    /// Raw accelerometer, published in g (`CMAccelerometerData`).
    case accelerometer
    /// Raw gyroscope, published in rad/s (`CMGyroData`).
    case gyro
    /// Raw magnetometer, published in µT (`CMMagnetometerData`).
    case magnetometer
    /// Fused attitude, gravity, user acceleration and calibrated field (`CMDeviceMotion`).
    case deviceMotion = "device-motion"
    /// Steps, distance, cadence, pace and floors since the service started (`CMPedometerData`).
    case steps
    /// The activity that holds: stationary, walking, running (`CMMotionActivity`).
    case activity
    /// Relative altitude and pressure from the barometer (`CMAltitudeData`).
    case altitude
    /// A machine's vibration from the accelerometer at its full rate: velocity RMS, levels, the ISO 20816
    /// zone, spectra and peaks (condition monitoring; no CoreMotion counterpart).
    case vibration

    /// The services that publish sensor readings or their fusion (the others publish what the on-board
    /// detectors and the barometer make of them).
    public static let sensorServices: [MotionService] = [.accelerometer, .gyro, .magnetometer, .deviceMotion]

    /// The service's place in ``allCases`` (0 for the accelerometer … 7 for vibration): an index for
    /// tables that hold one entry per service.
    public var ordinal: Int {
        switch self {
        case .accelerometer: 0
        case .gyro: 1
        case .magnetometer: 2
        case .deviceMotion: 3
        case .steps: 4
        case .activity: 5
        case .altitude: 6
        case .vibration: 7
        }
    }

    /// Hashes the case rather than its raw string (the default for a `String`-backed enum): the agent
    /// looks services up in dictionaries for every message it publishes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ordinal)
    }
}
