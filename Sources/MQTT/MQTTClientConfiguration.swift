/// Everything an ``MQTTClient`` needs to know before it connects.
///
/// Later additions (TLS, credentials, offline buffer, jitter) will be new properties with defaults, so
/// code that builds a configuration today keeps compiling.
public struct MQTTClientConfiguration: Sendable {
    /// The broker to connect to.
    public var broker: MQTTBrokerAddress
    /// The MQTT client identifier. Empty means "let the library generate one" (needs `cleanSession`).
    public var clientID: String
    /// Keep-alive interval in seconds, at least 5 (libmosquitto rejects less); 30 by default.
    public var keepAlive: Int
    /// MQTT 3.1.1 clean session / MQTT 5 clean start: `true` (default) starts without stored state.
    public var cleanSession: Bool
    /// The last will the broker publishes if this client vanishes without a clean disconnect.
    public var will: MQTTMessage?
    /// The protocol version, MQTT 5 by default.
    public var protocolVersion: MQTTProtocolVersion
    /// Disable Nagle's algorithm on the client socket (`MOSQ_OPT_TCP_NODELAY`); `true` by default,
    /// which avoids ~40 ms latency spikes for small, frequent messages.
    public var tcpNoDelay: Bool
    /// Delay before reconnecting, in seconds: the first retry waits the lower bound, later ones grow
    /// (quadratically, in libmosquitto's "exponential" mode) up to the upper bound. 1...30 by default.
    public var reconnectDelay: ClosedRange<Int>

    /// The smallest keep-alive libmosquitto accepts, in seconds.
    public static let minimumKeepAlive = 5

    /// A configuration with the defaults described on each property.
    /// - Parameters:
    ///   - broker: the broker to connect to.
    ///   - clientID: the MQTT client identifier.
    ///   - keepAlive: keep-alive interval in seconds (>= 5).
    ///   - cleanSession: start without stored session state.
    ///   - will: the last will, if any.
    ///   - protocolVersion: MQTT 5 by default.
    ///   - tcpNoDelay: set TCP_NODELAY on the socket.
    ///   - reconnectDelay: reconnect delay bounds in seconds (lower bound >= 1).
    public init(
        broker: MQTTBrokerAddress,
        clientID: String,
        keepAlive: Int = 30,
        cleanSession: Bool = true,
        will: MQTTMessage? = nil,
        protocolVersion: MQTTProtocolVersion = .v5,
        tcpNoDelay: Bool = true,
        reconnectDelay: ClosedRange<Int> = 1...30
    ) {
        self.broker = broker
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.cleanSession = cleanSession
        self.will = will
        self.protocolVersion = protocolVersion
        self.tcpNoDelay = tcpNoDelay
        self.reconnectDelay = reconnectDelay
    }

    /// Checks the values libmosquitto would reject later with a vaguer message.
    /// - Throws: ``MQTTError`` of kind ``MQTTError/Kind/invalidConfiguration`` naming the field.
    public func validate() throws(MQTTError) {
        func invalid(_ field: String, _ why: String) -> MQTTError {
            MQTTError(invalidConfiguration: "\(field): \(why)")
        }
        guard keepAlive >= Self.minimumKeepAlive, keepAlive <= 65_535 else {
            throw invalid("keepAlive", "must be 5...65535 s, got \(keepAlive) s")
        }
        guard (1...65_535).contains(broker.port) else {
            throw invalid("broker.port", "must be 1...65535, got \(broker.port)")
        }
        guard !broker.host.isEmpty else { throw invalid("broker.host", "is empty") }
        guard !clientID.isEmpty || cleanSession else {
            throw invalid("clientID", "an empty client ID requires cleanSession = true")
        }
        guard clientID.utf8.count <= 65_535 else { throw invalid("clientID", "is longer than 65535 bytes") }
        guard reconnectDelay.lowerBound >= 1 else {
            throw invalid("reconnectDelay", "the lower bound must be at least 1 s, got \(reconnectDelay.lowerBound) s")
        }
        if let will {
            guard !will.topic.isEmpty, !will.topic.contains("+"), !will.topic.contains("#") else {
                throw invalid("will.topic", "\"\(will.topic)\" must be a non-empty topic name without wildcards")
            }
        }
    }
}
