import MotionContract
import MotionFusion

/// The on-board motion detectors (`detectors` in the configuration file and in remote documents): whether
/// they run, how `{base}/events` is published, and each detector's switch and thresholds.
///
/// Every threshold is a ``Parameter`` with its unit, its default (the detector's documented default, see
/// docs/FUSION.md) and the range it is checked against; a file or document sets only what it names.
/// The vibration bands are a list of `[low, high]` pairs in Hz; the tilt's reference is `"start"` or a
/// gravity direction `[x, y, z]` in the device's axes.
public struct DetectorSettings: Sendable, Equatable {
    /// The detectors, by their configuration names (the model's ``MotionDetectorKind``).
    public typealias Detector = MotionDetectorKind

    /// One threshold of a detector.
    public struct Parameter: Sendable {
        /// The configuration key.
        public let key: String
        /// Its value when not configured.
        public let defaultValue: Double
        /// The values accepted.
        public let range: ClosedRange<Double>
        /// The unit, as the documentation writes it.
        public let unit: String
        /// Whether only whole numbers are accepted.
        public let isWhole: Bool

        init(_ key: String, _ defaultValue: Double, _ range: ClosedRange<Double>, _ unit: String, whole: Bool = false) {
            self.key = key
            self.defaultValue = defaultValue
            self.range = range
            self.unit = unit
            isWhole = whole
        }
    }

    /// The thresholds of `detector`.
    public static func parameters(of detector: Detector) -> [Parameter] {
        switch detector {
        case .freeFall: [Parameter("threshold", 0.3, 0.05...0.9, "g"), Parameter("minimum_duration", 0.2, 0.02...2, "s")]
        case .impact: [Parameter("threshold", 2.5, 1.2...64, "g")]
        case .tap: [Parameter("threshold", 1, 0.1...16, "g"), Parameter("double_tap_window", 0.4, 0.1...2, "s")]
        case .shake: [Parameter("threshold", 1.2, 0.2...16, "g"), Parameter("reversals", 3, 2...20, "", whole: true)]
        case .orientation: [Parameter("hysteresis", 0.2, 0...0.5, "")]
        case .tilt: [Parameter("threshold", 30, 1...179, "°"), Parameter("hysteresis", 5, 0...90, "°")]
        case .moving:
            [Parameter("acceleration", 0.05, 0.005...1, "g"), Parameter("rotation", 0.2, 0.01...5, "rad/s"),
             Parameter("confirm", 0.5, 0...10, "s"), Parameter("settle", 2, 0...60, "s")]
        case .vibration:
            [Parameter("threshold", 0.1, 0.001...10, "g"), Parameter("confirm", 2, 0...600, "s"), Parameter("stop", 5, 0...3_600, "s")]
        case .activity: [Parameter("running_cadence", 2.4, 1...5, "steps/s")]
        }
    }

    /// The default vibration band, Hz.
    public static let defaultBands: [ClosedRange<Double>] = [20...100]
    /// The most vibration bands.
    public static let maximumBands = 4

    /// Whether the detectors run (and `{base}/events` and `{base}/state/…` are published). Default true.
    public var enabled = true
    /// MQTT quality of service of `{base}/events`, 0…2. Default 1 (kept in the offline buffer).
    public var qos = 1
    /// How `{base}/events` payloads are written (the state topics stay JSON). Default JSON.
    public var format: PayloadFormat = .json
    /// The detectors switched off (every one runs by default).
    public var switchedOff: Set<Detector> = []
    /// The thresholds set, by detector and key (the others have their defaults).
    public private(set) var values: [Detector: [String: Double]] = [:]
    /// The vibration bands, Hz.
    public var bands: [ClosedRange<Double>] = DetectorSettings.defaultBands
    /// The direction of gravity, device axes (unit vector), from which the tilt is measured; nil: the
    /// direction when the detectors start (the default, `"start"`). A door sensor gives the closed door's
    /// (`[0, -1, 0]` for a board upright in portrait), so that a restart while the door is open still
    /// reads tilted.
    public var tiltReference: SIMD3<Double>?

    /// The defaults: every detector on with its documented thresholds.
    public init() {}

    /// Whether `detector` runs (the detectors are on and it is not switched off).
    public func isOn(_ detector: Detector) -> Bool { enabled && !switchedOff.contains(detector) }

    /// The value of a threshold (its default when not set).
    /// - Precondition: `key` is one of ``parameters(of:)``'s.
    public func value(_ detector: Detector, _ key: String) -> Double {
        if let value = values[detector]?[key] { return value }
        guard let parameter = Self.parameters(of: detector).first(where: { $0.key == key }) else {
            preconditionFailure("\(detector.rawValue) has no threshold \(key)")
        }
        return parameter.defaultValue
    }

    /// Sets a threshold (checked by ``validate()``); a value equal to the default is not kept, so that
    /// settings that behave alike are equal.
    public mutating func set(_ detector: Detector, _ key: String, to value: Double) {
        let isDefault = Self.parameters(of: detector).contains { $0.key == key && $0.defaultValue == value }
        values[detector, default: [:]][key] = isDefault ? nil : value
        if values[detector]?.isEmpty == true { values[detector] = nil }
    }

    /// Whether `other` detects the same (the same detectors with the same thresholds), whatever the events'
    /// QoS and format.
    public func detectsAlike(_ other: DetectorSettings) -> Bool {
        var same = other
        same.qos = qos
        same.format = format
        return same == self
    }

    /// The state topics of the detectors that run.
    public var publishedStates: [MotionStateName] { Detector.allCases.filter(isOn).compactMap(\.stateKind) }
}
