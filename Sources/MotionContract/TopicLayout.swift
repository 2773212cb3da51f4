/// The topic names of one device, as defined by the MQTT contract (`{prefix}/{device_id}/…`).
public struct TopicLayout: Sendable, Equatable {
    /// The first topic level, under which every device has its subtree.
    public let prefix: String
    /// `{prefix}/{device_id}`, the root of every topic of this device.
    public let base: String

    /// Creates the layout for a device.
    /// - Parameters:
    ///   - prefix: the first topic level, `motion` by default.
    ///   - deviceID: the device identifier (already sanitised, see ``DeviceIdentifier``).
    public init(prefix: String, deviceID: String) {
        self.prefix = prefix
        base = "\(prefix)/\(deviceID)"
        accelerometerTopic = "\(base)/\(MotionService.accelerometer.topicName)"
        gyroTopic = "\(base)/\(MotionService.gyro.topicName)"
        magnetometerTopic = "\(base)/\(MotionService.magnetometer.topicName)"
        deviceMotionTopic = "\(base)/\(MotionService.deviceMotion.topicName)"
        stepsTopic = "\(base)/\(MotionService.steps.topicName)"
        activityTopic = "\(base)/\(MotionService.activity.topicName)"
        altitudeTopic = "\(base)/\(MotionService.altitude.topicName)"
        vibrationTopic = "\(base)/\(MotionService.vibration.topicName)"
    }

    // The data topics, built once: they are used for every message.
    private let accelerometerTopic: String
    private let gyroTopic: String
    private let magnetometerTopic: String
    private let deviceMotionTopic: String
    private let stepsTopic: String
    private let activityTopic: String
    private let altitudeTopic: String
    private let vibrationTopic: String

    /// Retained `online` / `offline`; the last will.
    public var status: String { "\(base)/status" }
    /// Retained JSON description of the agent and device.
    public var info: String { "\(base)/info" }
    /// Periodic JSON health report.
    public var health: String { "\(base)/health" }
    /// Where answers to malformed commands go when the command named no response topic.
    public var error: String { "\(base)/error" }
    /// Retained ``ConfigurationReport``: the run-time configuration in force, its version and sources.
    public var configuration: String { "\(base)/config" }
    /// Where a run-time configuration document (a JSON merge patch) is sent to the device.
    public var configurationControl: String { "\(base)/config/set" }
    /// The motion detectors' events (``MotionEventPayload``; QoS 1 by default, not retained).
    public var events: String { "\(base)/events" }
    /// The retained topic of a detector's state (``MotionStatePayload``).
    public func state(_ name: MotionStateName) -> String { "\(base)/state/\(name.topicName)" }
    /// The filter that matches every service's control topic (and ``configurationControl``).
    public var allControlTopics: String { "\(base)/+/set" }

    /// The data topic of a service.
    public func data(_ service: MotionService) -> String {
        switch service {
        case .accelerometer: accelerometerTopic
        case .gyro: gyroTopic
        case .magnetometer: magnetometerTopic
        case .deviceMotion: deviceMotionTopic
        case .steps: stepsTopic
        case .activity: activityTopic
        case .altitude: altitudeTopic
        case .vibration: vibrationTopic
        }
    }

    /// The vibration service's spectra (``VibrationSpectrumPayload``; since 1.8).
    public var vibrationSpectrum: String { "\(vibrationTopic)/spectrum" }
    /// The retained status topic of a service.
    public func status(_ service: MotionService) -> String { "\(base)/\(service.topicName)/status" }
    /// The control topic of a service.
    public func control(_ service: MotionService) -> String { "\(base)/\(service.topicName)/set" }

    /// The service whose control topic is `topic`, or `nil` when `topic` is not a control topic of this device.
    public func service(forControlTopic topic: String) -> MotionService? {
        let prefix = base + "/"
        guard topic.hasPrefix(prefix), topic.hasSuffix("/set") else { return nil }
        let middle = topic.dropFirst(prefix.count).dropLast("/set".count)
        return MotionService(topicName: String(middle))
    }

    /// Whether `prefix` can stand before a topic's own levels: not empty, no wildcard (`+`, `#`), no slash
    /// at either end (it may have several levels, `site/motion`).
    public static func isTopicPrefix(_ prefix: String) -> Bool {
        !prefix.isEmpty && !prefix.contains(where: { "+#".contains($0) }) && !prefix.hasPrefix("/") && !prefix.hasSuffix("/")
    }

    /// Whether `level` can be one level of a topic name: not empty, no `/`, and no wildcard (`+`, `#`).
    public static func isTopicLevel(_ level: String) -> Bool {
        !level.isEmpty && !level.contains(where: { "/+#".contains($0) })
    }

    /// The device id of a topic under `prefix` (`{prefix}/{device_id}/…`), or nil for another topic.
    public static func deviceID(inTopic topic: String, prefix: String) -> String? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1)
        guard let id = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first, !id.isEmpty else {
            return nil
        }
        return String(id)
    }

    /// What a topic of this device carries, or nil for a topic outside its subtree or one the contract
    /// does not define.
    public func kind(ofTopic topic: String) -> TopicKind? {
        guard topic.hasPrefix(base + "/") else { return nil }
        let levels = topic.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        switch levels.count {
        case 1:
            switch levels[0] {
            case "status": return .availability
            case "info": return .info
            case "health": return .health
            case "error": return .error
            case "config": return .configuration
            case "events": return .events
            default: return MotionService(topicName: String(levels[0])).map(TopicKind.data)
            }
        case 2:
            if levels[0] == "config" { return levels[1] == "set" ? .configurationControl : nil }
            if levels[0] == "state" { return MotionStateName(rawValue: String(levels[1])).map(TopicKind.state) }
            if levels[0] == MotionService.vibration.topicName, levels[1] == "spectrum" { return .vibrationSpectrum }
            guard let service = MotionService(topicName: String(levels[0])) else { return nil }
            switch levels[1] {
            case "status": return .status(service)
            case "set": return .control(service)
            default: return nil
            }
        default:
            return nil
        }
    }
}

/// What a topic of a device carries (see ``TopicLayout/kind(ofTopic:)``).
public enum TopicKind: Sendable, Equatable {
    /// `{base}/status`: `online` / `offline` (retained; the last will says `offline`).
    case availability
    /// `{base}/info`: ``InfoPayload`` (retained).
    case info
    /// `{base}/health`: ``HealthPayload``.
    case health
    /// `{base}/error`: ``CommandAnswer`` of a refused command that named no response topic.
    case error
    /// `{base}/{service}`: samples (``SamplePayloadDecoder``).
    case data(MotionService)
    /// `{base}/{service}/status`: ``ServiceStatus`` (retained).
    case status(MotionService)
    /// `{base}/{service}/set`: ``ControlCommand``.
    case control(MotionService)
    /// `{base}/config`: ``ConfigurationReport`` (retained).
    case configuration
    /// `{base}/config/set`: a run-time configuration document (answered with a ``CommandAnswer``).
    case configurationControl
    /// `{base}/events`: ``MotionEventPayload`` (since 1.4).
    case events
    /// `{base}/state/{name}`: ``MotionStatePayload`` (retained; since 1.4).
    case state(MotionStateName)
    /// `{base}/vibration/spectrum`: ``VibrationSpectrumPayload`` (since 1.8).
    case vibrationSpectrum
}
