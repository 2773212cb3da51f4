/// How a Bosch BMP280 / BME280 measures in normal mode for one sample rate: oversampling, IIR filter and
/// standby time, and the conversion timing they give. A pure value; ``BoschBarometerDriver`` writes it.
///
/// The settings follow the datasheet's use cases (BST-BMP280-DS001 table 15 "recommended filter settings"):
/// the best resolution whose conversion fits the sample period is chosen, then the longest standby that
/// keeps the cycle within the period (2 % over it allowed: the chip's oscillator is not closer, and it is
/// how Bosch's "indoor navigation" runs a BME280 at 25 Hz), so the chip runs at the slowest cycle near the
/// rate asked for (a BMP280 at 25 Hz: ×16 pressure, ×2 temperature, IIR 16, standby 0.5 ms, a cycle of
/// 38 ms, 26.3 Hz: "indoor navigation").
///
/// | pressure × | temperature × | IIR | conversion, typical / maximum |
/// |---|---|---|---|
/// | 16 | 2 | 16 | 37.5 / 43.2 ms |
/// | 8 | 1 | 16 | 19.5 / 22.5 ms |
/// | 4 | 1 | 16 | 11.5 / 13.3 ms |
/// | 2 | 1 | 4 | 7.5 / 8.7 ms |
///
/// Conversion times from §3.8.1 (BME280 §9.1): typical `1 + 2·osrs_t + 2·osrs_p + 0.5` ms, maximum
/// `1.25 + 2.3·osrs_t + 2.3·osrs_p + 0.575` ms; a BME280 also measures humidity with ×1 oversampling, which
/// adds `2·osrs_h + 0.5` ms (maximum `2.3·osrs_h + 0.575`): at 25 Hz a cycle of 40.5 ms (24.7 Hz). With
/// the IIR filter on, pressure and temperature have 20 bits of resolution (0.16 Pa at ×16, §3.3.3).
public struct BoschMeasurementSettings: Sendable, Equatable {
    /// Pressure oversampling: 2, 4, 8 or 16 conversions per reading.
    public var pressureOversampling: Int
    /// Temperature oversampling: 1 or 2.
    public var temperatureOversampling: Int
    /// Humidity oversampling: 1 on a BME280, 0 (skipped) on a chip without humidity.
    public var humidityOversampling: Int
    /// IIR filter coefficient: 0 (off), 2, 4, 8 or 16.
    public var filterCoefficient: Int
    /// The t_sb code written to config bits 7:5.
    public var standbyCode: UInt8
    /// The standby time between conversions, ms.
    public var standbyTime: Double

    /// How far a cycle may exceed the period asked for (2 %).
    private static let periodTolerance = 1.02

    /// The choices, best resolution first: (pressure ×, temperature ×, IIR coefficient).
    private static let choices = [(16, 2, 16), (8, 1, 16), (4, 1, 16), (2, 1, 4)]

    /// The settings for `sampleRate` on `variant`, as described on the type.
    /// - Parameters:
    ///   - sampleRate: Hz, > 0 (faster than the fastest cycle gives the fastest settings).
    ///   - variant: the chip, for its standby times.
    public init(sampleRate: Double, variant: BoschBarometerVariant) {
        let period = 1000 / sampleRate
        let humidity = variant.hasHumidity ? 1 : 0
        let standbys = variant.standbyTimes.enumerated().sorted { $0.element > $1.element }
        for (pressure, temperature, filter) in Self.choices {
            let conversion = Self.typicalConversionTime(pressure: pressure, temperature: temperature, humidity: humidity)
            if let standby = standbys.first(where: { conversion + $0.element <= period * Self.periodTolerance }) {
                self.init(pressure, temperature, humidity, filter, UInt8(standby.offset), standby.element)
                return
            }
        }
        let shortest = standbys.last!
        let (pressure, temperature, filter) = Self.choices.last!
        self.init(pressure, temperature, humidity, filter, UInt8(shortest.offset), shortest.element)
    }

    private init(_ pressure: Int, _ temperature: Int, _ humidity: Int, _ filter: Int, _ standbyCode: UInt8, _ standbyTime: Double) {
        pressureOversampling = pressure
        temperatureOversampling = temperature
        humidityOversampling = humidity
        filterCoefficient = filter
        self.standbyCode = standbyCode
        self.standbyTime = standbyTime
    }

    /// The typical conversion time, ms.
    public var measurementTime: Double {
        Self.typicalConversionTime(pressure: pressureOversampling, temperature: temperatureOversampling, humidity: humidityOversampling)
    }

    /// The longest conversion time, ms.
    public var maximumMeasurementTime: Double {
        1.25 + 2.3 * Double(temperatureOversampling) + 2.3 * Double(pressureOversampling) + 0.575
            + (humidityOversampling > 0 ? 2.3 * Double(humidityOversampling) + 0.575 : 0)
    }

    /// One normal-mode cycle, conversion plus standby, ms.
    public var cycleTime: Double { measurementTime + standbyTime }

    /// The rate the chip converts at, Hz.
    public var rate: Double { 1000 / cycleTime }

    /// ctrl_meas: osrs_t, osrs_p (codes 1…5 for ×1…×16) and normal mode.
    var controlMeasurement: UInt8 {
        Self.code(temperatureOversampling) << 5 | Self.code(pressureOversampling) << 2 | BoschBarometerRegisterMap.normalMode
    }

    /// ctrl_hum: osrs_h (0 skipped, 1 ×1).
    var controlHumidity: UInt8 { humidityOversampling == 0 ? 0 : Self.code(humidityOversampling) }

    /// config: t_sb and the filter code (0 off, 1…4 for coefficients 2…16); SPI 3-wire off.
    var configuration: UInt8 {
        standbyCode << 5 | (filterCoefficient == 0 ? 0 : Self.code(filterCoefficient / 2)) << 2
    }

    /// How many conversions have surely completed `elapsed` ns after normal mode began: conversion k
    /// (from 0) counts once its longest conversion time plus k cycles have passed.
    func completedConversions(after elapsed: UInt64) -> Int {
        let ready = Double(elapsed) / 1e6 - maximumMeasurementTime
        return ready < 0 ? 0 : Int(ready / cycleTime) + 1
    }

    /// When conversion `index` (from 0) completes, typically: ns after normal mode began.
    func completionTime(ofConversion index: Int) -> UInt64 {
        UInt64(((measurementTime + Double(index) * cycleTime) * 1e6).rounded())
    }

    private static func typicalConversionTime(pressure: Int, temperature: Int, humidity: Int) -> Double {
        1 + 2 * Double(temperature) + 2 * Double(pressure) + 0.5 + (humidity > 0 ? 2 * Double(humidity) + 0.5 : 0)
    }

    /// The register code of an oversampling of 1, 2, 4, 8 or 16: 1…5 (log₂ + 1).
    private static func code(_ oversampling: Int) -> UInt8 {
        UInt8(Int.bitWidth - oversampling.leadingZeroBitCount)
    }
}
