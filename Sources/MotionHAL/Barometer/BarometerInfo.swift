/// What a barometer is and what it can do.
public struct BarometerInfo: Sendable, Equatable {
    /// Driver name: `sim`, `iio` or `i2c`.
    public var driver: String
    /// Chip or model description, for example `Bosch BMP280 at 0x76`, `simulated barometer` or an IIO
    /// device's name.
    public var chip: String
    /// The rates `start` accepts, Hz.
    public var supportedSampleRates: ClosedRange<Double>
    /// The rate to run at when the consumer has no preference, Hz (inside ``supportedSampleRates``).
    public var defaultSampleRate: Double
    /// Whether the readings carry a temperature (``PressureReading/temperature``).
    public var hasTemperature: Bool
    /// The pressures the sensor is rated for, Pa; nil when the driver does not know (a depth gauge uses it
    /// for its deepest depth and to tell a reading out of range).
    public var pressureRange: ClosedRange<Double>?

    /// Creates a description.
    /// - Parameters:
    ///   - driver: `sim`, `iio` or `i2c`.
    ///   - chip: chip or model description.
    ///   - supportedSampleRates: rates `start` accepts, Hz.
    ///   - defaultSampleRate: rate used when none is asked for, Hz.
    ///   - hasTemperature: whether readings carry a temperature.
    ///   - pressureRange: the rated pressures, Pa, when known.
    public init(
        driver: String, chip: String, supportedSampleRates: ClosedRange<Double>, defaultSampleRate: Double,
        hasTemperature: Bool, pressureRange: ClosedRange<Double>? = nil
    ) {
        self.driver = driver
        self.chip = chip
        self.supportedSampleRates = supportedSampleRates
        self.defaultSampleRate = defaultSampleRate
        self.hasTemperature = hasTemperature
        self.pressureRange = pressureRange
    }
}
