/// The reference frames an attitude can be reported in (a bit mask).
///
/// In every frame z is vertical (pointing up, against gravity).
public struct CMAttitudeReferenceFrame: OptionSet, Sendable {
    /// The raw bit mask.
    public let rawValue: UInt

    /// Creates a set from its bit mask.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Creates a set from its bit mask (the unlabelled form Apple's import also provides).
    public init(_ rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// z vertical, x an arbitrary horizontal direction (where the device pointed when updates started).
    /// Accelerometer and gyroscope only (6-axis); yaw drifts slowly.
    public static let xArbitraryZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 0)
    /// z vertical, x an arbitrary but fixed horizontal direction; the magnetometer keeps yaw from drifting
    /// (9-axis).
    public static let xArbitraryCorrectedZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 1)
    /// z vertical, x towards magnetic north (so y towards west). Needs a magnetometer.
    public static let xMagneticNorthZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 2)
    /// z vertical, x towards true (geographic) north. Needs a magnetometer and the local magnetic
    /// declination.
    public static let xTrueNorthZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 3)
}
