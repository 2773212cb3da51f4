import MotionContract
import MotionMath

/// How the agent learns the magnetic declination that true north (`xTrueNorthZVertical`) needs: from the
/// board's location through the World Magnetic Model, or given directly.
public enum MagneticReference: Sendable, Equatable {
    /// Where the board is: geodetic latitude and longitude in degrees (north, east positive) and height
    /// above the WGS 84 ellipsoid in metres.
    case location(latitude: Double, longitude: Double, altitude: Double)
    /// The declination itself, degrees east of true north (negative west).
    case declination(Double)

    /// Reads the configuration's `location` object or `declination` number (at most one of them).
    /// - Throws: ``ConfigurationError`` naming the field.
    static func parse(from root: ConfigurationReader) throws(ConfigurationError) -> MagneticReference? {
        let declination = try root.number("declination")
        guard let location = try root.object("location") else { return declination.map { .declination($0) } }
        guard declination == nil else {
            throw ConfigurationError(fieldPath: "declination", reason: "give location or declination, not both")
        }
        try location.rejectUnknownKeys(["latitude", "longitude", "altitude"])
        guard let latitude = try location.number("latitude") else {
            throw ConfigurationError(fieldPath: "location.latitude", reason: "is required (degrees north)")
        }
        guard let longitude = try location.number("longitude") else {
            throw ConfigurationError(fieldPath: "location.longitude", reason: "is required (degrees east)")
        }
        return .location(latitude: latitude, longitude: longitude, altitude: try location.number("altitude") ?? 0)
    }

    /// The reference the environment gives a configuration without `location` and `declination`:
    /// `MOTION_DECLINATION` (degrees east) or else `MOTION_LOCATION` (`LAT,LON[,ALT_M]`), as CoreMotion
    /// programs take them; `nil` when neither is set (or both are empty).
    /// - Throws: ``ConfigurationError`` naming the variable when its value cannot be used.
    static func fromEnvironment(_ variables: [String: String]) throws(ConfigurationError) -> MagneticReference? {
        if let text = variables["MOTION_DECLINATION"], !text.isEmpty {
            guard let degrees = GeodeticLocation.validDeclination(Double(text.trimmingBlanks())) else {
                throw ConfigurationError(fieldPath: "MOTION_DECLINATION (environment)", reason: "must be a number of degrees within ±180")
            }
            return .declination(degrees)
        }
        guard let text = variables["MOTION_LOCATION"], !text.isEmpty else { return nil }
        do {
            let location = try GeodeticLocation(parsing: text)
            return .location(latitude: location.latitude, longitude: location.longitude, altitude: location.altitude)
        } catch {
            throw ConfigurationError(fieldPath: "MOTION_LOCATION (environment)", reason: "must be \(error.requirement)")
        }
    }

    /// Checks the ranges.
    /// - Throws: ``ConfigurationError`` naming the field.
    func validate() throws(ConfigurationError) {
        switch self {
        case .location(let latitude, let longitude, let altitude):
            _ = try Self.geodeticLocation(latitude: latitude, longitude: longitude, altitude: altitude)
        case .declination(let degrees):
            guard GeodeticLocation.validDeclination(degrees) != nil else {
                throw ConfigurationError(fieldPath: "declination", reason: "must be within ±180 degrees")
            }
        }
    }

    /// The checked location.
    /// - Throws: ``ConfigurationError`` naming `location.latitude`, `location.longitude` or `location.altitude`.
    static func geodeticLocation(latitude: Double, longitude: Double, altitude: Double) throws(ConfigurationError)
        -> GeodeticLocation
    {
        do {
            return try GeodeticLocation(latitude: latitude, longitude: longitude, altitude: altitude)
        } catch {
            throw ConfigurationError(fieldPath: "location.\(error.component.rawValue)", reason: "must be \(error.requirement)")
        }
    }
}
