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
    static func parse(from root: JSONObjectReader) throws(ConfigurationError) -> MagneticReference? {
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

    /// Checks the ranges.
    /// - Throws: ``ConfigurationError`` naming the field.
    func validate() throws(ConfigurationError) {
        switch self {
        case .location(let latitude, let longitude, let altitude):
            guard abs(latitude) <= 90 else { throw ConfigurationError(fieldPath: "location.latitude", reason: "must be within ±90 degrees") }
            // As CoreMotion's useLinuxLocation and motionctl fuse: east longitudes may also be given as 0…360.
            guard abs(longitude) <= 360 else {
                throw ConfigurationError(fieldPath: "location.longitude", reason: "must be within ±180 degrees (or 0…360)")
            }
            guard (-1_000...1_000_000).contains(altitude) else {
                throw ConfigurationError(fieldPath: "location.altitude", reason: "must be between -1000 and 1000000 m")
            }
        case .declination(let degrees):
            guard abs(degrees) <= 180 else { throw ConfigurationError(fieldPath: "declination", reason: "must be within ±180 degrees") }
        }
    }
}
