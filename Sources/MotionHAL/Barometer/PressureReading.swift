/// One barometer reading: the static air pressure and, where the device has a sensor for it, its
/// temperature, at one moment.
public struct PressureReading: Sendable, Equatable {
    /// When the measurement was made, ns of `CLOCK_MONOTONIC` (``MonotonicClock``), as close to the
    /// conversion as the hardware allows.
    public var timestamp: UInt64
    /// Absolute pressure, Pa.
    public var pressure: Double
    /// The sensor's temperature, °C; `nil` when the device has none.
    public var temperature: Double?

    /// Creates a reading.
    /// - Parameters:
    ///   - timestamp: ns of `CLOCK_MONOTONIC` at the measurement.
    ///   - pressure: Pa.
    ///   - temperature: °C, `nil` when the device has no temperature sensor.
    public init(timestamp: UInt64, pressure: Double, temperature: Double? = nil) {
        self.timestamp = timestamp
        self.pressure = pressure
        self.temperature = temperature
    }
}
