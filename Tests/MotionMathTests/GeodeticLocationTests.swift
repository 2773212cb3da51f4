import MotionMath
import Testing

@Suite struct GeodeticLocationTests {
    @Test func parsesTheTextFormAndChecksEachRange() throws {
        let berlin = try GeodeticLocation(parsing: " 52.52, 13.40 ,34")
        let expected = try GeodeticLocation(latitude: 52.52, longitude: 13.40, altitude: 34)
        #expect(berlin == expected)
        #expect(try GeodeticLocation(parsing: "-33.9,151.2").altitude == 0)
        #expect(try GeodeticLocation(latitude: 0, longitude: 359).longitude == 359, "east longitudes as 0…360")
        for (text, component) in [
            ("95,0", GeodeticLocationError.Component.latitude), ("10,400", .longitude), ("1,2,2000000", .altitude),
            ("nan,0", .latitude), ("1", .text), ("1,2,3,4", .text), ("a,b", .text), ("", .text),
        ] {
            #expect(throws: GeodeticLocationError.self, "\(text)") { try GeodeticLocation(parsing: text) }
            do {
                _ = try GeodeticLocation(parsing: text)
            } catch {
                #expect(error.component == component, "\(text): \(error)")
            }
        }
        #expect(throws: GeodeticLocationError(component: .latitude, value: 95, requirement: "within ±90 degrees")) {
            try GeodeticLocation(latitude: 95, longitude: 0)
        }
        #expect("\(GeodeticLocationError(component: .latitude, value: 95, requirement: "within ±90 degrees"))" == "latitude 95.0 is not within ±90 degrees")
    }

    @Test func declinationsAreWithinHalfATurn() {
        #expect(GeodeticLocation.validDeclination(-179.5) == -179.5)
        #expect(GeodeticLocation.validDeclination(181) == nil)
        #expect(GeodeticLocation.validDeclination(.infinity) == nil)
        #expect(GeodeticLocation.validDeclination(nil) == nil)
    }

    @Test func decimalYearCountsLeapYearsInUTC() {
        #expect(GeodeticLocation.decimalYear(unixTime: 0) == 1970)
        // 2024-01-01T00:00:00Z = 1704067200; 2024 is a leap year of 366 days.
        #expect(GeodeticLocation.decimalYear(unixTime: 1_704_067_200) == 2024)
        #expect(abs(GeodeticLocation.decimalYear(unixTime: 1_704_067_200 + 183 * 86_400) - 2024.5) < 1e-12)
        // 2026-07-02T12:00:00Z: day 182.5 of 365.
        #expect(abs(GeodeticLocation.decimalYear(unixTime: 1_782_993_600) - (2026 + 182.5 / 365)) < 1e-9)
        // 2000 is a leap year (divisible by 400), 2100 is not; before 1970 too.
        #expect(GeodeticLocation.decimalYear(unixTime: 946_684_800) == 2000)
        #expect(GeodeticLocation.decimalYear(unixTime: 4_102_444_800) == 2100)
        #expect(GeodeticLocation.decimalYear(unixTime: 4_133_980_800) == 2101, "2100 has 365 days")
        #expect(GeodeticLocation.decimalYear(unixTime: -31_536_000) == 1969)
        #expect(GeodeticLocation.decimalYear(unixTime: 1_704_067_199.5) < 2024)
    }
}
