import MotionLog
import MotionSupervision
/// Everything an ``MQTTClient`` needs to know before it connects.
///
/// New settings are added as properties with defaults, so code that builds a configuration keeps compiling.
public struct MQTTClientConfiguration: Sendable {
    /// The broker to connect to.
    public var broker: MQTTBrokerAddress
    /// Further brokers, the other nodes of a cluster, for fail-over: when the current broker cannot be
    /// reached or drops the connection, the client connects to the next one at once (in the order
    /// ``broker``, then these, and round again), and waits the reconnect back-off only after every one
    /// has failed since the last accepted connection (``BrokerFailover``). Empty (default): one broker.
    public var failoverBrokers: [MQTTBrokerAddress] = []
    /// ``broker`` and the ``failoverBrokers``, in the order they are tried.
    public var brokers: [MQTTBrokerAddress] { [broker] + failoverBrokers }

    /// The durable buffer's owner: its configured ``MQTTDurableOfflineBuffer/owner``, else the client id and
    /// the brokers (`CLIENT_ID at HOST:PORT, HOST:PORT`).
    public var bufferOwner: String {
        durableOfflineBuffer?.owner ?? "\(clientID) at \(brokers.map { "\($0.host):\($0.port)" }.joined(separator: ", "))"
    }
    /// The MQTT client identifier. Empty means "let the library generate one" (needs `cleanSession`).
    public var clientID: String
    /// Keep-alive interval in seconds, at least 5 (libmosquitto rejects less); 30 by default.
    public var keepAlive: Int
    /// MQTT 3.1.1 clean session / MQTT 5 clean start: `true` (default) starts without stored state.
    public var cleanSession: Bool
    /// MQTT 5 session expiry interval in seconds: how long the broker keeps the session after the
    /// connection closes. `nil` (default) means: with `cleanSession == false` never expire
    /// (0xFFFFFFFF, what 3.1.1 does), otherwise 0. Without it an MQTT 5 broker discards a "persistent"
    /// session at disconnect. Not sent under 3.1.1.
    public var sessionExpiryInterval: UInt32?
    /// The last will the broker publishes if this client vanishes without a clean disconnect.
    public var will: MQTTMessage?
    /// The protocol version, MQTT 5 by default. See ``allowsProtocolFallback``.
    public var protocolVersion: MQTTProtocolVersion
    /// With ``protocolVersion`` `.v5`: when the broker refuses MQTT 5 (CONNACK "unsupported protocol
    /// version", MQTT 5 reason 132 or 3.1.1 return code 1, or it closes the connection right after
    /// CONNECT on two attempts in a row), connect again at once with MQTT 3.1.1 and stay with it for
    /// the client's lifetime. `true` by default. See ``MQTTClient/negotiatedProtocolVersion``.
    public var allowsProtocolFallback: Bool
    /// Disable Nagle's algorithm on the client socket (`MOSQ_OPT_TCP_NODELAY`); `true` by default,
    /// which avoids ~40 ms latency spikes for small, frequent messages.
    public var tcpNoDelay: Bool
    /// Bounds of the delay before reconnecting, in seconds, 1...30 by default: exponential backoff with
    /// per-client jitter, see ``MQTTReconnectBackoff`` for the exact schedule.
    public var reconnectDelay: ClosedRange<Int>
    /// User name sent in CONNECT; `nil` (default) sends none.
    public var username: String?
    /// Password sent in CONNECT (needs ``username``); `nil` (default) sends none.
    public var password: MQTTPassword?
    /// TLS settings; `nil` (default) connects over plain TCP.
    public var tls: MQTTTLSConfiguration?
    /// Bounds of the in-memory buffer for QoS ≥ 1 messages published while disconnected; 10,000
    /// messages / 8 MiB by default. See ``MQTTClient/publish(_:)``.
    public var offlineBuffer: MQTTOfflineBufferLimits
    /// Keeps the offline buffer in an SQLite file as well, so that it survives a restart, a SIGKILL or a
    /// power cut (see ``MQTTDurableOfflineBuffer``); `nil` (default) keeps it in memory only.
    public var durableOfflineBuffer: MQTTDurableOfflineBuffer?
    /// At most this many QoS ≥ 1 publications unacknowledged at once (`MOSQ_OPT_SEND_MAXIMUM`), also
    /// while the offline buffer is flushed; 1...65535, 20 by default.
    public var sendMaximum: Int
    /// The largest packet this client accepts, bytes (topic, properties and payload of a message);
    /// `nil` (default) for no limit. Announced to an MQTT 5 broker (CONNECT's maximum packet size), which
    /// then drops larger messages instead of sending them. Over MQTT 3.1.1 there is no way to tell the
    /// broker: libmosquitto still reads a larger message, and the client drops it unread (counted in
    /// ``MQTTClientStatistics/oversizedMessagesDropped``). At least 128 bytes.
    public var maximumIncomingPacketSize: UInt32?
    /// Whether the handler hears ``MQTTClientEvent/published(messageID:)`` (true by default). An owner that
    /// ignores the event turns it off: each publication then spares the handler's call, which over plain
    /// TCP runs on the publishing thread for every QoS 0 message. ``MQTTClient/waitUntilPublished(messageID:timeout:)``
    /// works either way.
    public var reportsPublications = true
    /// Where the client's own detail goes (connection attempts, fall-back, fail-over; debug lines, since
    /// what matters reaches the owner as events). The process's handler by default.
    public var logger = Logger(label: "mqtt")
    /// The clock of the reconnect back-off and the offline journal's commits: the process's monotonic
    /// time and Dispatch's timers, or a test's manual clock.
    public var clock: any SupervisionClock = DispatchSupervisionClock()

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
    ///   - username: user name, none by default.
    ///   - password: password (needs `username`), none by default.
    ///   - tls: TLS settings, plain TCP by default.
    ///   - offlineBuffer: offline buffer bounds, 10,000 messages / 8 MiB by default.
    ///   - sendMaximum: in-flight limit for QoS ≥ 1, 20 by default.
    ///   - allowsProtocolFallback: fall back to MQTT 3.1.1 when the broker refuses MQTT 5, `true` by default.
    ///   - sessionExpiryInterval: MQTT 5 session expiry in seconds; `nil` derives it from `cleanSession`.
    ///   - maximumIncomingPacketSize: the largest packet accepted, bytes; `nil` (default) for no limit.
    ///   - durableOfflineBuffer: where the offline buffer is kept on disk; `nil` (default) for memory only.
    public init(
        broker: MQTTBrokerAddress,
        clientID: String,
        keepAlive: Int = 30,
        cleanSession: Bool = true,
        will: MQTTMessage? = nil,
        protocolVersion: MQTTProtocolVersion = .v5,
        tcpNoDelay: Bool = true,
        reconnectDelay: ClosedRange<Int> = 1...30,
        username: String? = nil,
        password: MQTTPassword? = nil,
        tls: MQTTTLSConfiguration? = nil,
        offlineBuffer: MQTTOfflineBufferLimits = .default,
        sendMaximum: Int = 20,
        allowsProtocolFallback: Bool = true,
        sessionExpiryInterval: UInt32? = nil,
        maximumIncomingPacketSize: UInt32? = nil,
        durableOfflineBuffer: MQTTDurableOfflineBuffer? = nil
    ) {
        self.broker = broker
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.cleanSession = cleanSession
        self.will = will
        self.protocolVersion = protocolVersion
        self.tcpNoDelay = tcpNoDelay
        self.reconnectDelay = reconnectDelay
        self.username = username
        self.password = password
        self.tls = tls
        self.offlineBuffer = offlineBuffer
        self.sendMaximum = sendMaximum
        self.allowsProtocolFallback = allowsProtocolFallback
        self.sessionExpiryInterval = sessionExpiryInterval
        self.maximumIncomingPacketSize = maximumIncomingPacketSize
        self.durableOfflineBuffer = durableOfflineBuffer
    }

    /// The session expiry interval actually sent (see ``sessionExpiryInterval``), in seconds.
    var effectiveSessionExpiryInterval: UInt32? {
        sessionExpiryInterval ?? (cleanSession ? nil : UInt32.max)
    }

    /// The reconnect schedule these settings give (bounds from ``reconnectDelay``, jitter from ``clientID``).
    public var reconnectBackoff: MQTTReconnectBackoff {
        MQTTReconnectBackoff(
            minimumDelay: Double(reconnectDelay.lowerBound), maximumDelay: Double(reconnectDelay.upperBound),
            clientID: clientID)
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
        for broker in brokers {
            guard (1...65_535).contains(broker.port) else {
                throw invalid("broker.port", "must be 1...65535, got \(broker.port)")
            }
            guard !broker.host.isEmpty else { throw invalid("broker.host", "is empty") }
        }
        guard !clientID.isEmpty || cleanSession else {
            throw invalid("clientID", "an empty client ID requires cleanSession = true")
        }
        guard clientID.utf8.count <= 65_535 else { throw invalid("clientID", "is longer than 65535 bytes") }
        guard reconnectDelay.lowerBound >= 1 else {
            throw invalid("reconnectDelay", "the lower bound must be at least 1 s, got \(reconnectDelay.lowerBound) s")
        }
        guard (1...65_535).contains(sendMaximum) else { throw invalid("sendMaximum", "must be 1...65535, got \(sendMaximum)") }
        if let maximumIncomingPacketSize, maximumIncomingPacketSize < 128 {
            throw invalid("maximumIncomingPacketSize", "must be at least 128 bytes, got \(maximumIncomingPacketSize)")
        }
        guard offlineBuffer.maximumMessages >= 0, offlineBuffer.maximumBytes >= 0 else {
            throw invalid("offlineBuffer", "limits must not be negative")
        }
        if password != nil, username == nil { throw invalid("password", "a password needs a username") }
        if let durableOfflineBuffer {
            guard !durableOfflineBuffer.path.isEmpty else { throw invalid("durableOfflineBuffer.path", "is empty") }
            guard MQTTDurableOfflineBuffer.commitIntervalRange.contains(durableOfflineBuffer.commitInterval) else {
                throw invalid("durableOfflineBuffer.commitInterval", "must be 0...5 s, got \(durableOfflineBuffer.commitInterval) s")
            }
        }
        try tls?.validate()
        if let will {
            guard !will.topic.isEmpty, !will.topic.contains("+"), !will.topic.contains("#") else {
                throw invalid("will.topic", "\"\(will.topic)\" must be a non-empty topic name without wildcards")
            }
        }
    }
}
