// CoreLocation's scalar types, which Apple's CoreMotion re-exports for CMOdometerData. Linux has no
// CoreLocation; the names are declared here as Apple declares them (aliases of Double).

/// A distance, m (CoreLocation's `CLLocationDistance`).
public typealias CLLocationDistance = Double
/// An accuracy, m; negative when invalid (CoreLocation's `CLLocationAccuracy`).
public typealias CLLocationAccuracy = Double
/// A speed, m/s; negative when invalid (CoreLocation's `CLLocationSpeed`).
public typealias CLLocationSpeed = Double
/// A speed's accuracy, m/s; negative when invalid (CoreLocation's `CLLocationSpeedAccuracy`).
public typealias CLLocationSpeedAccuracy = Double

/// Which device measured odometer data.
public enum CMOdometerOriginDevice: Int, Sendable {
    /// Not known.
    case unknown = 0
    /// This device.
    case local = 1
    /// A paired device.
    case remote = 2
}

/// Odometer data for workouts (Apple's `CMOdometerData`): speed, slope and the distance since the last
/// location. Apple's devices make it from GPS and the motion coprocessor for SensorKit and workouts; a board
/// has no GPS, so no API here produces it (it exists so code that handles it compiles). Immutable.
open class CMOdometerData: NSObject, NSCopying, NSSecureCoding {
    private let values: Values

    /// The values, all in SI units.
    struct Values {
        var startDate = Date(timeIntervalSinceReferenceDate: 0)
        var endDate = Date(timeIntervalSinceReferenceDate: 0)
        var gpsDate = Date(timeIntervalSinceReferenceDate: 0)
        var deltaDistance = 0.0
        var deltaDistanceAccuracy = -1.0
        var speed = -1.0
        var speedAccuracy = -1.0
        var deltaAltitude = 0.0
        var verticalAccuracy = -1.0
        var slope = 0.0
        var maxAbsSlope = 0.0
        var originDevice = CMOdometerOriginDevice.unknown
    }

    /// The start of the interval the data covers.
    open var startDate: Date { values.startDate }
    /// The end of the interval the data covers.
    open var endDate: Date { values.endDate }
    /// The time of the GPS fix the data was made with.
    open var gpsDate: Date { values.gpsDate }
    /// The distance travelled since the last location, m.
    open var deltaDistance: CLLocationDistance { values.deltaDistance }
    /// The accuracy of ``deltaDistance``, m; negative when invalid.
    open var deltaDistanceAccuracy: CLLocationAccuracy { values.deltaDistanceAccuracy }
    /// The instantaneous speed, m/s; negative when invalid.
    open var speed: CLLocationSpeed { values.speed }
    /// The accuracy of ``speed``, m/s; negative when invalid.
    open var speedAccuracy: CLLocationSpeedAccuracy { values.speedAccuracy }
    /// The change of altitude since the last location, m.
    open var deltaAltitude: CLLocationDistance { values.deltaAltitude }
    /// The accuracy of ``deltaAltitude``, m; negative when invalid.
    open var verticalAccuracy: CLLocationAccuracy { values.verticalAccuracy }
    /// The slope in the direction of travel, degrees.
    open var slope: Double { values.slope }
    /// The largest absolute slope in any direction, degrees.
    open var maxAbsSlope: Double { values.maxAbsSlope }
    /// Which device measured the data.
    open var originDevice: CMOdometerOriginDevice { values.originDevice }

    /// Creates empty data (no distance, invalid speed and accuracies).
    public override init() {
        values = Values()
        super.init()
    }

    /// Returns the receiver itself: the data is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True.
    public class var supportsSecureCoding: Bool { true }

    private static var doubleKeys: [(String, WritableKeyPath<Values, Double>)] {
        [
        ("deltaDistance", \.deltaDistance), ("deltaDistanceAccuracy", \.deltaDistanceAccuracy), ("speed", \.speed),
        ("speedAccuracy", \.speedAccuracy), ("deltaAltitude", \.deltaAltitude), ("verticalAccuracy", \.verticalAccuracy),
        ("slope", \.slope), ("maxAbsSlope", \.maxAbsSlope),
        ]
    }

    /// Archives the data (every property under its own name; dates as seconds since 1970).
    open func encode(with coder: NSCoder) {
        coder.encode(date: values.startDate, forKey: "startDate")
        coder.encode(date: values.endDate, forKey: "endDate")
        coder.encode(date: values.gpsDate, forKey: "gpsDate")
        for (key, path) in Self.doubleKeys { coder.encode(values[keyPath: path], forKey: key) }
        coder.encode(values.originDevice.rawValue, forKey: "originDevice")
    }

    /// Reads archived data; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let start = coder.decodeDate(forKey: "startDate"), let end = coder.decodeDate(forKey: "endDate"),
            let gps = coder.decodeDate(forKey: "gpsDate"),
            let origin = CMOdometerOriginDevice(rawValue: coder.decodeInteger(forKey: "originDevice"))
        else { return nil }
        var values = Values(startDate: start, endDate: end, gpsDate: gps, originDevice: origin)
        for (key, path) in Self.doubleKeys {
            guard let value = coder.decodeRequiredDouble(forKey: key) else { return nil }
            values[keyPath: path] = value
        }
        self.values = values
        super.init()
    }
}
