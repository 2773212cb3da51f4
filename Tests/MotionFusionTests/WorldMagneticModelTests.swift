import MotionFusion
import MotionMath
import Testing

/// WMM2025 against an independent implementation (the `pygeomag` package's WMM2025, the same public
/// coefficients): declination, inclination and intensity at places around the globe.
@Suite struct WorldMagneticModelTests {
    /// (latitude °, longitude °, altitude km, year, declination °, intensity nT, inclination °) from pygeomag 1.1.0.
    static let references: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (52.52, 13.40, 0, 2026.9, 5.1965, 50103.0, 68.109),  // Berlin
        (37.77, -122.42, 0, 2026.9, 12.8195, 47305.5, 61.034),  // San Francisco
        (-33.87, 151.21, 0.1, 2025.5, 12.7999, 56995.2, -64.391),  // Sydney
        (80, 0, 0, 2025.0, 1.2815, 55178.5, 83.211),
        (0, 120, 0, 2025.0, -0.1583, 41064.3, -14.931),
        (-80, 240, 100, 2027.5, 67.9316, 51825.7, -72.102),
        (64.1, -21.9, 0, 2026.0, -11.2451, 52565.8, 75.4),  // Reykjavík
    ]

    @Test func matchesAnIndependentImplementation() {
        let model = WorldMagneticModel.wmm2025
        for (latitude, longitude, altitude, year, declination, intensity, inclination) in Self.references {
            let field = model.field(latitude: latitude, longitude: longitude, altitude: altitude, year: year)
            #expect(abs(field.declination - declination) < 0.01, "\(latitude), \(longitude): D \(field.declination)°")
            #expect(abs(field.intensity - intensity) < 1, "\(latitude), \(longitude): F \(field.intensity) nT")
            #expect(abs(field.inclination - inclination) < 0.01, "\(latitude), \(longitude): I \(field.inclination)°")
        }
        #expect(model.isValid(at: 2026.9) && !model.isValid(at: 2031))
    }
}
