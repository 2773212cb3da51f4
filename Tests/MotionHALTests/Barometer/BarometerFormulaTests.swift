import MotionMath
import Testing

/// The standard atmosphere's barometric formula (``BarometricFormula``) against the ISA tables.
@Suite struct BarometerFormulaTests {
    @Test func theExponentIsTheStandardOne() {
        #expect(abs(BarometricFormula.exponent - 5.25588) < 5e-6)
    }

    @Test(arguments: [(0.0, 101_325.0), (1000, 89_874.6), (2000, 79_495.2), (5000, 54_019.9), (11_000, 22_632.1), (-500, 107_477.5)])
    func pressuresMatchTheISATable(altitude: Double, pressure: Double) {
        // The ICAO standard atmosphere (Doc 7488) to 0.1 Pa.
        #expect(abs(BarometricFormula.pressure(altitude: altitude) - pressure) < 0.1)
        #expect(abs(BarometricFormula.altitude(pressure: pressure) - altitude) < 0.02)
    }

    @Test func altitudeAndPressureAreInverse() {
        for altitude in stride(from: -500.0, through: 11_000, by: 250) {
            let pressure = BarometricFormula.pressure(altitude: altitude, referencePressure: 95_000)
            #expect(abs(BarometricFormula.altitude(pressure: pressure, referencePressure: 95_000) - altitude) < 1e-8)
        }
    }

    @Test func oneMetreNearTheGroundIsAboutTwelvePascals() {
        // dp/dh = −ρ g: 1.225 kg/m³ × 9.80665 m/s² = 12.01 Pa/m at sea level.
        let difference = BarometricFormula.pressure(altitude: 0) - BarometricFormula.pressure(altitude: 1)
        #expect(abs(difference - 12.01) < 0.01)
        #expect(BarometricFormula.altitude(pressure: 101_325, referencePressure: 101_325) == 0)
    }
}
