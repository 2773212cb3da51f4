/// One barometer reading as a log item (Apple's `CMAmbientPressureData`): the air's pressure and the
/// sensor's temperature.
open class CMAmbientPressureData: CMLogItem {
    private let storedPressure: Double
    private let storedTemperature: Double

    /// The static air pressure (stored in kPa, Apple's unit for pressure).
    open var pressure: Measurement<UnitPressure> { Measurement(value: storedPressure, unit: .kilopascals) }

    /// The temperature of the pressure sensor (stored in °C); NaN when the barometer has no thermometer.
    open var temperature: Measurement<UnitTemperature> { Measurement(value: storedTemperature, unit: .celsius) }

    /// Creates a reading of 0 kPa and 0 °C at timestamp 0 s.
    public override init() {
        storedPressure = 0
        storedTemperature = 0
        super.init()
    }

    /// Creates a reading.
    /// - Parameters:
    ///   - pressure: kPa.
    ///   - temperature: °C (NaN when unknown).
    ///   - timestamp: seconds since boot.
    public init(linuxPressure pressure: Double, temperature: Double, timestamp: TimeInterval) {
        storedPressure = pressure
        storedTemperature = temperature
        super.init(timestamp: timestamp)
    }

    /// Archives the reading (`timestamp`, `pressure` in kPa, `temperature` in °C).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(storedPressure, forKey: "pressure")
        coder.encode(storedTemperature, forKey: "temperature")
    }

    /// Reads an archived reading; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let pressure = coder.decodeRequiredDouble(forKey: "pressure"),
            let temperature = coder.decodeRequiredDouble(forKey: "temperature")
        else { return nil }
        storedPressure = pressure
        storedTemperature = temperature
        super.init(coder: coder)
    }
}
