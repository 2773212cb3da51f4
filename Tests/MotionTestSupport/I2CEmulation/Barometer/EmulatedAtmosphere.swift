/// What an emulated barometer measures: the true pressure (Pa) and temperature (°C) as a function of
/// time, and the relative humidity (%RH) a BME280 measures. Emulated chips turn these into raw values as the real chip would (a Bosch chip by inverting its
/// compensation), so a driver test knows exactly what should come out.
public struct EmulatedAtmosphere: Sendable {
    /// The truth at a `CLOCK_MONOTONIC` time, ns: pressure in Pa, temperature in °C.
    public var truth: @Sendable (_ time: UInt64) -> (pressure: Double, temperature: Double)
    /// The relative humidity, %RH (0…100), the same at every time.
    public var humidity: Double

    /// Creates an atmosphere from a function of time.
    /// - Parameters:
    ///   - humidity: the relative humidity, %RH (default 45).
    ///   - truth: the true pressure (Pa) and temperature (°C) at a time, ns.
    public init(humidity: Double = 45, truth: @escaping @Sendable (_ time: UInt64) -> (pressure: Double, temperature: Double)) {
        self.humidity = humidity
        self.truth = truth
    }

    /// Still air: the same pressure and temperature at every time.
    /// - Parameters:
    ///   - pressure: Pa (default 100 000).
    ///   - temperature: °C (default 21.5).
    ///   - humidity: %RH (default 45).
    public static func constant(pressure: Double = 100_000, temperature: Double = 21.5, humidity: Double = 45) -> EmulatedAtmosphere {
        EmulatedAtmosphere(humidity: humidity) { _ in (pressure, temperature) }
    }
}
