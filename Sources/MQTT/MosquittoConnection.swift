import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``MQTTClient`` asks of libmosquitto: start, subscribe, publish (`+Publishing`), the counters and
/// waits, and the clean shutdown (`+Shutdown`). It owns the ``MosquittoLink`` (the handle and the state
/// its threads share) and starts the ``MosquittoNetworkLoop`` on its own thread.
///
/// Thread-safe: every method may be called from any thread, including the event handler (the network
/// thread), except the waits, which would block the connection they wait for.
final class MosquittoConnection: Sendable {
    /// The handle and the state shared with the network thread and the callbacks.
    let link: MosquittoLink

    /// The state shared with the network thread and the callbacks (``MosquittoLink/state``).
    var state: ConditionLock<MosquittoLink.State> { link.state }
    /// The libmosquitto handle (``MosquittoLink/handle``).
    var handle: OpaquePointer { link.handle }

    /// Creates the handle and applies the configuration (protocol version first, then options,
    /// credentials, TLS, will); nothing is sent before ``start()``.
    init(configuration: MQTTClientConfiguration, events: @escaping @Sendable (MQTTClientEvent) -> Void)
        throws(MQTTError)
    {
        self.link = try MosquittoLink(configuration: configuration, events: events)
    }

    /// Starts the network thread, which connects (the first attempt blocks that thread, not the caller)
    /// and retries until shutdown.
    func start() throws(MQTTError) {
        try state.withLock { (state) throws(MQTTError) in
            switch state.lifecycle {
            case .created: break
            case .running: throw MQTTError(code: MosquittoResult.invalid.code, operation: "start", detail: "already started")
            case .shuttingDown, .destroyed: throw MosquittoLink.shutDownError("start")
            }
            state.lifecycle = .running
            state.retainedWhileLoopRuns = link
        }
        link.journal?.startReporting { [weak link] problem in link?.deliver(.offlineBufferProblem(problem)) }
        let context = Unmanaged.passRetained(NetworkThreadContext(loop: MosquittoNetworkLoop(link: link)))
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<NetworkThreadContext>.fromOpaque(raw!).takeRetainedValue()
            context.loop.run()
            return nil
        }, context.toOpaque())
        guard created == 0 else {
            context.release()
            state.withLock { state in
                if state.lifecycle == .running { state.lifecycle = .created }
                state.retainedWhileLoopRuns = nil
            }
            throw MQTTError(code: MosquittoResult.systemError.code, operation: "start network thread", systemErrno: created)
        }
        state.withLockBroadcasting { $0.networkThread = thread }
    }

    /// Records the subscription (re-sent after every reconnect) and sends it now if connected.
    func subscribe(_ topicFilter: String, qos: MQTTQoS, options: Int32) throws(MQTTError) {
        guard MosquittoResult(mosquitto_sub_topic_check(topicFilter)).isSuccess else {
            throw MQTTError(
                code: MosquittoResult.invalid.code, operation: "subscribe to \(topicFilter)",
                detail: "\"\(topicFilter)\" is not a valid topic filter (+ and # must fill a whole level, # only last)")
        }
        let subscription = MosquittoLink.Subscription(filter: topicFilter, qos: qos, options: options)
        let sendNow: MQTTProtocolVersion? = try link.enterLibrary("subscribe to \(topicFilter)") { state in
            state.subscriptions.removeAll { $0.filter == topicFilter }
            state.subscriptions.append(subscription)
            return state.sessionUp ? state.protocolVersion : nil
        }
        defer { link.leaveLibrary() }
        guard let version = sendNow else { return }  // sent by the connect callback
        let result = link.usingSocket { link.send(subscription, protocolVersion: version) }
        let systemErrno = errno
        guard result.isSuccess || result.meansConnectionDropped else {
            state.withLock { $0.subscriptions.removeAll { $0.filter == topicFilter } }
            throw MQTTError(code: result.code, operation: "subscribe to \(topicFilter)", systemErrno: systemErrno)
        }
    }

    /// Forgets the subscription and sends UNSUBSCRIBE if connected.
    func unsubscribe(_ topicFilter: String) throws(MQTTError) {
        let sendNow = try link.enterLibrary("unsubscribe from \(topicFilter)") { state in
            state.subscriptions.removeAll { $0.filter == topicFilter }
            return state.sessionUp
        }
        defer { link.leaveLibrary() }
        guard sendNow else { return }
        let result = MosquittoResult(link.usingSocket { mosquitto_unsubscribe_v5(handle, nil, topicFilter, nil) })
        let systemErrno = errno
        guard result.isSuccess || result.meansConnectionDropped else {
            throw MQTTError(code: result.code, operation: "unsubscribe from \(topicFilter)", systemErrno: systemErrno)
        }
    }

    /// Leaves `will` for the network thread, which sets it before its next connection attempt.
    func replaceWill(_ will: MQTTMessage) throws(MQTTError) {
        guard !will.topic.isEmpty, MosquittoResult(mosquitto_pub_topic_check(will.topic)).isSuccess else {
            throw MQTTError(
                code: MosquittoResult.invalid.code, operation: "replace the last will",
                detail: "\"\(will.topic)\" must be a non-empty topic name without wildcards")
        }
        try link.enterLibrary("replace the last will") { $0.pendingWill = will }
        link.leaveLibrary()
    }

    var isConnected: Bool { state.withLock { $0.connected } }

    var negotiatedProtocolVersion: MQTTProtocolVersion? { state.withLock { $0.negotiatedProtocolVersion } }

    /// The broker of the current connection (or of the attempt under way); `nil` before the first.
    var currentBroker: MQTTBrokerAddress? { state.withLock { $0.currentBroker } }

    var statistics: MQTTClientStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.bufferedMessages = state.buffer.count
            statistics.bufferedBytes = state.buffer.bytes
            statistics.offlineBufferIsDurable = link.journal?.isDurable ?? false
            statistics.offlineBufferOthersMessages = link.journal?.othersMessages ?? 0
            statistics.offlineBufferProblem = link.journal?.lastProblem
            return statistics
        }
    }

    /// The socket descriptor (-1 when not connected), for tests that inspect socket options.
    var socketDescriptor: Int32 {
        (try? link.callLibrary("read socket") { mosquitto_socket($0) }.code) ?? -1
    }

    func waitUntilConnected(timeout: Duration) -> Bool {
        state.wait(timeout: timeout) { $0.connected || $0.lifecycle == .shuttingDown || $0.lifecycle == .destroyed }
        return isConnected
    }

    func waitUntilPublished(messageID: Int32, timeout: Duration) -> Bool {
        state.wait(timeout: timeout) { state in
            !state.ledger.isPending(messageID) || state.lifecycle == .shuttingDown || state.lifecycle == .destroyed
        }
        return state.withLock { $0.ledger.wasPublished(messageID) }
    }
}

/// What the network thread needs, passed through `pthread_create`'s argument.
private final class NetworkThreadContext {
    let loop: MosquittoNetworkLoop

    init(loop: MosquittoNetworkLoop) {
        self.loop = loop
    }
}
