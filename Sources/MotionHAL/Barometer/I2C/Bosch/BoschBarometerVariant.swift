/// What differs between the Bosch barometers ``BoschBarometerDriver`` runs: a table, not copies of code.
///
/// Sources: BST-BMP280-DS001 table 11 (t_sb) and §4.3.1 (id 0x58); BST-BME280-DS002 table 27 (t_sb, codes
/// 110 and 111 are 10 and 20 ms) and §5.4.1 (id 0x60), §5.4.3 (ctrl_hum must be written before ctrl_meas).
public struct BoschBarometerVariant: Sendable, Equatable {
    /// The part number, e.g. `BMP280`.
    public var name: String
    /// The value of the id register (0xD0).
    public var chipIdentity: UInt8
    /// The standby time of each t_sb code 0…7 in normal mode, ms.
    public var standbyTimes: [Double]
    /// Whether the chip has a humidity sensor (measured with ×1 oversampling, ``BoschMeasurementSettings``).
    public var hasHumidity: Bool
    /// The rates the driver offers, Hz: from the slowest normal-mode cycle to the fastest (×2 pressure
    /// oversampling with 0.5 ms standby: 125 Hz, 95 Hz with humidity).
    public var supportedSampleRates: ClosedRange<Double>

    /// The BMP280: id 0x58, standby 0.5 ms … 4 s.
    public static let bmp280 = BoschBarometerVariant(
        name: "BMP280", chipIdentity: 0x58, standbyTimes: [0.5, 62.5, 125, 250, 500, 1000, 2000, 4000],
        hasHumidity: false, supportedSampleRates: 0.25...125)
    /// The BME280: id 0x60, standby 0.5 ms … 1 s (with 10 and 20 ms), humidity measured; up to 95 Hz (the
    /// humidity's 2.5 ms added to the fastest conversion, 10.5 ms with the shortest standby).
    public static let bme280 = BoschBarometerVariant(
        name: "BME280", chipIdentity: 0x60, standbyTimes: [0.5, 62.5, 125, 250, 500, 1000, 10, 20],
        hasHumidity: true, supportedSampleRates: 1...95)
}
