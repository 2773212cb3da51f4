#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The barometric formula of the ICAO / ISA standard atmosphere in its troposphere (below 11 km), where
/// the temperature falls linearly with height:
///
///     p(h) = p₀ · (1 − L·h / T₀)^(g₀·M / (R·L))        h(p) = T₀ / L · (1 − (p / p₀)^(R·L / (g₀·M)))
///
/// with T₀ = 288.15 K, L = 0.0065 K/m, g₀ = 9.80665 m/s², M = 0.0289644 kg/mol and R* = 8.31432 J/(mol·K),
/// so the exponent is 5.25588. R* is the value the ISA (ICAO Doc 7488, US Standard Atmosphere 1976) is
/// defined with; CODATA's 8.3144598 would give 5.25579 and differ from the ICAO tables by up to 0.6 Pa
/// below 11 km. `p₀` is the pressure at the reference height (101 325 Pa at sea level in the standard
/// atmosphere; a barometer's reading at the start for heights relative to the start).
///
/// Pure functions, valid for heights of about −500 m … 11 000 m above the reference; outside that the
/// formula extrapolates (and has no real value at or above T₀ / L ≈ 44 331 m).
public enum BarometricFormula {
    /// T₀: the standard temperature at the reference height, K.
    public static let standardTemperature = 288.15
    /// L: the temperature lapse rate of the troposphere, K/m.
    public static let temperatureLapseRate = 0.0065
    /// g₀: standard gravity, m/s².
    public static let standardGravity = 9.80665
    /// M: the molar mass of dry air, kg/mol.
    public static let molarMassOfAir = 0.0289644
    /// R*: the universal gas constant as the standard atmosphere defines it, J/(mol·K).
    public static let gasConstant = 8.31432
    /// The standard atmosphere's pressure at sea level, Pa.
    public static let standardPressure = 101_325.0
    /// The exponent g₀·M / (R·L) (dimensionless, 5.25588).
    public static let exponent = standardGravity * molarMassOfAir / (gasConstant * temperatureLapseRate)

    /// The height above the reference at which the standard atmosphere has `pressure`, m.
    /// - Parameters:
    ///   - pressure: Pa, > 0.
    ///   - referencePressure: the pressure at height 0, Pa, > 0 (default 101 325 Pa, sea level).
    /// - Returns: metres above the reference (negative below it).
    public static func altitude(pressure: Double, referencePressure: Double = standardPressure) -> Double {
        standardTemperature / temperatureLapseRate * (1 - pow(pressure / referencePressure, 1 / exponent))
    }

    /// The standard atmosphere's pressure at `altitude` above the reference, Pa.
    /// - Parameters:
    ///   - altitude: metres above the reference (negative below it), below 44 331 m.
    ///   - referencePressure: the pressure at height 0, Pa (default 101 325 Pa, sea level).
    /// - Returns: Pa.
    public static func pressure(altitude: Double, referencePressure: Double = standardPressure) -> Double {
        referencePressure * pow(1 - temperatureLapseRate * altitude / standardTemperature, exponent)
    }
}
