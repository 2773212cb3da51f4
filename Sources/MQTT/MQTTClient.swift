/// An MQTT client over libmosquitto: connects in the background, reconnects by itself, publishes,
/// subscribes, and reports what happens to an event handler.
///
/// ```swift
/// let client = try MQTTClient(configuration: .init(broker: try MQTTBrokerAddress(url: "mqtt://127.0.0.1:1883"),
///                                                  clientID: "pi-01")) { event in print(event) }
/// try client.start()
/// _ = client.waitUntilConnected(timeout: .seconds(5))
/// try client.publish(MQTTMessage(topic: "motion/pi-01/status", string: "online", qos: .atLeastOnce, retain: true))
/// client.shutdown(timeout: .seconds(2))
/// ```
///
/// **Threads.** Every method may be called from any thread. Events are delivered on libmosquitto's
/// network thread while it holds its callback lock: the handler must return quickly (hand work to
/// another thread or queue); it may call ``publish(_:)``, ``subscribe(_:qos:)`` and ``unsubscribe(_:)``.
/// Calling ``shutdown(timeout:)`` from the handler is allowed but finishes asynchronously.
///
/// **Subscriptions** are remembered and sent again after every reconnect that did not resume a session,
/// so a subscriber survives a broker restart.
///
/// **Lifetime.** Several clients in one process are independent. Dropping the last reference shuts the
/// client down cleanly; a handler that captures its client strongly keeps it alive until ``shutdown(timeout:)``.
public final class MQTTClient: Sendable {
    /// The configuration the client was created with.
    public let configuration: MQTTClientConfiguration
    private let connection: MosquittoConnection

    /// Creates the client and applies the configuration; nothing is sent before ``start()``.
    /// - Parameters:
    ///   - configuration: broker, client ID, keep-alive, will, protocol version, ...
    ///   - events: called on libmosquitto's network thread for every ``MQTTClientEvent``; keep it short.
    /// - Throws: ``MQTTError`` when the configuration is invalid (for example keep-alive below 5 s) or
    ///   libmosquitto refuses it.
    public init(
        configuration: MQTTClientConfiguration,
        events: @escaping @Sendable (MQTTClientEvent) -> Void
    ) throws(MQTTError) {
        self.configuration = configuration
        self.connection = try MosquittoConnection(configuration: configuration, events: events)
    }

    deinit {
        connection.shutdown(timeout: .seconds(2))
    }

    /// Starts the network thread and begins connecting; returns without waiting for the broker.
    ///
    /// If the broker is down or refuses, the client keeps retrying after the configured
    /// ``MQTTClientConfiguration/reconnectDelay`` and reports each failure as
    /// ``MQTTClientEvent/disconnected(reasonCode:reason:)``.
    /// - Throws: ``MQTTError`` if already started, shut down, or the address is unusable.
    public func start() throws(MQTTError) {
        try connection.start()
    }

    /// Queues `message` for sending.
    ///
    /// QoS 0 messages published while disconnected are lost (the call throws `MOSQ_ERR_NO_CONN`).
    /// - Returns: the message ID, to match ``MQTTClientEvent/published(messageID:)`` or to pass to
    ///   ``waitUntilPublished(messageID:timeout:)``.
    /// - Throws: ``MQTTError`` for an invalid topic (empty, or with `+`/`#`), no connection, or after shutdown.
    @discardableResult
    public func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        try connection.publish(message)
    }

    /// Subscribes to `topicFilter` now if connected, and again after every reconnect without a session.
    /// - Parameters:
    ///   - topicFilter: a topic filter; `+` and `#` wildcards allowed where MQTT allows them.
    ///   - qos: the maximum QoS the broker should deliver with.
    /// - Throws: ``MQTTError`` for an invalid filter or after shutdown.
    public func subscribe(_ topicFilter: String, qos: MQTTQoS) throws(MQTTError) {
        try connection.subscribe(topicFilter, qos: qos)
    }

    /// Removes a subscription made with ``subscribe(_:qos:)``.
    /// - Throws: ``MQTTError`` after shutdown or if libmosquitto refuses the filter.
    public func unsubscribe(_ topicFilter: String) throws(MQTTError) {
        try connection.unsubscribe(topicFilter)
    }

    /// Whether the broker has accepted the current connection.
    public var isConnected: Bool { connection.isConnected }

    /// Blocks the calling thread until connected, the client shuts down, or `timeout` passes.
    /// Do not call it from the event handler (the connection cannot progress while the handler blocks).
    /// - Returns: whether the client is connected.
    public func waitUntilConnected(timeout: Duration) -> Bool {
        connection.waitUntilConnected(timeout: timeout)
    }

    /// Blocks until the publication `messageID` is complete (QoS 0: written to the socket; QoS 1:
    /// PUBACK; QoS 2: PUBCOMP), the client shuts down, or `timeout` passes.
    /// Do not call it from the event handler.
    /// - Returns: `true` when that message ID is no longer pending (also for an ID this client never
    ///   returned), `false` on timeout or shutdown.
    public func waitUntilPublished(messageID: Int32, timeout: Duration) -> Bool {
        connection.waitUntilPublished(messageID: messageID, timeout: timeout)
    }

    /// Disconnects cleanly (so the broker does not publish the last will), stops the network thread and
    /// frees the libmosquitto handle.
    ///
    /// Order: DISCONNECT → wait for it to be written (up to `timeout`) → `mosquitto_loop_stop(false)` →
    /// `mosquitto_destroy`. If the DISCONNECT cannot be written within `timeout` the loop is stopped by
    /// force, and the broker will publish the will. Idempotent and thread-safe. No event is delivered
    /// once shutdown has begun (not even the final `disconnected`); every later call throws.
    /// - Parameter timeout: how long to wait for the DISCONNECT to be sent.
    public func shutdown(timeout: Duration) {
        connection.shutdown(timeout: timeout)
    }
}
