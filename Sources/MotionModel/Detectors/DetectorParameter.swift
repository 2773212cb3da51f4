/// One configurable threshold of a detector, declared once: its configuration key, the settings' field
/// that holds it (whose initial value is the default), the values accepted and the unit. The
/// configuration file, remote configuration, the `{base}/config` report and the schema tests all read
/// these; the detectors read the typed field.
///
/// Not `Sendable` (a key path): the tables are computed properties, built where they are read.
public struct DetectorParameter<Settings> {
    /// The configuration key (`threshold`, `minimum_duration`).
    public let key: String
    /// The field of `Settings` that holds the value.
    public let field: WritableKeyPath<Settings, Double>
    /// The value when not configured (the field's initial value).
    public let defaultValue: Double
    /// The values accepted.
    public let range: ClosedRange<Double>
    /// The unit as the documentation and error messages write it (`g`, `s`, `°`, `rad/s`, `steps/s`;
    /// empty for a ratio or a count).
    public let unit: String
    /// Whether only whole numbers are accepted (a count).
    public let isWhole: Bool

    /// Declares a parameter of a detector's settings, its default taken from the settings' defaults.
    /// - Parameters:
    ///   - key: the configuration key.
    ///   - field: the settings' field.
    ///   - range: the values accepted.
    ///   - unit: the unit as documented (empty for none).
    ///   - isWhole: whether only whole numbers are accepted.
    public init(_ key: String, _ field: WritableKeyPath<Settings, Double>, range: ClosedRange<Double>, unit: String, isWhole: Bool = false)
    where Settings: DetectorThresholds {
        self.init(key, field, defaultValue: Settings()[keyPath: field], range: range, unit: unit, isWhole: isWhole)
    }

    private init(
        _ key: String, _ field: WritableKeyPath<Settings, Double>, defaultValue: Double, range: ClosedRange<Double>, unit: String,
        isWhole: Bool
    ) {
        self.key = key
        self.field = field
        self.defaultValue = defaultValue
        self.range = range
        self.unit = unit
        self.isWhole = isWhole
    }

    /// The same parameter reached through `path` from an enclosing value (a detector's parameter as one of
    /// ``MotionDetectorSettings``).
    public func lifted<Outer>(through path: WritableKeyPath<Outer, Settings>) -> DetectorParameter<Outer> {
        DetectorParameter<Outer>(key, path.appending(path: field), defaultValue: defaultValue, range: range, unit: unit, isWhole: isWhole)
    }
}

/// The typed settings of one detector: its thresholds with their defaults as the fields' initial values,
/// and the table of its configurable ones.
public protocol DetectorThresholds: Sendable, Equatable {
    /// The configurable thresholds, in the configuration's order.
    static var parameters: [DetectorParameter<Self>] { get }
    /// The defaults.
    init()
}
