/// What an IMU device is and what it can do.
public struct IMUDeviceInfo: Sendable, Equatable {
    /// Driver name, for example `sim`, `iio` or `mpu6050`.
    public var driver: String
    /// Chip or model description, for example `simulated 9-axis IMU`.
    public var chip: String
    /// The sensors the device carries.
    public var sensors: IMUSensors
    /// Sample rates the device can run at, Hz.
    public var supportedSampleRates: ClosedRange<Double>
    /// The rate the device runs at when asked for none, Hz.
    public var defaultSampleRate: Double
    /// The accelerometer's full scale, m/s²: readings of this size on an axis are saturated. `nil` when
    /// unknown or unlimited (simulator, replay).
    public var accelerometerRange: Double?
    /// The gyroscope's full scale, rad/s, as ``accelerometerRange``.
    public var gyroscopeRange: Double?
    /// The magnetometer's full scale, µT, as ``accelerometerRange``.
    public var magnetometerRange: Double?
    /// The −3 dB bandwidth of the accelerometer's own filter (analog and digital) at
    /// ``defaultSampleRate``, Hz: no measurement above it is to be trusted whatever the rate. `nil` when
    /// the driver does not know it (simulator, replay, an IIO device without
    /// `in_accel_filter_low_pass_3db_frequency`).
    public var accelerometerBandwidth: Double?

    /// Creates a description.
    /// - Parameters:
    ///   - driver: driver name.
    ///   - chip: chip or model description.
    ///   - sensors: the sensors the device carries.
    ///   - supportedSampleRates: rates the device supports, Hz.
    ///   - defaultSampleRate: rate used when none is asked for, Hz.
    ///   - accelerometerRange: accelerometer full scale, m/s² (`nil`: unknown).
    ///   - gyroscopeRange: gyroscope full scale, rad/s (`nil`: unknown).
    ///   - magnetometerRange: magnetometer full scale, µT (`nil`: unknown).
    ///   - accelerometerBandwidth: the accelerometer filter's −3 dB bandwidth at `defaultSampleRate`, Hz
    ///     (`nil`: unknown).
    public init(
        driver: String, chip: String, sensors: IMUSensors,
        supportedSampleRates: ClosedRange<Double>, defaultSampleRate: Double,
        accelerometerRange: Double? = nil, gyroscopeRange: Double? = nil, magnetometerRange: Double? = nil,
        accelerometerBandwidth: Double? = nil
    ) {
        self.accelerometerBandwidth = accelerometerBandwidth
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.magnetometerRange = magnetometerRange
        self.driver = driver
        self.chip = chip
        self.sensors = sensors
        self.supportedSampleRates = supportedSampleRates
        self.defaultSampleRate = defaultSampleRate
    }
}
