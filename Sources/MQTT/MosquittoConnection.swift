import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine behind ``MQTTClient``: one libmosquitto handle, the network thread that drives it, its
/// callbacks, the offline buffer and the state they share.
///
/// **Network thread.** The client runs its own thread instead of `mosquitto_loop_start`, so that it
/// decides when and how to reconnect: libmosquitto's threaded loop has no jitter, grows its delay
/// quadratically, and ends for good on a TLS error or an MQTT 5 CONNACK refusal. The thread drives the
/// connection in passes (at most 200 ms each over TLS, a quarter of the keep-alive over plain TCP),
/// flushes the offline buffer between them, and after a lost or failed connection waits
/// ``MQTTReconnectBackoff``'s delay and calls
/// `mosquitto_reconnect_async`, switching to MQTT 3.1.1 first when the broker refused MQTT 5.
///
/// **Who writes to the socket.** Over plain TCP a publication is written by the thread that publishes:
/// libmosquitto, not in threaded mode, writes a queued packet at once under its own packet locks. This
/// saves the agent a network-thread wake-up per publication. The network thread then polls the socket
/// for input and a ``WakeSignal`` (raised only when a packet could not be written at once) and calls
/// `mosquitto_loop_read`, `mosquitto_loop_write` and `mosquitto_loop_misc`. It is the only thread that
/// makes calls that can close the socket (those three, DISCONNECT, reconnect), and makes them holding
/// ``socketLock`` for writing while publishing threads hold it for reading, so a descriptor is never
/// closed, and its number reused, under another thread. Over TLS one `SSL` object must not be read and
/// written by two threads at once, so there the client uses `mosquitto_threaded_set`: publishing threads
/// only queue, libmosquitto wakes the network thread through its socket pair, and the thread runs
/// `mosquitto_loop`.
///
/// **Lifetime.** Callbacks get a raw pointer to this object (userdata). While the thread runs the
/// object keeps a strong reference to itself (`State.retainedWhileLoopRuns`); ``shutdown(timeout:)``
/// drops it only after joining the thread. The public ``MQTTClient`` owns this object, so dropping the
/// last ``MQTTClient`` reference runs its `deinit`, which shuts this engine down and breaks the cycle.
final class MosquittoConnection: Sendable {
    /// Where the client is in its life.
    enum Lifecycle: Equatable {
        /// Handle created, network thread not started.
        case created
        /// Network thread running (connected or retrying).
        case running
        /// `shutdown` has begun: no new calls, no more events.
        case shuttingDown
        /// The handle is destroyed.
        case destroyed
    }

    /// A subscription to re-send after every connect without a session.
    struct Subscription {
        let filter: String
        let qos: MQTTQoS
        /// MQTT 5 subscription options (`MQTT_SUB_OPT_*`), sent only on an MQTT 5 connection.
        let options: Int32
    }

    /// Everything the callbacks, the network thread and the public methods share; guarded by ``state``.
    struct State {
        var lifecycle = Lifecycle.created
        /// Public calls currently inside libmosquitto; the handle is destroyed only when this is 0.
        var callsInProgress = 0
        /// The broker accepted the current connection (CONNACK 0) and the socket is up.
        var sessionUp = false
        /// Like `sessionUp`, but set only after the (re)subscriptions were queued: what waiters see.
        var connected = false
        /// Subscriptions in the order they were made.
        var subscriptions: [Subscription] = []
        /// The publications still owed an outcome.
        var ledger = PublicationLedger()
        /// Messages waiting for a connection (or for the flush after connecting).
        var buffer: OfflineMessageBuffer
        /// The next journal key (keys grow with every journaled message, so their order is the send order).
        var nextJournalKey: Int64 = 1
        /// The buffer is being sent after a connect; new publications queue behind it meanwhile.
        var flushing = false
        /// The next ID for a buffered message (counts down from -1).
        var nextBufferedID: Int32 = -1
        var statistics = MQTTClientStatistics()
        /// The protocol version currently set on the handle (MQTT 3.1.1 after a fallback).
        var protocolVersion: MQTTProtocolVersion
        /// The broker of the current (or last) connection attempt.
        var currentBroker: MQTTBrokerAddress?
        /// The protocol of the last accepted connection.
        var negotiatedProtocolVersion: MQTTProtocolVersion?
        /// The CONNACK reason code of the current connection attempt (`nil`: no CONNACK yet).
        var connackReasonCode: Int32?
        var hasConnectedBefore = false
        /// Set by `shutdown` once the DISCONNECT is written (or could not be): the thread exits.
        var stopNetworkThread = false
        /// The reconnect back-off's wait has run out (set on the configuration's clock).
        var retryDue = false
        /// The network thread, until it is joined.
        var networkThread: pthread_t?
        var networkThreadExited = false
        /// The disconnect callback ran for the current connection attempt.
        var disconnectReported = false
        /// The last error line libmosquitto logged (OpenSSL explains TLS failures there).
        var lastLibraryError: String?
        /// The strong self-reference that keeps the object alive while callbacks are possible.
        var retainedWhileLoopRuns: MosquittoConnection?
        /// `shutdown` asks the network thread to send DISCONNECT (plain TCP: only that thread closes the
        /// socket).
        var disconnectRequested = false
        /// `shutdown` gave up waiting for the network thread (inside a blocking connect): the thread
        /// destroys the handle itself when it exits.
        var teardownHandedToNetworkThread = false
    }

    /// How long one `mosquitto_loop` call (TLS) may wait for traffic, in milliseconds; bounds how late
    /// the thread notices a forced stop.
    static let loopTimeoutMilliseconds: Int32 = 200
    /// How long one poll (plain TCP) may wait for traffic, in milliseconds: a quarter of the keep-alive
    /// interval (at least 1 s), the only duty without an event to wake it, since the ``WakeSignal`` ends
    /// the poll for a stop or an unwritten packet and input ends it for the rest. A PINGREQ thus leaves
    /// at most a quarter interval late, well inside the broker's 1.5 intervals, and a broker that stopped
    /// answering is noticed at most as much later; a fleet simulator's thousands of idle connections
    /// wake a few times a minute instead of every second.
    static func pollTimeoutMilliseconds(keepAlive: Int) -> Int32 {
        Int32(clamping: max(1_000, keepAlive * 1_000 / 4))
    }

    /// The libmosquitto client handle.
    ///
    /// `nonisolated(unsafe)` is safe here: the pointer itself never changes; with
    /// `mosquitto_threaded_set(true)` libmosquitto's publish, subscribe, unsubscribe and disconnect
    /// lock internally and only queue packets, so they may be called from any thread while the network
    /// thread runs `mosquitto_loop`; connect, reconnect and option changes after `start` happen only on
    /// the network thread; `mosquitto_destroy` is called exactly once, after that thread is joined and
    /// every public call has left libmosquitto (`callsInProgress == 0`).
    nonisolated(unsafe) let handle: OpaquePointer

    let configuration: MQTTClientConfiguration
    let backoff: MQTTReconnectBackoff
    let events: @Sendable (MQTTClientEvent) -> Void
    let state: ConditionLock<State>
    /// `pthread_self()` of the network thread (0 before it starts).
    let loopThread = Atomic<UInt>(0)
    /// Ends the network thread's poll early; `nil` over TLS, where the thread runs `mosquitto_loop`
    /// and libmosquitto's socket pair wakes it (see "Who writes to the socket" above).
    let wakeSignal: WakeSignal?
    /// Plain TCP: read-held by threads writing to the socket, write-held by the network thread around
    /// calls that can close it (see "Who writes to the socket" above).
    let socketLock = ReadWriteLock()
    /// The MQTT 5 property lists of recurring messages (data topics), built once.
    let propertyCache = MosquittoPropertyCache()
    /// The durable copy of the offline buffer, when configured.
    let journal: OfflineMessageJournal?

    /// Creates the handle and applies the configuration (protocol version first, then options,
    /// credentials, TLS, will).
    init(configuration: MQTTClientConfiguration, events: @escaping @Sendable (MQTTClientEvent) -> Void)
        throws(MQTTError)
    {
        try configuration.validate()
        try MosquittoLibrary.ensureInitialized()
        let clientID = configuration.clientID.isEmpty ? nil : configuration.clientID
        guard let handle = mosquitto_new(clientID, configuration.cleanSession, nil) else {
            throw MQTTError(code: MosquittoResult.systemError.code, operation: "create MQTT client", systemErrno: errno)
        }
        self.handle = handle
        do {
            self.wakeSignal = configuration.tls == nil ? try WakeSignal() : nil
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
        self.configuration = configuration
        self.backoff = configuration.reconnectBackoff
        self.events = events
        let journal = configuration.durableOfflineBuffer.map {
            OfflineMessageJournal(
                configuration: $0, limits: configuration.offlineBuffer, defaultOwner: configuration.bufferOwner, clock: configuration.clock)
        }
        self.journal = journal
        var initial = State(buffer: OfflineMessageBuffer(limits: configuration.offlineBuffer), protocolVersion: configuration.protocolVersion)
        if let journal {
            // What an earlier run could not send goes first, in its order, before anything published now.
            let now = DispatchTime.now().uptimeNanoseconds
            for kept in journal.takeRecovered() {
                var entry = OfflineMessageBuffer.Entry(message: kept.message, id: initial.nextBufferedID, size: kept.message.bufferedSize)
                entry.journalKey = kept.key
                // Its expiry counts from when it was published, in an earlier run (wall clock: the
                // monotonic one restarts with the board).
                let age = journal.openedAt - kept.storedAt
                let waited: UInt64 = age.isFinite && age > 0 ? (age < 1e9 ? UInt64(age * 1e9) : .max) : 0
                entry.publishedAt = now > waited ? now - waited : 0
                initial.nextBufferedID -= 1
                _ = initial.buffer.append(entry, enforcingLimits: false)
            }
            initial.statistics.droppedFromBuffer = journal.droppedAtOpen
            initial.nextJournalKey = journal.largestKey + 1
        }
        self.state = ConditionLock(initial)

        // Every stored property is set: if this throws, `deinit` runs and destroys the handle (destroying
        // it here as well would free it twice).
        try Self.apply(configuration, to: handle)
        // Not retained: the strong reference is taken in `start`, when callbacks become possible.
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    static func apply(_ configuration: MQTTClientConfiguration, to handle: OpaquePointer) throws(MQTTError) {
        func check(_ result: Int32, _ operation: String) throws(MQTTError) {
            guard MosquittoResult(result).isSuccess else {
                throw MQTTError(code: result, operation: operation, systemErrno: errno)
            }
        }
        // The protocol version must be chosen before anything else, or v5 calls fail.
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, configuration.protocolVersion.mosquittoValue),
            "select MQTT protocol version")
        if configuration.tls != nil {
            // Over TLS only the network thread may touch the socket: publishing threads just queue.
            try check(mosquitto_threaded_set(handle, true), "enable thread-safe mode")
        }
        if configuration.tcpNoDelay {
            try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "set TCP_NODELAY")
        }
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_SEND_MAXIMUM, Int32(configuration.sendMaximum)), "set send maximum")
        if let username = configuration.username {
            try check(mosquitto_username_pw_set(handle, username, configuration.password?.secret), "set user name and password")
        }
        if let tls = configuration.tls {
            let result = mosquitto_tls_set(handle, tls.caFile, tls.caDirectory, tls.certificateFile, tls.keyFile, nil)
            guard MosquittoResult(result).isSuccess else {
                let files = [tls.caFile, tls.caDirectory, tls.certificateFile, tls.keyFile].compactMap { $0 }
                throw MQTTError(
                    code: result, operation: "configure TLS", systemErrno: errno,
                    detail: "check that these exist and are readable: \(files.joined(separator: ", "))")
            }
            if let version = tls.tlsVersion {
                try check(mosquitto_tls_opts_set(handle, 1, version, nil), "set TLS version \(version)")
            }
            try check(mosquitto_tls_insecure_set(handle, tls.insecureSkipHostnameCheck), "set TLS host name check")
        }
        if let will = configuration.will {
            var willProperties = configuration.protocolVersion == .v5 ? try MosquittoProperties.make(for: will) : nil
            let result = will.payload.withUnsafeBytes { payload in
                mosquitto_will_set_v5(
                    handle, will.topic, Int32(payload.count), payload.baseAddress, will.qos.rawValue, will.retain,
                    willProperties)
            }
            // mosquitto_will_set_v5 owns the properties only when it succeeds.
            if !MosquittoResult(result).isSuccess { mosquitto_property_free_all(&willProperties) }
            try check(result, "set last will on \(will.topic)")
        }
    }

    deinit {
        // Reached only when the thread never ran or `shutdown` already destroyed the handle.
        let lifecycle = state.withLock { $0.lifecycle }
        if lifecycle == .created { mosquitto_destroy(handle) }
    }

    // MARK: Public operations (called by MQTTClient)

    /// Starts the network thread, which connects (the first attempt blocks that thread, not the caller)
    /// and retries until shutdown.
    func start() throws(MQTTError) {
        try state.withLock { (state) throws(MQTTError) in
            switch state.lifecycle {
            case .created: break
            case .running: throw MQTTError(code: MosquittoResult.invalid.code, operation: "start", detail: "already started")
            case .shuttingDown, .destroyed: throw Self.shutDownError("start")
            }
            state.lifecycle = .running
            state.retainedWhileLoopRuns = self
        }
        journal?.startReporting { [weak self] problem in self?.deliver(.offlineBufferProblem(problem)) }
        let context = Unmanaged.passRetained(NetworkThreadContext(connection: self))
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<NetworkThreadContext>.fromOpaque(raw!).takeRetainedValue()
            context.connection.runNetworkThread()
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
        let subscription = Subscription(filter: topicFilter, qos: qos, options: options)
        let sendNow: MQTTProtocolVersion? = try enterLibrary("subscribe to \(topicFilter)") { state in
            state.subscriptions.removeAll { $0.filter == topicFilter }
            state.subscriptions.append(subscription)
            return state.sessionUp ? state.protocolVersion : nil
        }
        defer { leaveLibrary() }
        guard let version = sendNow else { return }  // sent by the connect callback
        let result = usingSocket { send(subscription, protocolVersion: version) }
        let systemErrno = errno
        guard result.isSuccess || result.meansConnectionDropped else {
            state.withLock { $0.subscriptions.removeAll { $0.filter == topicFilter } }
            throw MQTTError(code: result.code, operation: "subscribe to \(topicFilter)", systemErrno: systemErrno)
        }
    }

    /// SUBSCRIBE; the options go only to an MQTT 5 broker (3.1.1 has no bits for them).
    func send(_ subscription: Subscription, protocolVersion: MQTTProtocolVersion) -> MosquittoResult {
        MosquittoResult(mosquitto_subscribe_v5(
            handle, nil, subscription.filter, subscription.qos.rawValue,
            protocolVersion == .v5 ? subscription.options : 0, nil))
    }

    /// Forgets the subscription and sends UNSUBSCRIBE if connected.
    func unsubscribe(_ topicFilter: String) throws(MQTTError) {
        let sendNow = try enterLibrary("unsubscribe from \(topicFilter)") { state in
            state.subscriptions.removeAll { $0.filter == topicFilter }
            return state.sessionUp
        }
        defer { leaveLibrary() }
        guard sendNow else { return }
        let result = MosquittoResult(usingSocket { mosquitto_unsubscribe_v5(handle, nil, topicFilter, nil) })
        let systemErrno = errno
        guard result.isSuccess || result.meansConnectionDropped else {
            throw MQTTError(code: result.code, operation: "unsubscribe from \(topicFilter)", systemErrno: systemErrno)
        }
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
            statistics.offlineBufferIsDurable = journal?.isDurable ?? false
            statistics.offlineBufferOthersMessages = journal?.othersMessages ?? 0
            statistics.offlineBufferProblem = journal?.lastProblem
            return statistics
        }
    }

    /// The socket descriptor (-1 when not connected), for tests that inspect socket options.
    var socketDescriptor: Int32 {
        (try? callLibrary("read socket") { mosquitto_socket($0) }.code) ?? -1
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
    let connection: MosquittoConnection

    init(connection: MosquittoConnection) {
        self.connection = connection
    }
}
