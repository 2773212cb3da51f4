import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One MQTT application message: what is published, and what a subscription delivers.
///
/// The MQTT 5 properties (``contentType``, ``messageExpiryInterval``, ``responseTopic``,
/// ``correlationData``) are sent only on an MQTT 5 connection. On an MQTT 3.1.1 connection (configured,
/// or after falling back because the broker refused MQTT 5) they are silently not sent, and received
/// messages carry `nil` for them.
public struct MQTTMessage: Sendable, Equatable {
    /// The topic name, for example `motion/pi-01/status` (no wildcards when publishing).
    public var topic: String
    /// The payload bytes, sent and received exactly as they are (they need not be UTF-8).
    public var payload: [UInt8]
    /// The quality of service it is (or was) published with.
    public var qos: MQTTQoS
    /// Whether the broker keeps it as the topic's retained message; on receipt, whether it came from
    /// the broker's retained store rather than from a live publication (or, with a subscription made
    /// with `retainAsPublished`, the retain flag the publisher set).
    public var retain: Bool
    /// MQTT 5 content type (a MIME type such as `application/json`); `nil` = not sent / not received.
    public var contentType: String?
    /// MQTT 5 message expiry interval in seconds: the broker discards the message if it cannot deliver
    /// it within this time. On receipt, the remaining lifetime in seconds. `nil` = never expires.
    public var messageExpiryInterval: UInt32?
    /// MQTT 5 response topic: where the receiver should publish its answer; `nil` = none.
    public var responseTopic: String?
    /// MQTT 5 correlation data (at most 65,535 bytes) that the receiver copies into its answer; `nil` = none.
    public var correlationData: [UInt8]?

    /// A message with a binary payload.
    /// - Parameters:
    ///   - topic: the topic name.
    ///   - payload: the payload bytes (may be empty).
    ///   - qos: quality of service, QoS 0 by default.
    ///   - retain: whether the broker should retain it, `false` by default.
    ///   - contentType: MQTT 5 content type, none by default.
    ///   - messageExpiryInterval: MQTT 5 message expiry in seconds, none by default.
    ///   - responseTopic: MQTT 5 response topic, none by default.
    ///   - correlationData: MQTT 5 correlation data (≤ 65,535 bytes), none by default.
    public init(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false,
        contentType: String? = nil, messageExpiryInterval: UInt32? = nil, responseTopic: String? = nil,
        correlationData: [UInt8]? = nil
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.contentType = contentType
        self.messageExpiryInterval = messageExpiryInterval
        self.responseTopic = responseTopic
        self.correlationData = correlationData
    }

    /// A message whose payload is the UTF-8 encoding of `string`.
    /// - Parameters:
    ///   - topic: the topic name.
    ///   - string: the text payload, encoded as UTF-8 without a terminating NUL.
    ///   - qos: quality of service, QoS 0 by default.
    ///   - retain: whether the broker should retain it, `false` by default.
    ///   - contentType: MQTT 5 content type, none by default.
    ///   - messageExpiryInterval: MQTT 5 message expiry in seconds, none by default.
    ///   - responseTopic: MQTT 5 response topic, none by default.
    ///   - correlationData: MQTT 5 correlation data (≤ 65,535 bytes), none by default.
    public init(
        topic: String, string: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false,
        contentType: String? = nil, messageExpiryInterval: UInt32? = nil, responseTopic: String? = nil,
        correlationData: [UInt8]? = nil
    ) {
        self.init(
            topic: topic, payload: Array(string.utf8), qos: qos, retain: retain, contentType: contentType,
            messageExpiryInterval: messageExpiryInterval, responseTopic: responseTopic, correlationData: correlationData)
    }

    /// The payload decoded as UTF-8; invalid sequences become U+FFFD.
    public var payloadString: String {
        String(decoding: payload, as: UTF8.self)
    }

    /// Whether `topic` is a topic name a client may publish to: 1 to 65,535 bytes of UTF-8 without a NUL
    /// (which C would cut the name at), no `+` or `#` wildcard (libmosquitto's `mosquitto_pub_topic_check`).
    public static func isValidTopicName(_ topic: String) -> Bool {
        var topic = topic
        // memchr on the contiguous bytes: a scan through the UTF-8 view's iterator cost more than the
        // rest of a publication's checks.
        let isPlain = topic.withUTF8 { bytes in
            !bytes.isEmpty && bytes.count <= 65_535 && memchr(bytes.baseAddress!, 0, bytes.count) == nil
        }
        guard isPlain else { return false }
        // `withCString` passes a native string's own bytes; handing the String to the C parameter directly
        // would copy it into a new array on every call.
        return MosquittoResult(topic.withCString { mosquitto_pub_topic_check($0) }).isSuccess
    }

    /// Whether any MQTT 5 property is set.
    var hasProperties: Bool {
        contentType != nil || messageExpiryInterval != nil || responseTopic != nil || correlationData != nil
    }

    /// Bytes the message occupies in the offline buffer: topic, payload and property values, in bytes.
    var bufferedSize: Int {
        // In steps: Swift 6.0 cannot type-check the whole sum as one expression in reasonable time.
        let properties: Int = (contentType?.utf8.count ?? 0) + (responseTopic?.utf8.count ?? 0) + (correlationData?.count ?? 0)
        return topic.utf8.count + payload.count + properties + (messageExpiryInterval == nil ? 0 : 4)
    }
}
