import MotionModel

/// The board's motion detectors as a Sparkplug B device, `detectors`: each event type's count, magnitude
/// and duration, and each state's values, named after the native payloads' keys (docs/MQTT-CONTRACT.md,
/// "Sparkplug B"). An event's metrics carry the time it began; a state's, the time it began to hold.
///
/// | metric | datatype | unit |
/// |---|---|---|
/// | `Events/{type}/count` | UInt64 | events of the type since the agent started |
/// | `Events/{type}/magnitude` | Double | m (free fall's height) or g |
/// | `Events/{type}/duration` | Double | s |
/// | `State/moving`, `State/tilted`, `State/running` | Boolean | |
/// | `State/orientation`, `State/activity`, `State/confidence`, `State/zone` | String | |
/// | `State/angle` | Double | deg |
/// | `State/level` | Double | g (the first band's RMS) |
/// | `State/velocityRMS` | Double | mm/s |
///
/// The vibration bands' own levels are the native contract's alone (their number follows the settings).
public enum SparkplugDetectorMetrics {
    /// The device's name in the edge node's topics.
    public static let device = "detectors"

    /// Every metric the device can publish, with its datatype and unit and no value: its birth before the
    /// first event and state.
    public static var declarations: [SparkplugMetric] {
        var metrics: [SparkplugMetric] = []
        for kind in MotionEventKind.allCases {
            metrics.append(SparkplugMetric(name: eventName(kind.rawValue, "count"), nullOf: .uint64))
            metrics.append(measurement(eventName(kind.rawValue, "magnitude"), nil, unit: kind.unit))
            metrics.append(measurement(eventName(kind.rawValue, "duration"), nil, unit: "s"))
        }
        for (key, dataType, unit) in stateKeys {
            metrics.append(dataType == .double ? measurement(stateName(key), nil, unit: unit) : SparkplugMetric(name: stateName(key), nullOf: dataType))
        }
        return metrics
    }

    /// An event's metrics, at the time it began.
    /// - Parameter count: events of its type since the agent started, this one included.
    public static func metrics(of event: MotionEventPayload, count: UInt64) -> [SparkplugMetric] {
        let timestamp = SamplePayloadEncoder.sparkplugTimestamp(unixTime: event.ts)
        var metrics = [
            SparkplugMetric(name: eventName(event.type, "count"), value: .uint64(count)),
            measurement(eventName(event.type, "magnitude"), event.magnitude, unit: event.unit),
            measurement(eventName(event.type, "duration"), event.duration, unit: "s"),
        ]
        for index in metrics.indices { metrics[index].timestamp = timestamp }
        return metrics
    }

    /// A state's metrics, at the time it began to hold (a part that is absent, such as the vibration
    /// service's severity while it is off, is left out).
    public static func metrics(of state: MotionStatePayload) -> [SparkplugMetric] {
        var metrics: [SparkplugMetric]
        switch state.value {
        case .moving(let moving): metrics = [SparkplugMetric(name: stateName("moving"), value: .boolean(moving))]
        case .orientation(let orientation): metrics = [SparkplugMetric(name: stateName("orientation"), value: .string(orientation))]
        case .tilt(let tilted, let angle):
            metrics = [SparkplugMetric(name: stateName("tilted"), value: .boolean(tilted)), measurement(stateName("angle"), angle, unit: "deg")]
        case .vibration(let running, let bands, let severity):
            metrics = []
            if let running {
                metrics.append(SparkplugMetric(name: stateName("running"), value: .boolean(running)))
                metrics.append(measurement(stateName("level"), bands.first?.rms ?? 0, unit: "g"))
            }
            if let severity {
                metrics.append(SparkplugMetric(name: stateName("zone"), value: .string(severity.zone)))
                metrics.append(measurement(stateName("velocityRMS"), severity.velocityRMS, unit: "mm/s"))
            }
        case .activity(let activity, let confidence):
            metrics = [
                SparkplugMetric(name: stateName("activity"), value: .string(activity)),
                SparkplugMetric(name: stateName("confidence"), value: .string(confidence)),
            ]
        }
        let timestamp = SamplePayloadEncoder.sparkplugTimestamp(unixTime: state.ts)
        for index in metrics.indices { metrics[index].timestamp = timestamp }
        return metrics
    }

    /// The states' keys (the native payloads'), their datatypes and units.
    private static let stateKeys: [(String, SparkplugDataType, String?)] = [
        ("moving", .boolean, nil), ("orientation", .string, nil), ("tilted", .boolean, nil), ("angle", .double, "deg"),
        ("running", .boolean, nil), ("level", .double, "g"), ("zone", .string, nil), ("velocityRMS", .double, "mm/s"),
        ("activity", .string, nil), ("confidence", .string, nil),
    ]

    /// The name of the count of events of `type` (a host reads a gap in it as events it missed).
    public static func countName(of type: String) -> String { eventName(type, "count") }

    private static func eventName(_ type: String, _ key: String) -> String { "Events/\(type)/\(key)" }
    private static func stateName(_ key: String) -> String { "State/\(key)" }

    /// A Double metric with its unit (`value` nil: null).
    private static func measurement(_ name: String, _ value: Double?, unit: String?) -> SparkplugMetric {
        var metric = value.map { SparkplugMetric(name: name, value: .double($0)) } ?? SparkplugMetric(name: name, nullOf: .double)
        if let unit { metric.properties = [SparkplugProperty(SparkplugProperty.engineeringUnitKey, .string(unit))] }
        return metric
    }
}
