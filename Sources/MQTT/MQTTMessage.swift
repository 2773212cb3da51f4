/// One MQTT application message: what is published, and what a subscription delivers.
public struct MQTTMessage: Sendable, Equatable {
    /// The topic name, for example `motion/pi-01/status` (no wildcards when publishing).
    public var topic: String
    /// The payload bytes, sent and received exactly as they are (they need not be UTF-8).
    public var payload: [UInt8]
    /// The quality of service it is (or was) published with.
    public var qos: MQTTQoS
    /// Whether the broker keeps it as the topic's retained message; on receipt, whether it came from
    /// the broker's retained store rather than from a live publication.
    public var retain: Bool

    /// A message with a binary payload.
    /// - Parameters:
    ///   - topic: the topic name.
    ///   - payload: the payload bytes (may be empty).
    ///   - qos: quality of service, QoS 0 by default.
    ///   - retain: whether the broker should retain it, `false` by default.
    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A message whose payload is the UTF-8 encoding of `string`.
    /// - Parameters:
    ///   - topic: the topic name.
    ///   - string: the text payload, encoded as UTF-8 without a terminating NUL.
    ///   - qos: quality of service, QoS 0 by default.
    ///   - retain: whether the broker should retain it, `false` by default.
    public init(topic: String, string: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(string.utf8), qos: qos, retain: retain)
    }

    /// The payload decoded as UTF-8; invalid sequences become U+FFFD.
    public var payloadString: String {
        String(decoding: payload, as: UTF8.self)
    }
}
