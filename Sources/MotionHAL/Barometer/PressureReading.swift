/// One barometer reading: the static air pressure and, where the device has sensors for them, its
/// temperature and the air's relative humidity, at one moment.
public struct PressureReading: Sendable, Equatable {
    /// When the measurement was made, ns of `CLOCK_MONOTONIC` (``MonotonicClock``), as close to the
    /// conversion as the hardware allows.
    public var timestamp: UInt64
    /// Absolute pressure, Pa.
    public var pressure: Double
    /// The sensor's temperature, °C; `nil` when the device has none.
    public var temperature: Double?
    /// Relative humidity, %RH (0…100); `nil` when the device has no humidity sensor (a BME280 has one).
    public var humidity: Double?

    /// Creates a reading.
    /// - Parameters:
    ///   - timestamp: ns of `CLOCK_MONOTONIC` at the measurement.
    ///   - pressure: Pa.
    ///   - temperature: °C, `nil` when the device has no temperature sensor.
    ///   - humidity: %RH, `nil` when the device has no humidity sensor.
    public init(timestamp: UInt64, pressure: Double, temperature: Double? = nil, humidity: Double? = nil) {
        self.timestamp = timestamp
        self.pressure = pressure
        self.temperature = temperature
        self.humidity = humidity
    }
}
