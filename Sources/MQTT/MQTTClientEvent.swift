/// What an ``MQTTClient`` reports to its event handler.
///
/// Events are delivered on the client's network thread, in the order they happen, with one exception:
/// over plain TCP a QoS 0 publication written at once by the thread that published it reports
/// ``published(messageID:)`` on that thread, before ``MQTTClient/publish(_:)`` returns. Handlers should
/// hand work off rather than block.
public enum MQTTClientEvent: Sendable {
    /// The broker accepted the connection (first connect or reconnect). `sessionPresent` is `true`
    /// when the broker resumed a stored session (only possible with `cleanSession == false`).
    case connected(sessionPresent: Bool)
    /// The broker answered CONNECT with a refusal; the client keeps retrying.
    /// `reasonCode` is the MQTT 5 reason code (or the 3.1.1 CONNACK return code), `reason` explains it.
    case connectionRefused(reasonCode: Int32, reason: String)
    /// The connection ended or a connection attempt failed. `reasonCode` 0 means this client
    /// disconnected on purpose; otherwise it is a libmosquitto error (e.g. 7, connection lost) or the
    /// broker's MQTT 5 DISCONNECT reason code. Unless the client is shutting down it reconnects by itself.
    case disconnected(reasonCode: Int32, reason: String)
    /// A message arrived on one of the client's subscriptions.
    case message(MQTTMessage)
    /// A publication is complete: QoS 0 written to the socket, QoS 1 acknowledged (PUBACK),
    /// QoS 2 completed (PUBCOMP). `messageID` is what ``MQTTClient/publish(_:)`` returned.
    case published(messageID: Int32)
    /// The durable offline buffer had a problem: a damaged file set aside and replaced, or a file that
    /// cannot be used or written (then the buffer is kept in memory only). The client goes on.
    case offlineBufferProblem(String)
}
