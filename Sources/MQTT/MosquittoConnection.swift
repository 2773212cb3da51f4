import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine behind ``MQTTClient``: one libmosquitto handle, its callbacks and the state they share.
///
/// Lifetime: libmosquitto's loop thread calls back with a raw pointer to this object (userdata). While
/// the loop runs the object keeps a strong reference to itself (`State.retainedWhileLoopRuns`), so it
/// cannot be freed under a running callback; ``shutdown(timeout:)`` drops that reference only after
/// `mosquitto_loop_stop` has joined the loop thread. The public ``MQTTClient`` is a separate object
/// that owns this one, so dropping the last ``MQTTClient`` reference runs its `deinit`, which shuts
/// this engine down and breaks the cycle.
final class MosquittoConnection: Sendable {
    /// Where the client is in its life.
    enum Lifecycle: Equatable {
        /// Handle created, loop not started.
        case created
        /// Loop thread running (connected or retrying).
        case running
        /// `shutdown` has begun: no new calls, no more events.
        case shuttingDown
        /// The handle is destroyed.
        case destroyed
    }

    /// Everything the callbacks and the public methods share; guarded by ``state``'s lock.
    struct State {
        var lifecycle = Lifecycle.created
        /// Public calls currently inside libmosquitto; the handle is destroyed only when this is 0.
        var callsInProgress = 0
        /// The broker accepted the current connection (CONNACK 0) and the socket is up: a new
        /// subscription can be sent now rather than at the next connect.
        var sessionUp = false
        /// Like `sessionUp`, but set only after the (re)subscriptions were queued: what waiters see.
        var connected = false
        /// Subscriptions in the order they were made, re-sent after every connect without a session.
        var subscriptions: [(filter: String, qos: MQTTQoS)] = []
        /// Message IDs returned by `publish` and not yet completed.
        var pendingPublications: Set<Int32> = []
        /// Completions that arrived before `publish` returned their ID (the loop thread can be faster).
        var completedBeforeRegistration: Set<Int32> = []
        /// The strong self-reference that keeps the object alive while the loop thread may call back.
        var retainedWhileLoopRuns: MosquittoConnection?
    }

    /// At most this many early completions are remembered (only QoS>0 publications that failed with
    /// NO_CONN but were kept by libmosquitto can leave entries behind).
    private static let earlyCompletionLimit = 1024

    /// The libmosquitto client handle.
    ///
    /// `nonisolated(unsafe)` is safe here: the pointer itself never changes; libmosquitto's publish,
    /// subscribe, unsubscribe and disconnect lock internally and may be called from any thread once
    /// `mosquitto_loop_start` has run; `mosquitto_destroy` is called exactly once, after the loop thread
    /// is joined and after every public call in progress has left libmosquitto (`callsInProgress == 0`),
    /// and no call is started once `lifecycle` has left `.created`/`.running`.
    nonisolated(unsafe) private let handle: OpaquePointer

    let configuration: MQTTClientConfiguration
    private let events: @Sendable (MQTTClientEvent) -> Void
    private let state = ConditionLock(State())
    /// `pthread_self()` of libmosquitto's loop thread, recorded before each event is delivered (0 = unknown).
    private let loopThread = Atomic<UInt>(0)

    /// Creates the handle and applies the configuration (protocol version first, then options, will).
    init(configuration: MQTTClientConfiguration, events: @escaping @Sendable (MQTTClientEvent) -> Void)
        throws(MQTTError)
    {
        try configuration.validate()
        try MosquittoLibrary.ensureInitialized()
        let clientID = configuration.clientID.isEmpty ? nil : configuration.clientID
        guard let handle = mosquitto_new(clientID, configuration.cleanSession, nil) else {
            throw MQTTError(code: Int32(MOSQ_ERR_ERRNO.rawValue), operation: "create MQTT client", systemErrno: errno)
        }
        self.handle = handle
        self.configuration = configuration
        self.events = events

        do {
            // The protocol version must be chosen before anything else, or v5 calls fail.
            try check(
                mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, configuration.protocolVersion.mosquittoValue),
                "select MQTT protocol version")
            if configuration.tcpNoDelay {
                try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "set TCP_NODELAY")
            }
            try check(
                mosquitto_reconnect_delay_set(
                    handle, UInt32(configuration.reconnectDelay.lowerBound),
                    UInt32(configuration.reconnectDelay.upperBound), true),
                "set reconnect delay")
            if let will = configuration.will {
                // Later: MQTT 5 will properties (message expiry, content type) go here.
                let willProperties: OpaquePointer? = nil
                let result = will.payload.withUnsafeBytes { payload in
                    mosquitto_will_set_v5(
                        handle, will.topic, Int32(payload.count), payload.baseAddress, will.qos.rawValue,
                        will.retain, willProperties)
                }
                try check(result, "set last will on \(will.topic)")
            }
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
        // Not retained: the strong reference is taken in `start`, when callbacks become possible.
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    deinit {
        // Reached only when the loop never ran or `shutdown` already destroyed the handle.
        let lifecycle = state.withLock { $0.lifecycle }
        if lifecycle == .created { mosquitto_destroy(handle) }
    }

    // MARK: Public operations (called by MQTTClient)

    /// Starts the loop thread, then the asynchronous connect (this order lets libmosquitto retry while
    /// the broker is down).
    func start() throws(MQTTError) {
        try state.withLock { (state) throws(MQTTError) in
            switch state.lifecycle {
            case .created: break
            case .running: throw MQTTError(code: Int32(MOSQ_ERR_INVAL.rawValue), operation: "start", detail: "already started")
            case .shuttingDown, .destroyed: throw Self.shutDownError("start")
            }
            state.lifecycle = .running
            state.callsInProgress += 1
            state.retainedWhileLoopRuns = self
        }
        defer { state.withLockBroadcasting { $0.callsInProgress -= 1 } }

        let loopResult = mosquitto_loop_start(handle)
        guard loopResult == MOSQ_ERR_SUCCESS.rawValue else {
            let systemErrno = errno
            state.withLock { state in
                if state.lifecycle == .running { state.lifecycle = .created }
                state.retainedWhileLoopRuns = nil
            }
            throw MQTTError(code: loopResult, operation: "start network loop", systemErrno: systemErrno)
        }
        let broker = configuration.broker
        let connectResult = mosquitto_connect_async(handle, broker.host, Int32(broker.port), Int32(configuration.keepAlive))
        let systemErrno = errno
        switch connectResult {
        case MOSQ_ERR_SUCCESS.rawValue, MOSQ_ERR_ERRNO.rawValue, MOSQ_ERR_EAI.rawValue:
            // ERRNO (e.g. connection refused) and EAI (name lookup failed): the running loop retries
            // with the configured delay and reports each failure as `disconnected`.
            return
        default:
            // A permanent error (invalid arguments, ...): stop the loop and return to `.created`.
            mosquitto_loop_stop(handle, true)
            state.withLock { state in
                // A concurrent `shutdown` may have begun meanwhile: leave its state alone.
                if state.lifecycle == .running { state.lifecycle = .created }
                state.retainedWhileLoopRuns = nil
            }
            throw MQTTError(code: connectResult, operation: "connect to \(broker)", systemErrno: systemErrno)
        }
    }

    /// Queues a publication; returns its message ID.
    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        var messageID: Int32 = 0
        let result = try callLibrary("publish to \(message.topic)") { handle in
            guard message.payload.count <= Int(Int32.max) else { return Int32(MOSQ_ERR_PAYLOAD_SIZE.rawValue) }
            // Later: MQTT 5 publish properties (response topic, correlation data, ...) go here.
            let properties: OpaquePointer? = nil
            return message.payload.withUnsafeBytes { payload in
                mosquitto_publish_v5(
                    handle, &messageID, message.topic, Int32(payload.count), payload.baseAddress,
                    message.qos.rawValue, message.retain, properties)
            }
        }
        guard result.code == MOSQ_ERR_SUCCESS.rawValue else {
            var detail: String?
            if result.code == MOSQ_ERR_INVAL.rawValue,
                message.topic.isEmpty || mosquitto_pub_topic_check(message.topic) != MOSQ_ERR_SUCCESS.rawValue
            {
                detail = "\"\(message.topic)\" is not a valid topic name: it must be non-empty and contain no + or # wildcards"
            } else if result.code == MOSQ_ERR_NO_CONN.rawValue, message.qos != .atMostOnce {
                detail = "libmosquitto may still send it after reconnecting"
            }
            throw MQTTError(code: result.code, operation: "publish to \(message.topic)", systemErrno: result.errno, detail: detail)
        }
        state.withLock { state in
            if state.completedBeforeRegistration.remove(messageID) == nil {
                state.pendingPublications.insert(messageID)
            }
        }
        return messageID
    }

    /// Records the subscription (re-sent after every reconnect) and sends it now if connected.
    func subscribe(_ topicFilter: String, qos: MQTTQoS) throws(MQTTError) {
        guard mosquitto_sub_topic_check(topicFilter) == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(
                code: Int32(MOSQ_ERR_INVAL.rawValue), operation: "subscribe to \(topicFilter)",
                detail: "\"\(topicFilter)\" is not a valid topic filter (+ and # must fill a whole level, # only last)")
        }
        let sendNow = try enterLibrary("subscribe to \(topicFilter)") { state in
            state.subscriptions.removeAll { $0.filter == topicFilter }
            state.subscriptions.append((topicFilter, qos))
            return state.sessionUp
        }
        defer { leaveLibrary() }
        guard sendNow else { return }  // sent by the connect callback
        let result = mosquitto_subscribe_v5(handle, nil, topicFilter, qos.rawValue, 0, nil)
        let systemErrno = errno
        guard result == MOSQ_ERR_SUCCESS.rawValue || result == MOSQ_ERR_NO_CONN.rawValue else {
            state.withLock { $0.subscriptions.removeAll { $0.filter == topicFilter } }
            throw MQTTError(code: result, operation: "subscribe to \(topicFilter)", systemErrno: systemErrno)
        }
    }

    /// Forgets the subscription and sends UNSUBSCRIBE if connected.
    func unsubscribe(_ topicFilter: String) throws(MQTTError) {
        let sendNow = try enterLibrary("unsubscribe from \(topicFilter)") { state in
            state.subscriptions.removeAll { $0.filter == topicFilter }
            return state.sessionUp
        }
        defer { leaveLibrary() }
        guard sendNow else { return }
        let result = mosquitto_unsubscribe_v5(handle, nil, topicFilter, nil)
        let systemErrno = errno
        guard result == MOSQ_ERR_SUCCESS.rawValue || result == MOSQ_ERR_NO_CONN.rawValue else {
            throw MQTTError(code: result, operation: "unsubscribe from \(topicFilter)", systemErrno: systemErrno)
        }
    }

    var isConnected: Bool { state.withLock { $0.connected } }

    func waitUntilConnected(timeout: Duration) -> Bool {
        state.wait(timeout: timeout) { $0.connected || $0.lifecycle == .shuttingDown || $0.lifecycle == .destroyed }
        return isConnected
    }

    func waitUntilPublished(messageID: Int32, timeout: Duration) -> Bool {
        state.wait(timeout: timeout) { state in
            !state.pendingPublications.contains(messageID) || state.lifecycle == .shuttingDown
                || state.lifecycle == .destroyed
        }
        return state.withLock { !$0.pendingPublications.contains(messageID) }
    }

    /// Clean shutdown: DISCONNECT → `loop_stop(false)` → destroy. Idempotent; see ``MQTTClient/shutdown(timeout:)``.
    func shutdown(timeout: Duration) {
        let previous = state.withLockBroadcasting { state in
            let previous = state.lifecycle
            if previous == .created || previous == .running { state.lifecycle = .shuttingDown }
            return previous
        }
        let onLoopThread = loopThread.load(ordering: .relaxed) == Self.currentThread()
        switch previous {
        case .destroyed:
            return
        case .shuttingDown:
            // Another thread is shutting down: wait for it (never on the loop thread, it must exit).
            if !onLoopThread { _ = state.wait(timeout: timeout) { $0.lifecycle == .destroyed } }
            return
        case .created, .running:
            if onLoopThread {
                // Called from the event handler: the loop thread cannot join itself. Events are already
                // off; finish on another thread once this callback has returned.
                DispatchQueue.global().async { self.finishShutdown(wasRunning: true, timeout: timeout) }
            } else {
                finishShutdown(wasRunning: previous == .running, timeout: timeout)
            }
        }
    }

    private func finishShutdown(wasRunning: Bool, timeout: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        func remaining() -> Duration { max(.zero, clock.now.duration(to: deadline)) }
        // New calls are refused now; let the ones inside libmosquitto finish.
        _ = state.wait(timeout: remaining()) { $0.callsInProgress == 0 }
        if wasRunning {
            let disconnectResult = mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil)
            // Wait for the DISCONNECT to be written (the disconnect callback), then let the loop end by
            // itself; force it only if that takes longer than the timeout (the broker then sends the will).
            let disconnected =
                disconnectResult != MOSQ_ERR_SUCCESS.rawValue
                || state.wait(timeout: remaining()) { !$0.sessionUp }
            mosquitto_loop_stop(handle, !disconnected)
        }
        _ = state.wait(timeout: .seconds(1)) { $0.callsInProgress == 0 }
        let retained = state.withLockBroadcasting { state in
            state.lifecycle = .destroyed
            state.sessionUp = false
            state.connected = false
            defer { state.retainedWhileLoopRuns = nil }
            return state.retainedWhileLoopRuns
        }
        mosquitto_destroy(handle)
        withExtendedLifetime(retained) {}  // the last strong reference may go only after destroy
    }

    // MARK: Calling into libmosquitto safely

    /// Runs `body` with the handle after checking the client is usable, counting it as a call in progress.
    private func callLibrary(_ operation: @autoclosure () -> String, _ body: (OpaquePointer) -> Int32)
        throws(MQTTError) -> (code: Int32, errno: Int32)
    {
        try enterLibrary(operation()) { _ in }
        defer { leaveLibrary() }
        let code = body(handle)
        return (code, errno)
    }

    /// Refuses the call after shutdown began, otherwise runs `body` under the lock and counts the call.
    private func enterLibrary<Result>(_ operation: @autoclosure () -> String, _ body: (inout State) -> Result)
        throws(MQTTError) -> Result
    {
        let result: Result? = state.withLock { state in
            guard state.lifecycle == .created || state.lifecycle == .running else { return nil }
            state.callsInProgress += 1
            return body(&state)
        }
        guard let result else { throw Self.shutDownError(operation()) }
        return result
    }

    private func leaveLibrary() {
        state.withLockBroadcasting { $0.callsInProgress -= 1 }
    }

    private static func shutDownError(_ operation: String) -> MQTTError {
        MQTTError(code: Int32(MOSQ_ERR_NO_CONN.rawValue), operation: operation, detail: "the client has been shut down")
    }

    private func check(_ result: Int32, _ operation: String) throws(MQTTError) {
        guard result == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(code: result, operation: operation, systemErrno: errno)
        }
    }

    private static func currentThread() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    // MARK: Callbacks (libmosquitto's loop thread, with its callback lock held: keep them short)

    private func installCallbacks() {
        // C function pointers cannot capture: the owner comes back through the userdata pointer.
        mosquitto_connect_v5_callback_set(handle) { _, userdata, reasonCode, flags, _ in
            MosquittoConnection.owner(userdata)?.didConnect(reasonCode: reasonCode, flags: flags)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, userdata, reasonCode, _ in
            MosquittoConnection.owner(userdata)?.didDisconnect(reasonCode: reasonCode)
        }
        mosquitto_publish_v5_callback_set(handle) { _, userdata, messageID, _, _ in
            MosquittoConnection.owner(userdata)?.didPublish(messageID: messageID)
        }
        mosquitto_message_v5_callback_set(handle) { _, userdata, message, _ in
            guard let message else { return }
            MosquittoConnection.owner(userdata)?.didReceive(message.pointee)
        }
    }

    /// The object behind a userdata pointer. Unretained is safe: `retainedWhileLoopRuns` keeps it
    /// alive for as long as the loop thread can call back.
    private static func owner(_ userdata: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        guard let userdata else { return nil }
        return Unmanaged<MosquittoConnection>.fromOpaque(userdata).takeUnretainedValue()
    }

    private func didConnect(reasonCode: Int32, flags: Int32) {
        guard reasonCode == 0 else {
            let reason = MQTTError.brokerReasonMessage(reasonCode, protocolVersion: configuration.protocolVersion)
            deliver(.connectionRefused(reasonCode: reasonCode, reason: reason))
            return
        }
        let sessionPresent = flags & 1 != 0
        let resubscriptions = state.withLock { state in
            state.sessionUp = true
            // A resumed session still has its subscriptions; re-sending them would repeat retained messages.
            return sessionPresent ? [] : state.subscriptions
        }
        for subscription in resubscriptions {
            // A failure here means the connection is already gone; the next connect tries again.
            _ = mosquitto_subscribe_v5(handle, nil, subscription.filter, subscription.qos.rawValue, 0, nil)
        }
        state.withLockBroadcasting { $0.connected = true }
        deliver(.connected(sessionPresent: sessionPresent))
    }

    private func didDisconnect(reasonCode: Int32) {
        state.withLockBroadcasting { state in
            state.sessionUp = false
            state.connected = false
        }
        // libmosquitto 2.0.11 passes MOSQ_ERR_* codes here (a broker's DISCONNECT arrives as
        // MOSQ_ERR_CONN_LOST); MQTT 5 reason codes (>= 0x80) are explained should a version pass them.
        let reason =
            reasonCode == 0
            ? "disconnected by this client"
            : reasonCode >= 0x80 ? MQTTError.brokerReasonMessage(reasonCode) : MQTTError.libraryMessage(reasonCode)
        deliver(.disconnected(reasonCode: reasonCode, reason: reason))
    }

    private func didPublish(messageID: Int32) {
        state.withLockBroadcasting { state in
            if state.pendingPublications.remove(messageID) == nil {
                if state.completedBeforeRegistration.count >= Self.earlyCompletionLimit {
                    state.completedBeforeRegistration.removeAll()
                }
                state.completedBeforeRegistration.insert(messageID)
            }
        }
        deliver(.published(messageID: messageID))
    }

    private func didReceive(_ message: mosquitto_message) {
        let length = Int(max(0, message.payloadlen))
        let payload: [UInt8] =
            if let bytes = message.payload, length > 0 {
                Array(UnsafeRawBufferPointer(start: bytes, count: length))
            } else {
                []
            }
        let topic = message.topic.map { String(cString: $0) } ?? ""
        let qos = MQTTQoS(rawValue: message.qos) ?? .atMostOnce
        deliver(.message(MQTTMessage(topic: topic, payload: payload, qos: qos, retain: message.retain)))
    }

    /// Hands `event` to the handler unless shutdown has begun. The lock is not held while the handler
    /// runs, so the handler may publish or subscribe.
    private func deliver(_ event: MQTTClientEvent) {
        // Lets `shutdown` recognise a call from inside the handler (this thread cannot join itself).
        loopThread.store(Self.currentThread(), ordering: .relaxed)
        guard state.withLock({ $0.lifecycle == .running }) else { return }
        events(event)
    }
}
