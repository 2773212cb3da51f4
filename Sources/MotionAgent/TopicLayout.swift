import MotionContract
import MQTT

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
    }

    // The data topics, built once: they are used for every message.
    private let accelerometerTopic: String
    private let gyroTopic: String
    private let magnetometerTopic: String
    private let deviceMotionTopic: String

    /// Retained `online` / `offline`; the last will.
    public var status: String { "\(base)/status" }
    /// Retained JSON description of the agent and device.
    public var info: String { "\(base)/info" }
    /// Periodic JSON health report.
    public var health: String { "\(base)/health" }
    /// Where answers to malformed commands go when the command named no response topic.
    public var error: String { "\(base)/error" }
    /// The filter that matches every service's control topic.
    public var allControlTopics: String { "\(base)/+/set" }

    /// The data topic of a service.
    public func data(_ service: MotionService) -> String {
        switch service {
        case .accelerometer: accelerometerTopic
        case .gyro: gyroTopic
        case .magnetometer: magnetometerTopic
        case .deviceMotion: deviceMotionTopic
        }
    }
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

    /// Why the agent will not publish an answer on `responseTopic` (an MQTT 5 command's response topic),
    /// or `nil` when it may. Answers go only outside the device subtrees of the prefix, so that a command
    /// cannot make a device write into its own topics (its status, say) or another device's (its `set`
    /// topic), and only to a topic name a client may publish to (non-empty, no wildcards, not `$…`).
    public func responseTopicProblem(_ responseTopic: String) -> String? {
        if responseTopic == prefix || responseTopic.hasPrefix(prefix + "/") {
            return "the response topic must lie outside \(prefix)/ (the devices' own topics)"
        }
        if responseTopic.hasPrefix("$") || !MQTTMessage.isValidTopicName(responseTopic) {
            return "the response topic is not a topic name this device may publish to"
        }
        return nil
    }
}
