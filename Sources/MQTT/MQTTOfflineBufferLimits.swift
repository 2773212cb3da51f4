/// Bounds of the client's offline buffer: the QoS ≥ 1 messages published while the client is not
/// connected, kept in memory (lost if the process exits) and sent in order after reconnecting.
///
/// When either bound would be exceeded, the oldest buffered messages are dropped first (counted in
/// ``MQTTClientStatistics/droppedFromBuffer``). A value of 0 for either bound disables the buffer.
public struct MQTTOfflineBufferLimits: Sendable, Equatable {
    /// At most this many messages are kept; 10,000 by default.
    public var maximumMessages: Int
    /// At most this many bytes (topic + payload + MQTT 5 property values) are kept; 8 MiB by default.
    public var maximumBytes: Int

    /// 10,000 messages, 8 MiB.
    public static let `default` = MQTTOfflineBufferLimits()
    /// No buffer: QoS ≥ 1 publications while disconnected are refused like QoS 0 ones.
    public static let disabled = MQTTOfflineBufferLimits(maximumMessages: 0, maximumBytes: 0)

    /// Limits; 0 for either disables the buffer.
    /// - Parameters:
    ///   - maximumMessages: message count bound, 10,000 by default.
    ///   - maximumBytes: size bound in bytes, 8 MiB (8,388,608) by default.
    public init(maximumMessages: Int = 10_000, maximumBytes: Int = 8 * 1024 * 1024) {
        self.maximumMessages = maximumMessages
        self.maximumBytes = maximumBytes
    }

    /// Whether messages are buffered at all (both bounds above 0).
    public var isEnabled: Bool { maximumMessages > 0 && maximumBytes > 0 }
}
