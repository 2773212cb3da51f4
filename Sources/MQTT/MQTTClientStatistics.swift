/// Counters of an ``MQTTClient`` since it was created (a snapshot; read ``MQTTClient/statistics``).
public struct MQTTClientStatistics: Sendable, Equatable {
    /// Publications completed: QoS 0 written to the socket, QoS 1 acknowledged, QoS 2 completed.
    public var messagesPublished = 0
    /// Publications that failed: refused by libmosquitto (invalid topic, payload too large, ...) or
    /// acknowledged by the broker with an MQTT 5 error reason code.
    public var publishErrors = 0
    /// Messages in the offline buffer now, waiting for a connection.
    public var bufferedMessages = 0
    /// Bytes (topic + payload + property values) in the offline buffer now.
    public var bufferedBytes = 0
    /// Whether the offline buffer is kept on disk now (a ``MQTTClientConfiguration/durableOfflineBuffer``
    /// that could be opened and has not failed to write).
    public var offlineBufferIsDurable = false
    /// Messages in the durable buffer's file that belong to another owner (``MQTTDurableOfflineBuffer/owner``):
    /// kept there for it, not sent.
    public var offlineBufferOthersMessages = 0
    /// The newest problem the durable buffer reported (``MQTTClientEvent/offlineBufferProblem(_:)``), or `nil`.
    public var offlineBufferProblem: String?
    /// Buffered messages dropped (oldest first) because the buffer was full, or a message too large for it.
    public var droppedFromBuffer = 0
    /// Buffered messages whose MQTT 5 message expiry ran out before they could be sent (not sent).
    public var expiredInBuffer = 0
    /// Publications refused while disconnected: always QoS 0, and QoS ≥ 1 when the buffer is disabled.
    public var droppedWhileDisconnected = 0
    /// Successful connections after the first one.
    public var reconnects = 0
    /// Received messages larger than ``MQTTClientConfiguration/maximumIncomingPacketSize``, dropped
    /// unread (only over MQTT 3.1.1: an MQTT 5 broker does not send them).
    public var oversizedMessagesDropped = 0

    /// All counters zero.
    public init() {}
}
