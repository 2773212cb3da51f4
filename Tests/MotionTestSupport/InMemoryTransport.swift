import MQTT
import Synchronization

/// The in-memory twin of ``MQTTClient`` for tests of a publisher's behaviour without a broker: it
/// records every publication and subscription, and the test plays the broker — ``connect(sessionPresent:)``,
/// ``disconnect()``, ``deliver(_:)``. While "disconnected" QoS 0 publications are refused as the real
/// client refuses them and QoS ≥ 1 ones are kept, then "sent" at the next connect, in order.
///
/// Threads: thread-safe; events are delivered on the calling thread of the method that causes them.
public final class InMemoryTransport: MessageTransport {
    private struct State {
        var events: (@Sendable (MQTTClientEvent) -> Void)?
        var started = false
        var shutDown = false
        var connected = false
        var published: [MQTTMessage] = []
        var buffered: [MQTTMessage] = []
        var subscriptions: [(filter: String, qos: MQTTQoS, retainAsPublished: Bool)] = []
        var nextID: Int32 = 1
        var statistics = MQTTClientStatistics()
        var configuration: MQTTClientConfiguration?
        /// The will the current (or next) connection carries, and one left for the next attempt.
        var will: MQTTMessage?
        var pendingWill: MQTTMessage?
    }

    private let state = Mutex(State())

    /// Creates a transport; use ``factory`` to hand it to a publisher.
    public init() {}

    /// The factory that hands this transport (with the publisher's event handler) to its user.
    public var factory: MessageTransportFactory {
        { [self] configuration, events throws(MQTTError) in
            state.withLock { state in
                state.events = events
                state.configuration = configuration
                state.will = configuration.will
            }
            return self
        }
    }

    /// The configuration the publisher asked for (its will among others), once made.
    public var configuration: MQTTClientConfiguration? { state.withLock { $0.configuration } }

    // MARK: The broker's side (the test)

    /// The broker accepts the connection: ``MQTTClientEvent/connected(sessionPresent:)``, then the
    /// messages kept while disconnected go out.
    public func connect(sessionPresent: Bool = false) {
        let events = state.withLock { state -> (@Sendable (MQTTClientEvent) -> Void)? in
            state.connected = true
            if let pending = state.pendingWill {
                state.will = pending
                state.pendingWill = nil
            }
            state.published += state.buffered
            state.statistics.messagesPublished += state.buffered.count
            state.buffered = []
            return state.shutDown ? nil : state.events
        }
        events?(.connected(sessionPresent: sessionPresent))
    }

    /// The connection drops: ``MQTTClientEvent/disconnected(reasonCode:reason:)``.
    public func disconnect() {
        let events = state.withLock { state -> (@Sendable (MQTTClientEvent) -> Void)? in
            state.connected = false
            state.statistics.reconnects += 1
            return state.shutDown ? nil : state.events
        }
        events?(.disconnected(reasonCode: 7, reason: "the connection was lost"))
    }

    /// The last will the current connection carries (the configuration's, or the latest
    /// ``replaceWill(_:)`` made before this connection).
    public var will: MQTTMessage? { state.withLock { $0.will } }

    /// A message arrives from the broker.
    public func deliver(_ message: MQTTMessage) {
        let events = state.withLock { $0.shutDown ? nil : $0.events }
        events?(.message(message))
    }

    /// Every message published (sent while connected), oldest first.
    public var published: [MQTTMessage] { state.withLock { $0.published } }

    /// The messages published on `topic`.
    public func messages(on topic: String) -> [MQTTMessage] { published.filter { $0.topic == topic } }

    /// The messages kept for the next connection.
    public var buffered: [MQTTMessage] { state.withLock { $0.buffered } }

    /// The subscriptions made, in order.
    public var subscriptions: [(filter: String, qos: MQTTQoS, retainAsPublished: Bool)] { state.withLock { $0.subscriptions } }

    /// Forgets what was published so far.
    public func clearPublished() { state.withLock { $0.published = [] } }

    /// Whether ``shutdown(timeout:)`` was called.
    public var isShutDown: Bool { state.withLock { $0.shutDown } }

    // MARK: MessageTransport

    public func start() throws(MQTTError) {
        state.withLock { $0.started = true }
    }

    @discardableResult
    public func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        let id = state.withLock { state -> Int32? in
            guard !state.shutDown else { return nil }
            if state.connected {
                state.published.append(message)
                state.statistics.messagesPublished += 1
            } else if message.qos != .atMostOnce {
                state.buffered.append(message)
            } else {
                state.statistics.droppedWhileDisconnected += 1
                return nil
            }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { throw MQTTError(code: 4, operation: "publish to \(message.topic)", detail: "not connected") }
        return id
    }

    public func subscribe(_ topicFilter: String, qos: MQTTQoS, retainAsPublished: Bool, noLocal: Bool) throws(MQTTError) {
        state.withLock { $0.subscriptions.append((topicFilter, qos, retainAsPublished)) }
    }

    public func replaceWill(_ will: MQTTMessage) throws(MQTTError) {
        state.withLock { $0.pendingWill = will }
    }

    public var isConnected: Bool { state.withLock { $0.connected } }

    public var negotiatedProtocolVersion: MQTTProtocolVersion? { state.withLock { $0.connected ? .v5 : nil } }

    public var statistics: MQTTClientStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.bufferedMessages = state.buffered.count
            return statistics
        }
    }

    /// Published messages count as acknowledged at once; kept ones are not.
    public func waitUntilPublished(messageID: Int32, timeout: Duration) -> Bool { isConnected }

    public func shutdown(timeout: Duration) {
        state.withLock {
            $0.shutDown = true
            $0.connected = false
        }
    }
}
