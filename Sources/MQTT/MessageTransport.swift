/// What a publisher needs from its broker connection: the part of ``MQTTClient`` the agent uses, so
/// that the agent's behaviour (control, reload, availability, buffering decisions) can be tested with an
/// in-memory twin and no broker. ``MQTTClient`` is the real one.
///
/// Threads: every member may be called from any thread; events are delivered on the transport's own
/// thread (the client's network thread).
public protocol MessageTransport: AnyObject, Sendable {
    /// Connects in the background (retrying while the broker is down); returns at once.
    func start() throws(MQTTError)
    /// Publishes `message` (or buffers it while disconnected, as ``MQTTClient/publish(_:)`` documents).
    /// - Returns: an ID for ``waitUntilPublished(messageID:timeout:)``.
    @discardableResult
    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32
    /// Subscribes (again after every reconnect without a session).
    func subscribe(_ topicFilter: String, qos: MQTTQoS, retainAsPublished: Bool, noLocal: Bool) throws(MQTTError)
    /// Sets the last will of the next connection attempt (the current connection keeps its own).
    func replaceWill(_ will: MQTTMessage) throws(MQTTError)
    /// Whether the broker connection is up.
    var isConnected: Bool { get }
    /// The MQTT version of the connection in use; nil before the first connection.
    var negotiatedProtocolVersion: MQTTProtocolVersion? { get }
    /// The connection's counters.
    var statistics: MQTTClientStatistics { get }
    /// The broker in use (with fail-over brokers, the node); `nil` when unknown.
    var currentBroker: MQTTBrokerAddress? { get }
    /// Waits until the publication of `messageID` completed (acknowledged for QoS ≥ 1).
    /// - Returns: whether it was published within `timeout`.
    func waitUntilPublished(messageID: Int32, timeout: Duration) -> Bool
    /// Disconnects cleanly (no last will) within `timeout`; idempotent.
    func shutdown(timeout: Duration)
}

extension MessageTransport {
    /// Unknown, for transports with no broker address of their own (in-memory twins).
    public var currentBroker: MQTTBrokerAddress? { nil }
}

/// Makes the transport of a configuration, with the handler of its events.
public typealias MessageTransportFactory = @Sendable (
    _ configuration: MQTTClientConfiguration, _ events: @escaping @Sendable (MQTTClientEvent) -> Void
) throws(MQTTError) -> any MessageTransport

extension MQTTClient: MessageTransport {
    /// A real client: libmosquitto and a broker.
    public static let factory: MessageTransportFactory = { configuration, events throws(MQTTError) in
        try MQTTClient(configuration: configuration, events: events)
    }
}

extension MessageTransport {
    /// Subscribes without the no-local option.
    public func subscribe(_ topicFilter: String, qos: MQTTQoS, retainAsPublished: Bool = false) throws(MQTTError) {
        try subscribe(topicFilter, qos: qos, retainAsPublished: retainAsPublished, noLocal: false)
    }
}
