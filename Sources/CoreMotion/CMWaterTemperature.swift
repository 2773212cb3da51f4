/// The water's temperature at one moment (Apple's `CMWaterTemperature`). Immutable.
open class CMWaterTemperature: NSObject, NSCopying, NSSecureCoding {
    private let storedDate: Date
    private let storedTemperature: Double
    private let storedUncertainty: Double

    /// When it was measured.
    open var date: Date { storedDate }
    /// The temperature (stored in °C).
    open var temperature: Measurement<UnitTemperature> { Measurement(value: storedTemperature, unit: .celsius) }
    /// The uncertainty of ``temperature`` (stored in °C, as a temperature difference).
    open var temperatureUncertainty: Measurement<UnitTemperature> { Measurement(value: storedUncertainty, unit: .celsius) }

    /// Creates 0 °C ± 0 at the reference date.
    public override init() {
        storedDate = Date(timeIntervalSinceReferenceDate: 0)
        storedTemperature = 0
        storedUncertainty = 0
        super.init()
    }

    /// Creates a temperature, °C, with its uncertainty, °C.
    init(date: Date, temperature: Double, uncertainty: Double) {
        storedDate = date
        storedTemperature = temperature
        storedUncertainty = uncertainty
        super.init()
    }

    /// Returns the receiver itself: the value is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the value (`date`, `temperature` and `temperatureUncertainty` in °C).
    open func encode(with coder: NSCoder) {
        coder.encode(date: storedDate, forKey: "date")
        coder.encode(storedTemperature, forKey: "temperature")
        coder.encode(storedUncertainty, forKey: "temperatureUncertainty")
    }

    /// Reads an archived value; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let date = coder.decodeDate(forKey: "date"), let temperature = coder.decodeRequiredDouble(forKey: "temperature"),
            let uncertainty = coder.decodeRequiredDouble(forKey: "temperatureUncertainty")
        else { return nil }
        storedDate = date
        storedTemperature = temperature
        storedUncertainty = uncertainty
        super.init()
    }
}
