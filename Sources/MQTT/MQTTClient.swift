import CMosquitto

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
/// **Threads.** Every method may be called from any thread. Events are delivered on the client's network
/// thread (which drives libmosquitto) while libmosquitto holds its callback lock: the handler must
/// return quickly, since no network I/O or buffer flush happens meanwhile (hand work to
/// another thread or queue); it may call ``publish(_:)``, ``subscribe(_:qos:retainAsPublished:noLocal:)``
/// and ``unsubscribe(_:)``.
/// Calling ``shutdown(timeout:)`` from the handler is allowed but finishes asynchronously.
///
/// **Reconnecting.** After a lost or failed connection the client waits a jittered, exponentially
/// growing delay (``MQTTReconnectBackoff``) and tries again; when the broker refuses MQTT 5 it falls back
/// to MQTT 3.1.1 (``MQTTClientConfiguration/allowsProtocolFallback``, ``negotiatedProtocolVersion``).
///
/// **Offline buffer.** QoS ≥ 1 messages published while disconnected wait in a bounded buffer and go
/// out in order after reconnecting, before anything published later (see ``publish(_:)``); with a
/// ``MQTTDurableOfflineBuffer`` they, and the messages not yet acknowledged, survive the process too.
/// ``MQTTClientEvent/offlineBufferProblem(_:)`` comes on a queue of the durable buffer's, not the network
/// thread; every other event on the network thread.
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
    ///   - configuration: broker, client ID, keep-alive, will, protocol version, credentials, TLS, ...
    ///   - events: called on the client's network thread for every ``MQTTClientEvent``; keep it short.
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

    /// Starts the network thread, which connects in the background; returns at once, without waiting for
    /// the broker (or for DNS, the TCP connect or the TLS handshake).
    ///
    /// If the broker is down or refuses, the client keeps retrying (``MQTTReconnectBackoff``) and reports
    /// each failure as ``MQTTClientEvent/disconnected(reasonCode:reason:)`` (a refusal also as
    /// ``MQTTClientEvent/connectionRefused(reasonCode:reason:)``; a TLS failure names OpenSSL's reason).
    /// - Throws: ``MQTTError`` if already started or shut down, or the thread cannot be created.
    public func start() throws(MQTTError) {
        try connection.start()
    }

    /// Queues `message` for sending.
    ///
    /// - Connected (and the offline buffer empty): handed to libmosquitto; returns its message ID (1...65535).
    /// - Not connected, QoS ≥ 1: kept in the offline buffer (oldest dropped first when full, counted in
    ///   ``MQTTClientStatistics/droppedFromBuffer``); returns a negative ID unique in this client. The
    ///   buffer is sent in order right after the next connect, before later publications (which wait
    ///   behind it), with at most ``MQTTClientConfiguration/sendMaximum`` unacknowledged at a time.
    /// - Not connected, QoS 0 (or the buffer disabled): dropped, counted in
    ///   ``MQTTClientStatistics/droppedWhileDisconnected``, and the call throws `MOSQ_ERR_NO_CONN` (4).
    ///
    /// MQTT 5 properties of `message` are not sent on an MQTT 3.1.1 connection.
    /// - Returns: the message ID (negative while buffered), to match ``MQTTClientEvent/published(messageID:)``
    ///   (which carries the same ID, also for buffered messages) or to pass to
    ///   ``waitUntilPublished(messageID:timeout:)``.
    /// - Throws: ``MQTTError`` for an invalid topic (empty, or with `+`/`#`), a QoS 0 message while
    ///   disconnected, a message larger than the buffer, or after shutdown.
    @discardableResult
    public func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        try connection.publish(message)
    }

    /// Subscribes to `topicFilter` now if connected, and again after every reconnect without a session.
    /// - Parameters:
    ///   - topicFilter: a topic filter; `+` and `#` wildcards allowed where MQTT allows them.
    ///   - qos: the maximum QoS the broker should deliver with.
    ///   - retainAsPublished: MQTT 5: deliver the retain flag as the publisher set it, so a retained
    ///     message published while subscribed is still recognisable as retained. Ignored under 3.1.1
    ///     (there live messages always arrive with retain false). `false` by default.
    ///   - noLocal: MQTT 5: do not deliver this client's own publications. Ignored under 3.1.1.
    ///     `false` by default.
    /// - Throws: ``MQTTError`` for an invalid filter or after shutdown.
    public func subscribe(
        _ topicFilter: String, qos: MQTTQoS, retainAsPublished: Bool = false, noLocal: Bool = false
    ) throws(MQTTError) {
        var options: Int32 = 0
        if retainAsPublished { options |= Int32(MQTT_SUB_OPT_RETAIN_AS_PUBLISHED.rawValue) }
        if noLocal { options |= Int32(MQTT_SUB_OPT_NO_LOCAL.rawValue) }
        try connection.subscribe(topicFilter, qos: qos, options: options)
    }

    /// Removes a subscription made with ``subscribe(_:qos:retainAsPublished:noLocal:)``.
    /// - Throws: ``MQTTError`` after shutdown or if libmosquitto refuses the filter.
    public func unsubscribe(_ topicFilter: String) throws(MQTTError) {
        try connection.unsubscribe(topicFilter)
    }

    /// Replaces the last will: the next connection attempt (a reconnect, or the first if the client has not
    /// connected yet) carries `will`; the current connection keeps the one it connected with. For a will
    /// that must change with every connection, such as a Sparkplug edge node's NDEATH with its `bdSeq`:
    /// call it from the event handler on ``MQTTClientEvent/connected(sessionPresent:)``.
    /// - Throws: ``MQTTError`` for an invalid topic (empty, or with `+`/`#`) or after shutdown.
    public func replaceWill(_ will: MQTTMessage) throws(MQTTError) {
        try connection.replaceWill(will)
    }

    /// Whether the broker has accepted the current connection.
    public var isConnected: Bool { connection.isConnected }

    /// The protocol version of the last accepted connection: ``MQTTProtocolVersion/v311`` after falling
    /// back from MQTT 5; `nil` before the first connection.
    public var negotiatedProtocolVersion: MQTTProtocolVersion? { connection.negotiatedProtocolVersion }

    /// The broker of the current connection, or of the attempt under way (with fail-over brokers, the node
    /// in use); `nil` before the first attempt.
    public var currentBroker: MQTTBrokerAddress? { connection.currentBroker }

    /// A snapshot of the client's counters (publications, errors, offline buffer, drops, reconnects).
    public var statistics: MQTTClientStatistics { connection.statistics }

    /// The client's socket descriptor (-1 when not connected), for tests that inspect socket options.
    var socketDescriptor: Int32 { connection.socketDescriptor }

    /// Blocks the calling thread until connected, the client shuts down, or `timeout` passes.
    /// Do not call it from the event handler (the connection cannot progress while the handler blocks).
    /// - Returns: whether the client is connected.
    public func waitUntilConnected(timeout: Duration) -> Bool {
        connection.waitUntilConnected(timeout: timeout)
    }

    /// Blocks until the publication `messageID` is complete (QoS 0: written to the socket; QoS 1:
    /// PUBACK; QoS 2: PUBCOMP), the client shuts down, or `timeout` passes. A negative (buffered) ID
    /// completes after it was sent from the buffer and acknowledged.
    /// Do not call it from the event handler.
    /// - Returns: `true` when that message ID is no longer pending (also for an ID this client never
    ///   returned), `false` on timeout, shutdown, or when the buffered message was dropped.
    public func waitUntilPublished(messageID: Int32, timeout: Duration) -> Bool {
        connection.waitUntilPublished(messageID: messageID, timeout: timeout)
    }

    /// Disconnects cleanly (so the broker does not publish the last will), stops the network thread and
    /// frees the libmosquitto handle.
    ///
    /// Order: DISCONNECT → wait for it to be written (up to `timeout`) → stop and join the network
    /// thread → `mosquitto_destroy`. If the DISCONNECT cannot be written within `timeout` the socket is
    /// closed without it, and the broker will publish the will. A network thread inside a connection
    /// attempt that does not end within `timeout` (TCP retrying a host that does not answer) is left to
    /// destroy the handle itself when the attempt ends; the call returns meanwhile. Messages still in the
    /// offline buffer are discarded, unless it is durable (``MQTTClientConfiguration/durableOfflineBuffer``):
    /// then they, and every QoS ≥ 1 message the broker has not acknowledged, stay in its file for the next
    /// client. Idempotent and thread-safe. No event is delivered
    /// once shutdown has begun (not even the final `disconnected`); every later call throws.
    /// - Parameter timeout: how long to wait for the DISCONNECT to be sent.
    public func shutdown(timeout: Duration) {
        connection.shutdown(timeout: timeout)
    }
}
