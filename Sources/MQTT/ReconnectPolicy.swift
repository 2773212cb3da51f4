/// What the network thread does after a connection attempt ended (refused, lost, or never made): fall
/// back from MQTT 5 to 3.1.1, or wait and try again. A pure value: the network thread keeps one and
/// does what it says.
///
/// Falling back (only with ``MQTTClientConfiguration/allowsProtocolFallback``): a CONNACK refusing the
/// protocol version (MQTT 5 reason 0x84, or 3.1.1's code 1 from an old broker), or two connections in a
/// row closed before any CONNACK (brokers that drop an MQTT 5 CONNECT they cannot parse).
/// Waiting: the back-off's delay after the consecutive failed attempts, which start over once a
/// connection was accepted.
struct ReconnectPolicy: Sendable, Equatable {
    /// How an attempt ended.
    struct Outcome: Sendable, Equatable {
        /// The protocol the attempt used.
        var protocolVersion: MQTTProtocolVersion
        /// The CONNACK reason code (0: accepted); nil when no CONNACK arrived.
        var connackReasonCode: Int32?
        /// libmosquitto's result when the connection (or the attempt) ended.
        var result: MosquittoResult
    }

    /// What to do next.
    enum Action: Sendable, Equatable {
        /// Switch the handle to MQTT 3.1.1 and connect again at once.
        case fallBackToMQTT311
        /// Wait this long, then reconnect with the same protocol.
        case retry(after: Duration)
    }

    /// The delays between attempts.
    let backoff: MQTTReconnectBackoff
    /// Whether MQTT 5 may fall back to 3.1.1.
    let allowsFallback: Bool
    /// Consecutive attempts that failed.
    private(set) var failedAttempts = 0
    /// Consecutive MQTT 5 connections closed before a CONNACK.
    private(set) var closedBeforeConnack = 0

    /// The MQTT 5 reason code "unsupported protocol version".
    static let unsupportedProtocolVersion: Int32 = 0x84
    /// MQTT 3.1.1's CONNACK code for the same refusal.
    static let unacceptableProtocolVersion: Int32 = 1

    /// Creates the policy.
    init(backoff: MQTTReconnectBackoff, allowsFallback: Bool) {
        self.backoff = backoff
        self.allowsFallback = allowsFallback
    }

    /// Whether a CONNACK refusal with `reasonCode` makes a client that `allowsFallback` fall back from
    /// MQTT 5 (also for the refusal's words).
    static func fallsBack(onRefusal reasonCode: Int32, protocolVersion: MQTTProtocolVersion, allowsFallback: Bool) -> Bool {
        protocolVersion == .v5 && allowsFallback
            && (reasonCode == unsupportedProtocolVersion || reasonCode == unacceptableProtocolVersion)
    }

    /// Decides after an attempt ended.
    mutating func next(after outcome: Outcome) -> Action {
        if outcome.connackReasonCode == 0 { failedAttempts = 0 }  // the connection had been up: start over
        var fallBack = false
        if outcome.protocolVersion == .v5, allowsFallback {
            if let code = outcome.connackReasonCode, Self.fallsBack(onRefusal: code, protocolVersion: .v5, allowsFallback: allowsFallback) {
                fallBack = true
            } else if outcome.connackReasonCode == nil, outcome.result == .connectionLost {
                closedBeforeConnack += 1
                fallBack = closedBeforeConnack >= 2
            } else {
                closedBeforeConnack = 0
            }
        }
        if fallBack { return .fallBackToMQTT311 }
        failedAttempts += 1
        return .retry(after: backoff.duration(afterFailedAttempts: failedAttempts))
    }
}
