/// A place on the Earth: geodetic latitude and longitude (WGS 84), degrees, and height above the
/// ellipsoid, m. What the World Magnetic Model needs for the declination that true north takes; every
/// program that accepts a location (the agent's configuration, CoreMotion's `CMLinuxMotionDevice.useLocation`, the
/// environment's `MOTION_LOCATION`, `motionctl fuse --location`) parses and checks it here.
public struct GeodeticLocation: Sendable, Equatable {
    /// Degrees north (negative south), within ±90.
    public let latitude: Double
    /// Degrees east (negative west), within ±180; east longitudes may also be given as 0…360.
    public let longitude: Double
    /// Height above the WGS 84 ellipsoid, m, between −1 km and 1000 km.
    public let altitude: Double

    /// The heights the World Magnetic Model is meant for, m.
    public static let altitudeRange = -1_000.0...1_000_000.0

    /// Creates a location after checking its ranges.
    /// - Parameters:
    ///   - latitude: degrees north, within ±90.
    ///   - longitude: degrees east, within ±180 (or 0…360).
    ///   - altitude: metres above the WGS 84 ellipsoid, −1 km … 1000 km.
    /// - Throws: ``GeodeticLocationError`` naming the first value out of range (or not finite).
    public init(latitude: Double, longitude: Double, altitude: Double = 0) throws(GeodeticLocationError) {
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw GeodeticLocationError(component: .latitude, value: latitude, requirement: "within ±90 degrees")
        }
        guard longitude.isFinite, abs(longitude) <= 360 else {
            throw GeodeticLocationError(component: .longitude, value: longitude, requirement: "within ±180 degrees (or 0…360)")
        }
        guard altitude.isFinite, Self.altitudeRange.contains(altitude) else {
            throw GeodeticLocationError(component: .altitude, value: altitude, requirement: "between -1000 and 1000000 m")
        }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Parses `latitude,longitude[,altitude m]` (blanks around the numbers ignored), e.g. `52.52,13.40,34`.
    /// - Throws: ``GeodeticLocationError`` for text of another form or a value out of range.
    public init(parsing text: String) throws(GeodeticLocationError) {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingBlanks()) }
        guard (2...3).contains(values.count), let latitude = values[0], let longitude = values[1],
            let altitude = values.count == 3 ? values[2] : 0
        else {
            throw GeodeticLocationError(
                component: .text, value: .nan, requirement: "LAT,LON or LAT,LON,ALT_M in degrees and metres")
        }
        try self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// `degrees` if it is a magnetic declination (finite, within ±180°), otherwise nil.
    public static func validDeclination(_ degrees: Double?) -> Double? {
        guard let degrees, degrees.isFinite, abs(degrees) <= 180 else { return nil }
        return degrees
    }

    /// A Unix time as a decimal year in UTC (the World Magnetic Model's time scale), e.g. 2026.5 in early
    /// July 2026: the year plus the fraction of it elapsed, with leap years counted.
    /// - Parameter unixTime: seconds since 1970-01-01T00:00:00Z.
    public static func decimalYear(unixTime: Double) -> Double {
        let year = UTCDateTime(unixTime: unixTime).year
        let start = Double(UTCDateTime.daysSinceEpoch(year: year, month: 1, day: 1)) * 86_400
        let end = Double(UTCDateTime.daysSinceEpoch(year: year + 1, month: 1, day: 1)) * 86_400
        return Double(year) + (unixTime - start) / (end - start)
    }
}

/// A location value that is out of range, or text that is not a location.
public struct GeodeticLocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which part of the location is wrong.
    public enum Component: String, Sendable {
        case latitude, longitude, altitude
        /// The text as a whole (not `LAT,LON[,ALT_M]`).
        case text
    }

    /// The part that is wrong.
    public let component: Component
    /// The value given (NaN for ``Component/text``).
    public let value: Double
    /// What the value must be, e.g. `within ±90 degrees`.
    public let requirement: String

    /// Creates an error.
    /// - Parameters:
    ///   - component: the wrong part.
    ///   - value: the value given (NaN for the text as a whole).
    ///   - requirement: what the value must be.
    public init(component: Component, value: Double, requirement: String) {
        self.component = component
        self.value = value
        self.requirement = requirement
    }

    /// For example `latitude 95.0 is not within ±90 degrees`.
    public var description: String {
        component == .text
            ? "a location is \(requirement)"
            : "\(component.rawValue) \(value)\(component == .altitude ? " m" : "") is not \(requirement)"
    }
}
