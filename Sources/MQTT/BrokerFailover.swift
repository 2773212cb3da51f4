/// Which broker the network thread connects to next, for a client with several (the nodes of a cluster,
/// ``MQTTClientConfiguration/failoverBrokers``). A pure value: the network thread keeps one and asks it
/// after every attempt that ended.
///
/// The rules: after a connection that had been accepted is lost, or an attempt fails, go on to the next
/// broker in the list (round again after the last) at once; only when every broker has failed since the
/// last accepted connection does the next attempt wait the reconnect back-off, so that a node that went
/// away costs the fleet one connect, and a whole cluster that is down is not hammered. With one broker
/// every retry waits, as before.
public struct BrokerFailover: Sendable, Equatable {
    /// How many brokers there are (at least 1).
    public let count: Int
    /// The index of the broker of the current (or last) attempt.
    public private(set) var current = 0
    /// Attempts that failed since the last accepted connection.
    private var failuresSinceAccepted = 0

    /// A rotation over `count` brokers, starting with the first.
    public init(count: Int) {
        self.count = max(1, count)
    }

    /// After an attempt on ``current`` ended.
    /// - Parameter accepted: whether that connection had been accepted (CONNACK 0) before it ended.
    /// - Returns: the broker to try next, and whether to wait the back-off before trying it.
    public mutating func next(afterAcceptedConnection accepted: Bool) -> (broker: Int, waits: Bool) {
        guard count > 1 else { return (0, true) }
        failuresSinceAccepted = accepted ? 1 : failuresSinceAccepted + 1
        current = (current + 1) % count
        return (current, failuresSinceAccepted >= count)
    }
}
