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
/// connection in passes (at most 200 ms each over TLS, 1 s over plain TCP), flushes the offline buffer
/// between them, and after a lost or failed connection waits ``MQTTReconnectBackoff``'s delay and calls
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
        /// Message IDs returned by `publish` and not yet completed (negative IDs: buffered messages).
        var pendingPublications: Set<Int32> = []
        /// Completions that arrived before `publish` returned their ID (the loop thread can be faster).
        var completedBeforeRegistration: Set<Int32> = []
        /// Buffered messages dropped before they were sent: `waitUntilPublished` answers `false` for them.
        var abandonedPublications: Set<Int32> = []
        /// libmosquitto message ID → the negative ID `publish` returned, for flushed buffered messages.
        var bufferedIDsBySentID: [Int32: Int32] = [:]
        /// Message IDs of QoS ≥ 1 publications handed to libmosquitto and not yet acknowledged.
        var awaitingAcknowledgement: Set<Int32> = []
        /// Messages waiting for a connection (or for the flush after connecting).
        var buffer: OfflineMessageBuffer
        /// With a durable buffer: the journal keys of QoS ≥ 1 messages handed to libmosquitto and not yet
        /// acknowledged, by libmosquitto message ID (deleted from the journal at the acknowledgement, so
        /// that one acknowledged within the commit interval is never written at all).
        var journalKeysBySentID: [Int32: Int64] = [:]
        /// The next journal key (keys grow with every journaled message, so their order is the send order).
        var nextJournalKey: Int64 = 1
        /// The buffer is being sent after a connect; new publications queue behind it meanwhile.
        var flushing = false
        /// The next ID for a buffered message (counts down from -1).
        var nextBufferedID: Int32 = -1
        var statistics = MQTTClientStatistics()
        /// The protocol version currently set on the handle (MQTT 3.1.1 after a fallback).
        var protocolVersion: MQTTProtocolVersion
        /// The protocol of the last accepted connection.
        var negotiatedProtocolVersion: MQTTProtocolVersion?
        /// The CONNACK reason code of the current connection attempt (`nil`: no CONNACK yet).
        var connackReasonCode: Int32?
        var hasConnectedBefore = false
        /// Set by `shutdown` once the DISCONNECT is written (or could not be): the thread exits.
        var stopNetworkThread = false
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

    /// At most this many early completions are remembered.
    private static let earlyCompletionLimit = 1024
    /// How long one `mosquitto_loop` call (TLS) may wait for traffic, in milliseconds; bounds how late
    /// the thread notices a forced stop.
    private static let loopTimeoutMilliseconds: Int32 = 200
    /// How long one poll (plain TCP) may wait for traffic, in milliseconds: the ``WakeSignal`` ends it
    /// for a stop or an unwritten packet, and keepalive intervals are whole seconds.
    private static let pollTimeoutMilliseconds: Int32 = 1000

    /// The libmosquitto client handle.
    ///
    /// `nonisolated(unsafe)` is safe here: the pointer itself never changes; with
    /// `mosquitto_threaded_set(true)` libmosquitto's publish, subscribe, unsubscribe and disconnect
    /// lock internally and only queue packets, so they may be called from any thread while the network
    /// thread runs `mosquitto_loop`; connect, reconnect and option changes after `start` happen only on
    /// the network thread; `mosquitto_destroy` is called exactly once, after that thread is joined and
    /// every public call has left libmosquitto (`callsInProgress == 0`).
    nonisolated(unsafe) private let handle: OpaquePointer

    let configuration: MQTTClientConfiguration
    private let backoff: MQTTReconnectBackoff
    private let events: @Sendable (MQTTClientEvent) -> Void
    private let state: ConditionLock<State>
    /// `pthread_self()` of the network thread (0 before it starts).
    private let loopThread = Atomic<UInt>(0)
    /// Ends the network thread's poll early; `nil` over TLS, where the thread runs `mosquitto_loop`
    /// and libmosquitto's socket pair wakes it (see "Who writes to the socket" above).
    private let wakeSignal: WakeSignal?
    /// Plain TCP: read-held by threads writing to the socket, write-held by the network thread around
    /// calls that can close it (see "Who writes to the socket" above).
    private let socketLock = ReadWriteLock()
    /// The MQTT 5 property lists of recurring messages (data topics), built once.
    private let propertyCache = MosquittoPropertyCache()
    /// The durable copy of the offline buffer, when configured.
    private let journal: OfflineMessageJournal?

    /// Creates the handle and applies the configuration (protocol version first, then options,
    /// credentials, TLS, will).
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
            OfflineMessageJournal(configuration: $0, limits: configuration.offlineBuffer)
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

    private static func apply(_ configuration: MQTTClientConfiguration, to handle: OpaquePointer) throws(MQTTError) {
        func check(_ result: Int32, _ operation: String) throws(MQTTError) {
            guard result == MOSQ_ERR_SUCCESS.rawValue else {
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
            guard result == MOSQ_ERR_SUCCESS.rawValue else {
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
            if result != MOSQ_ERR_SUCCESS.rawValue { mosquitto_property_free_all(&willProperties) }
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
            case .running: throw MQTTError(code: Int32(MOSQ_ERR_INVAL.rawValue), operation: "start", detail: "already started")
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
            throw MQTTError(code: Int32(MOSQ_ERR_ERRNO.rawValue), operation: "start network thread", systemErrno: created)
        }
        state.withLockBroadcasting { $0.networkThread = thread }
    }

    /// Network thread: the first connection attempt (and the first after a fallback to MQTT 3.1.1), with
    /// the CONNECT properties (MQTT 5), which
    /// libmosquitto keeps for every `mosquitto_reconnect_async` after it. libmosquitto 2.0.11 has no
    /// asynchronous connect that takes properties, so this blocks this thread for the TCP connect (and
    /// the TLS handshake); a shutdown meanwhile hands the teardown to this thread (``finishShutdown``).
    /// - Returns: libmosquitto's result and `errno`.
    /// - Parameter protocolVersion: the version set on the handle; MQTT 3.1.1 sends no properties, which also
    ///   replaces the stored MQTT 5 ones after a fallback (they would make every 3.1.1 reconnect fail).
    private func connectWithProperties(_ protocolVersion: MQTTProtocolVersion) -> (result: Int32, errno: Int32) {
        let broker = configuration.broker
        var properties = protocolVersion == .v5 ? Self.connectProperties(configuration) : nil
        defer { mosquitto_property_free_all(&properties) }
        let result = closingSocket {
            mosquitto_connect_bind_v5(handle, broker.host, Int32(broker.port), Int32(configuration.keepAlive), nil, properties)
        }
        return (result, errno)
    }

    /// The CONNECT properties of an MQTT 5 connection (`nil` for MQTT 3.1.1, or when there are none): the
    /// session expiry interval of a persistent session (without it an MQTT 5 broker ends the session when
    /// the connection closes, whatever `cleanSession` says), and the maximum packet size this client
    /// accepts, so that the broker drops larger messages instead of sending them.
    private static func connectProperties(_ configuration: MQTTClientConfiguration) -> OpaquePointer? {
        guard configuration.protocolVersion == .v5 else { return nil }
        var properties: OpaquePointer?
        var result = Int32(MOSQ_ERR_SUCCESS.rawValue)
        if let expiry = configuration.effectiveSessionExpiryInterval, expiry > 0 {
            result = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), expiry)
        }
        if let maximum = configuration.maximumIncomingPacketSize, result == MOSQ_ERR_SUCCESS.rawValue {
            result = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), maximum)
        }
        guard result == MOSQ_ERR_SUCCESS.rawValue else {
            mosquitto_property_free_all(&properties)
            return nil
        }
        return properties
    }

    /// Publishes now, or buffers while disconnected (or while the buffer is being flushed).
    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        // Only errors need it: not built for every message.
        var operation: String { "publish to \(message.topic)" }
        guard MQTTMessage.isValidTopicName(message.topic) else {
            state.withLock { $0.statistics.publishErrors += 1 }
            throw MQTTError(
                code: Int32(MOSQ_ERR_INVAL.rawValue), operation: operation,
                detail: "\"\(message.topic)\" is not a valid topic name: it must be non-empty and contain no + or # wildcards")
        }
        enum Route {
            /// Hand it to libmosquitto now; with a durable buffer a QoS ≥ 1 message is journaled first.
            case direct(MQTTProtocolVersion, journalKey: Int64?)
            case buffered(Int32)
            case refusedOffline(String)
            case tooLarge
            case shutDown
        }
        let route: Route = state.withLockBroadcasting { state in
            guard state.lifecycle == .created || state.lifecycle == .running else { return .shutDown }
            if state.sessionUp, !state.flushing, state.buffer.isEmpty {
                state.callsInProgress += 1
                // Journaled before it is sent: a SIGKILL or power cut before the broker's acknowledgement
                // (which may take a keepalive to miss on a silent link) must not lose it.
                return .direct(state.protocolVersion, journalKey: journalKey(for: message, in: &state))
            }
            guard state.sessionUp || message.qos != .atMostOnce else {
                state.statistics.droppedWhileDisconnected += 1
                return .refusedOffline("QoS 0 messages published while disconnected are dropped")
            }
            guard state.buffer.limits.isEnabled else {
                state.statistics.droppedWhileDisconnected += 1
                return .refusedOffline("the offline buffer is disabled")
            }
            let id = state.nextBufferedID
            state.nextBufferedID = id == Int32.min ? -1 : id - 1
            var entry = OfflineMessageBuffer.Entry(message: message, id: id, size: message.bufferedSize)
            entry.journalKey = journalKey(for: message, in: &state)
            // While connected the buffer is only being flushed: new messages wait behind it without
            // pushing older ones out (the bounds protect against long outages, not a reconnect).
            let dropped = state.buffer.append(entry, enforcingLimits: !state.sessionUp)
            for entry in dropped {
                state.statistics.droppedFromBuffer += 1
                state.pendingPublications.remove(entry.id)
                Self.rememberAbandoned(entry.id, in: &state)
                if let key = entry.journalKey { journal?.delete(key) }
            }
            if dropped.first?.id == id { return .tooLarge }
            state.pendingPublications.insert(id)
            return .buffered(id)
        }
        switch route {
        case .shutDown:
            throw Self.shutDownError(operation)
        case .refusedOffline(let why):
            throw MQTTError(code: Int32(MOSQ_ERR_NO_CONN.rawValue), operation: operation, detail: why)
        case .tooLarge:
            throw MQTTError(
                code: Int32(MOSQ_ERR_PAYLOAD_SIZE.rawValue), operation: operation,
                detail: "\(message.bufferedSize) bytes do not fit the offline buffer (\(configuration.offlineBuffer.maximumBytes) bytes)")
        case .buffered(let id):
            return id
        case .direct(let version, let journalKey):
            defer { leaveLibrary() }
            var messageID: Int32 = 0
            let result: Int32
            do {
                result = try usingSocket { () throws(MQTTError) in
                    try send(message, protocolVersion: version, messageID: &messageID)
                }
            } catch {
                state.withLock { $0.statistics.publishErrors += 1 }
                if let journalKey { journal?.delete(journalKey) }
                throw error
            }
            let systemErrno = errno
            // The connection has just dropped: NO_CONN, or (plain TCP, written here) the write failed
            // after the packet was queued. libmosquitto keeps a QoS ≥ 1 message and sends it right after
            // reconnecting, ahead of the offline buffer, so it counts as queued; the network thread sees
            // the broken socket on its next poll.
            let connectionDropped = Self.meansConnectionDropped(result)
            let queued = result == MOSQ_ERR_SUCCESS.rawValue || (connectionDropped && message.qos != .atMostOnce)
            guard queued else {
                if let journalKey { journal?.delete(journalKey) }
                state.withLock { state in
                    if connectionDropped {
                        state.statistics.droppedWhileDisconnected += 1
                    } else {
                        state.statistics.publishErrors += 1
                    }
                }
                throw MQTTError(code: result, operation: operation, systemErrno: systemErrno)
            }
            state.withLock { state in
                if state.completedBeforeRegistration.remove(messageID) == nil {
                    state.pendingPublications.insert(messageID)
                    if message.qos != .atMostOnce { state.awaitingAcknowledgement.insert(messageID) }
                    if let journalKey { state.journalKeysBySentID[messageID] = journalKey }
                } else if let journalKey {
                    journal?.delete(journalKey)  // acknowledged already
                }
            }
            return messageID
        }
    }

    /// Whether a publish result says the connection is gone rather than that the message was refused:
    /// `NO_CONN`, or a failed write (`CONN_LOST`, `ERRNO`), which only happens after queuing.
    private static func meansConnectionDropped(_ result: Int32) -> Bool {
        result == MOSQ_ERR_NO_CONN.rawValue || result == MOSQ_ERR_CONN_LOST.rawValue || result == MOSQ_ERR_ERRNO.rawValue
    }

    /// Hands `message` to libmosquitto with its MQTT 5 properties (none on a 3.1.1 connection).
    /// - Returns: libmosquitto's result code.
    /// - Parameter reusingProperties: take the property list from the cache of recurring ones (`false`
    ///   for a one-off, such as a buffered message's shortened expiry).
    private func send(
        _ message: MQTTMessage, protocolVersion: MQTTProtocolVersion, messageID: inout Int32, reusingProperties: Bool = true
    ) throws(MQTTError) -> Int32 {
        guard message.payload.count <= Int(Int32.max) else { return Int32(MOSQ_ERR_PAYLOAD_SIZE.rawValue) }
        func publish(properties: OpaquePointer?) -> Int32 {
            message.topic.withCString { topic in
                message.payload.withUnsafeBytes { payload in
                    mosquitto_publish_v5(
                        handle, &messageID, topic, Int32(payload.count), payload.baseAddress, message.qos.rawValue,
                        message.retain, properties)
                }
            }
        }
        guard protocolVersion == .v5 else { return publish(properties: nil) }
        guard reusingProperties else {
            var list = try MosquittoProperties.make(for: message)
            defer { mosquitto_property_free_all(&list) }
            return publish(properties: list)
        }
        return try propertyCache.withProperties(for: message, publish)
    }

    /// Records the subscription (re-sent after every reconnect) and sends it now if connected.
    func subscribe(_ topicFilter: String, qos: MQTTQoS, options: Int32) throws(MQTTError) {
        guard mosquitto_sub_topic_check(topicFilter) == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(
                code: Int32(MOSQ_ERR_INVAL.rawValue), operation: "subscribe to \(topicFilter)",
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
        guard result == MOSQ_ERR_SUCCESS.rawValue || Self.meansConnectionDropped(result) else {
            state.withLock { $0.subscriptions.removeAll { $0.filter == topicFilter } }
            throw MQTTError(code: result, operation: "subscribe to \(topicFilter)", systemErrno: systemErrno)
        }
    }

    /// SUBSCRIBE; the options go only to an MQTT 5 broker (3.1.1 has no bits for them).
    private func send(_ subscription: Subscription, protocolVersion: MQTTProtocolVersion) -> Int32 {
        mosquitto_subscribe_v5(
            handle, nil, subscription.filter, subscription.qos.rawValue,
            protocolVersion == .v5 ? subscription.options : 0, nil)
    }

    /// Forgets the subscription and sends UNSUBSCRIBE if connected.
    func unsubscribe(_ topicFilter: String) throws(MQTTError) {
        let sendNow = try enterLibrary("unsubscribe from \(topicFilter)") { state in
            state.subscriptions.removeAll { $0.filter == topicFilter }
            return state.sessionUp
        }
        defer { leaveLibrary() }
        guard sendNow else { return }
        let result = usingSocket { mosquitto_unsubscribe_v5(handle, nil, topicFilter, nil) }
        let systemErrno = errno
        guard result == MOSQ_ERR_SUCCESS.rawValue || Self.meansConnectionDropped(result) else {
            throw MQTTError(code: result, operation: "unsubscribe from \(topicFilter)", systemErrno: systemErrno)
        }
    }

    var isConnected: Bool { state.withLock { $0.connected } }

    var negotiatedProtocolVersion: MQTTProtocolVersion? { state.withLock { $0.negotiatedProtocolVersion } }

    var statistics: MQTTClientStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.bufferedMessages = state.buffer.count
            statistics.bufferedBytes = state.buffer.bytes
            statistics.offlineBufferIsDurable = journal?.isDurable ?? false
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
            !state.pendingPublications.contains(messageID) || state.lifecycle == .shuttingDown
                || state.lifecycle == .destroyed
        }
        return state.withLock { !$0.pendingPublications.contains(messageID) && !$0.abandonedPublications.contains(messageID) }
    }

    /// Clean shutdown: DISCONNECT → wait until written → stop and join the network thread → destroy.
    /// Idempotent; see ``MQTTClient/shutdown(timeout:)``.
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
            // Another thread is shutting down: wait for it (never on the network thread, it must exit).
            if !onLoopThread { _ = state.wait(timeout: timeout) { $0.lifecycle == .destroyed } }
            return
        case .created, .running:
            if onLoopThread {
                // Called from the event handler: the network thread cannot join itself. Events are
                // already off; finish on another thread once this callback has returned.
                DispatchQueue.global().async { self.finishShutdown(timeout: timeout) }
            } else {
                finishShutdown(timeout: timeout)
            }
        }
    }

    private func finishShutdown(timeout: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        func remaining() -> Duration { max(.zero, clock.now.duration(to: deadline)) }
        // New calls are refused now; let the ones inside libmosquitto finish.
        _ = state.wait(timeout: remaining()) { $0.callsInProgress == 0 }
        let thread = state.withLock { $0.networkThread }
        if let thread {
            // The network thread writes the DISCONNECT, then the disconnect callback clears `sessionUp`.
            // If that takes longer than the timeout the socket is closed without it (the broker then
            // publishes the will).
            if let wakeSignal {
                // Plain TCP: libmosquitto would write and close the socket on this thread; the network
                // thread may be polling or reading it, so it makes the call itself.
                let sessionUp = state.withLock { state in
                    state.disconnectRequested = true
                    return state.sessionUp
                }
                wakeSignal.raise()
                if sessionUp { _ = state.wait(timeout: remaining()) { !$0.sessionUp } }
            } else if mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil) == MOSQ_ERR_SUCCESS.rawValue {
                _ = state.wait(timeout: remaining()) { !$0.sessionUp }
            }
            state.withLockBroadcasting { $0.stopNetworkThread = true }
            wakeSignal?.raise()
            // A loop pass ends within 200 ms once woken; a blocking connect (first attempt, fallback) may
            // take as long as TCP tries. Then the thread tears down when the connect returns.
            _ = state.wait(timeout: max(remaining(), .milliseconds(500))) { $0.networkThreadExited }
            let handedOver = state.withLockBroadcasting { state -> Bool in
                guard !state.networkThreadExited else { return false }
                state.teardownHandedToNetworkThread = true
                return true
            }
            if handedOver {
                pthread_detach(thread)
                // The process may exit right after this returns: what is pending goes to disk now (and the
                // file's lock is released); the network thread's teardown finds the journal closed.
                journal?.close()
                return
            }
            pthread_join(thread, nil)
        }
        destroy()
    }

    /// The end of a shutdown, once the network thread has exited or is exiting: destroys the handle and
    /// drops the self-reference. On the shutting-down thread, or on the network thread after a handover.
    private func destroy() {
        _ = state.wait(timeout: .seconds(1)) { $0.callsInProgress == 0 }
        // What the broker has not acknowledged stays in the file for the next run.
        journal?.close()
        let retained = state.withLockBroadcasting { state in
            state.lifecycle = .destroyed
            state.sessionUp = false
            state.connected = false
            state.networkThread = nil
            defer { state.retainedWhileLoopRuns = nil }
            return state.retainedWhileLoopRuns
        }
        mosquitto_destroy(handle)
        withExtendedLifetime(retained) {}  // the last strong reference may go only after destroy
    }

    // MARK: The network thread

    /// Drives the connection until shutdown: `mosquitto_loop`, flushing the buffer between calls; after
    /// a lost or failed connection, the backoff delay (or an immediate MQTT 3.1.1 retry) and a reconnect.
    private func runNetworkThread() {
        loopThread.store(Self.currentThread(), ordering: .relaxed)
        var (connectResult, connectErrno) = connectWithProperties(configuration.protocolVersion)
        var failedAttempts = 0
        var closedBeforeConnack = 0
        while true {
            var loopResult = connectResult
            var loopErrno = connectErrno
            if connectResult == MOSQ_ERR_SUCCESS.rawValue {
                while true {
                    (loopResult, loopErrno) = runLoopPass()
                    if state.withLock({ $0.stopNetworkThread }) { break }
                    if loopResult != MOSQ_ERR_SUCCESS.rawValue { break }
                    flushBufferedMessages()
                }
            }
            // Failures before a socket existed, and TLS handshake failures inside mosquitto_loop, reach
            // no callback: report them here so every failed attempt is seen.
            let (unreported, libraryError) = state.withLock { state in
                defer {
                    state.disconnectReported = false
                    state.lastLibraryError = nil
                }
                return (!state.disconnectReported && !state.stopNetworkThread, state.lastLibraryError)
            }
            if unreported, loopResult != MOSQ_ERR_SUCCESS.rawValue {
                var reason = MQTTError(code: loopResult, operation: "connect to \(configuration.broker)", systemErrno: loopErrno).description
                reason += tlsExplanation(libraryError: libraryError, beforeConnack: true)
                deliver(.disconnected(reasonCode: loopResult, reason: reason))
            }
            let (stop, connack, version) = state.withLock { state in
                defer { state.connackReasonCode = nil }
                return (
                    state.stopNetworkThread || state.lifecycle != .running, state.connackReasonCode, state.protocolVersion
                )
            }
            if stop { break }
            if connack == 0 { failedAttempts = 0 }  // the connection had been up: start the schedule over
            var fallBack = false
            if version == .v5, configuration.allowsProtocolFallback {
                if connack == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) || connack == 1 {
                    fallBack = true
                } else if connack == nil, loopResult == MOSQ_ERR_CONN_LOST.rawValue {
                    closedBeforeConnack += 1
                    fallBack = closedBeforeConnack >= 2
                } else {
                    closedBeforeConnack = 0
                }
            }
            if fallBack {
                _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
                state.withLock { $0.protocolVersion = .v311 }
            } else {
                failedAttempts += 1
                let delay = backoff.duration(afterFailedAttempts: failedAttempts)
                let stopped = state.wait(timeout: delay) { $0.stopNetworkThread || $0.lifecycle != .running }
                if stopped { break }
            }
            if fallBack {
                (connectResult, connectErrno) = connectWithProperties(.v311)
            } else {
                connectResult = closingSocket { mosquitto_reconnect_async(handle) }
                connectErrno = errno
            }
        }
        let finishesTeardown = state.withLockBroadcasting { state in
            state.networkThreadExited = true
            return state.teardownHandedToNetworkThread
        }
        if finishesTeardown { destroy() }
    }

    /// One pass of the network loop, waiting for traffic (at most `loopTimeoutMilliseconds` over TLS,
    /// `pollTimeoutMilliseconds` over plain TCP).
    /// - Returns: libmosquitto's result (anything but success ends the connection) and `errno`.
    private func runLoopPass() -> (result: Int32, errno: Int32) {
        guard let wakeSignal else {
            let result = mosquitto_loop(handle, Self.loopTimeoutMilliseconds, 1)
            return (result, errno)
        }
        if state.withLock({ state in defer { state.disconnectRequested = false }; return state.disconnectRequested }) {
            // Writes DISCONNECT here (or queues it when the socket is full); libmosquitto closes the
            // socket after writing it and reports the disconnect.
            _ = closingSocket { mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil) }
        }
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return (Int32(MOSQ_ERR_NO_CONN.rawValue), 0) }
        var descriptors = [
            pollfd(fd: socket, events: Int16(POLLIN) | (mosquitto_want_write(handle) ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: wakeSignal.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, nfds_t(descriptors.count), Self.pollTimeoutMilliseconds)
        if ready < 0 {
            let pollErrno = errno
            return pollErrno == EINTR ? (Int32(MOSQ_ERR_SUCCESS.rawValue), 0) : (Int32(MOSQ_ERR_ERRNO.rawValue), pollErrno)
        }
        if descriptors[1].revents != 0 { wakeSignal.drain() }
        if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let result = closingSocket { mosquitto_loop_read(handle, 1) }
            if result != MOSQ_ERR_SUCCESS.rawValue || mosquitto_socket(handle) < 0 { return (result, errno) }
        }
        if mosquitto_want_write(handle) {
            let result = closingSocket { mosquitto_loop_write(handle, 1) }
            if result != MOSQ_ERR_SUCCESS.rawValue || mosquitto_socket(handle) < 0 { return (result, errno) }
        }
        let result = closingSocket { mosquitto_loop_misc(handle) }
        return (result, errno)
    }

    /// Sends buffered messages in order while connected, keeping at most `sendMaximum` QoS ≥ 1
    /// publications unacknowledged; clears `flushing` when the buffer is empty. Network thread only, so
    /// no callback for a message sent here can run before its ID mapping is recorded.
    private func flushBufferedMessages() {
        let sendMaximum = configuration.sendMaximum
        while true {
            let next: (OfflineMessageBuffer.Entry, MQTTProtocolVersion)? = state.withLockBroadcasting { state in
                guard state.flushing, state.sessionUp, state.lifecycle == .running else { return nil }
                guard let first = state.buffer.first else {
                    state.flushing = false
                    return nil
                }
                if first.message.qos != .atMostOnce, state.awaitingAcknowledgement.count >= sendMaximum { return nil }
                state.buffer.removeFirst()
                return (first, state.protocolVersion)
            }
            guard let (entry, version) = next else { return }
            guard let message = entry.messageToSend(at: DispatchTime.now().uptimeNanoseconds) else {
                // Its expiry ran out while it waited: a broker would not deliver it either.
                state.withLockBroadcasting { state in
                    state.statistics.expiredInBuffer += 1
                    state.pendingPublications.remove(entry.id)
                    Self.rememberAbandoned(entry.id, in: &state)
                }
                if let key = entry.journalKey { journal?.delete(key) }
                continue
            }
            var messageID: Int32 = 0
            // A shortened expiry is a one-off property list, not one for the cache of recurring ones.
            let result = (try? send(
                message, protocolVersion: version, messageID: &messageID,
                reusingProperties: message.messageExpiryInterval == entry.message.messageExpiryInterval))
                ?? Int32(MOSQ_ERR_INVAL.rawValue)
            state.withLockBroadcasting { state in
                let connectionDropped = Self.meansConnectionDropped(result)
                if result == MOSQ_ERR_SUCCESS.rawValue || (connectionDropped && entry.message.qos != .atMostOnce) {
                    state.bufferedIDsBySentID[messageID] = entry.id
                    if entry.message.qos != .atMostOnce { state.awaitingAcknowledgement.insert(messageID) }
                    if let key = entry.journalKey { state.journalKeysBySentID[messageID] = key }
                } else {
                    state.pendingPublications.remove(entry.id)
                    Self.rememberAbandoned(entry.id, in: &state)
                    if let key = entry.journalKey { journal?.delete(key) }
                    if connectionDropped {
                        state.statistics.droppedWhileDisconnected += 1
                    } else {
                        state.statistics.publishErrors += 1
                    }
                }
            }
        }
    }

    /// With a durable buffer, for a QoS ≥ 1 message: a new journal key (keys grow in send order, under
    /// the lock) with the message recorded under it; otherwise `nil`.
    private func journalKey(for message: MQTTMessage, in state: inout State) -> Int64? {
        guard let journal, message.qos != .atMostOnce else { return nil }
        let key = state.nextJournalKey
        state.nextJournalKey += 1
        journal.insert(key, message)
        return key
    }

    private static func rememberAbandoned(_ id: Int32, in state: inout State) {
        if state.abandonedPublications.count >= earlyCompletionLimit { state.abandonedPublications.removeAll() }
        state.abandonedPublications.insert(id)
    }

    // MARK: Calling into libmosquitto safely

    /// Runs a libmosquitto call that may write to the socket from this thread: over plain TCP holding
    /// ``socketLock`` for reading, unless this is the network thread (the only one that closes it).
    private func usingSocket<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard wakeSignal != nil, loopThread.load(ordering: .relaxed) != Self.currentThread() else { return try body() }
        return try socketLock.withReadLock(body)
    }

    /// Runs a network-thread call that can close or replace the socket: over plain TCP holding
    /// ``socketLock`` for writing, so no other thread is inside libmosquitto with the descriptor.
    private func closingSocket<Result>(_ body: () -> Result) -> Result {
        guard wakeSignal != nil else { return body() }
        return socketLock.withWriteLock(body)
    }

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
        // Plain TCP: the call wrote its packet itself unless the socket was full or the network thread
        // was inside a callback; then the network thread must write it.
        if let wakeSignal, mosquitto_want_write(handle) { wakeSignal.raise() }
        state.withLockBroadcasting { $0.callsInProgress -= 1 }
    }

    private static func shutDownError(_ operation: String) -> MQTTError {
        MQTTError(code: Int32(MOSQ_ERR_NO_CONN.rawValue), operation: operation, detail: "the client has been shut down")
    }

    private static func currentThread() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    // MARK: Callbacks (network thread, inside mosquitto_loop, with libmosquitto's callback lock held)

    private func installCallbacks() {
        // C function pointers cannot capture: the owner comes back through the userdata pointer.
        mosquitto_connect_v5_callback_set(handle) { _, userdata, reasonCode, flags, _ in
            MosquittoConnection.owner(userdata)?.didConnect(reasonCode: reasonCode, flags: flags)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, userdata, reasonCode, _ in
            MosquittoConnection.owner(userdata)?.didDisconnect(reasonCode: reasonCode, systemErrno: errno)
        }
        mosquitto_publish_v5_callback_set(handle) { _, userdata, messageID, reasonCode, _ in
            MosquittoConnection.owner(userdata)?.didPublish(messageID: messageID, reasonCode: reasonCode)
        }
        mosquitto_message_v5_callback_set(handle) { _, userdata, message, properties in
            guard let message else { return }
            MosquittoConnection.owner(userdata)?.didReceive(message.pointee, properties: properties)
        }
        // libmosquitto formats a log line for every packet while a log callback is set; the error lines
        // are only needed to explain TLS failures (OpenSSL's reasons appear nowhere else).
        guard configuration.tls != nil else { return }
        mosquitto_log_callback_set(handle) { _, userdata, level, text in
            guard level == MOSQ_LOG_ERR, let text else { return }
            MosquittoConnection.owner(userdata)?.state.withLock { $0.lastLibraryError = String(cString: text) }
        }
    }

    /// The object behind a userdata pointer. Unretained is safe: `retainedWhileLoopRuns` keeps it
    /// alive for as long as the network thread can call back.
    private static func owner(_ userdata: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        guard let userdata else { return nil }
        return Unmanaged<MosquittoConnection>.fromOpaque(userdata).takeUnretainedValue()
    }

    private func didConnect(reasonCode: Int32, flags: Int32) {
        guard reasonCode == 0 else {
            let version = state.withLock { state in
                state.connackReasonCode = reasonCode
                return state.protocolVersion
            }
            var reason = MQTTError.brokerReasonMessage(reasonCode, protocolVersion: version)
            if version == .v5, configuration.allowsProtocolFallback,
                reasonCode == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) || reasonCode == 1
            {
                reason += "; retrying with MQTT 3.1.1"
            }
            deliver(.connectionRefused(reasonCode: reasonCode, reason: reason))
            return
        }
        let sessionPresent = flags & 1 != 0
        let (resubscriptions, version) = state.withLock { state in
            state.connackReasonCode = 0
            state.sessionUp = true
            state.negotiatedProtocolVersion = state.protocolVersion
            if state.hasConnectedBefore { state.statistics.reconnects += 1 }
            state.hasConnectedBefore = true
            // The buffer goes out (from the network thread, after this callback) before anything new.
            state.flushing = !state.buffer.isEmpty
            // A resumed session still has its subscriptions; re-sending them would repeat retained messages.
            return (sessionPresent ? [] : state.subscriptions, state.protocolVersion)
        }
        for subscription in resubscriptions {
            // A failure here means the connection is already gone; the next connect tries again.
            _ = send(subscription, protocolVersion: version)
        }
        state.withLockBroadcasting { $0.connected = true }
        deliver(.connected(sessionPresent: sessionPresent))
    }

    private func didDisconnect(reasonCode: Int32, systemErrno: Int32) {
        let (libraryError, refusedBeforeConnack) = state.withLockBroadcasting { state in
            state.sessionUp = false
            state.connected = false
            state.disconnectReported = true
            defer { state.lastLibraryError = nil }
            return (state.lastLibraryError, state.connackReasonCode == nil)
        }
        // libmosquitto 2.0.11 passes MOSQ_ERR_* codes here (a broker's DISCONNECT arrives as
        // MOSQ_ERR_CONN_LOST); MQTT 5 reason codes (>= 0x80) are explained should a version pass them.
        var reason: String
        if reasonCode == 0 {
            reason = "disconnected by this client"
        } else if reasonCode >= 0x80 {
            reason = MQTTError.brokerReasonMessage(reasonCode)
        } else {
            reason = MQTTError.libraryMessage(reasonCode, systemErrno: systemErrno)
            reason += tlsExplanation(libraryError: libraryError, beforeConnack: refusedBeforeConnack)
        }
        deliver(.disconnected(reasonCode: reasonCode, reason: reason))
    }

    /// What to add to a lost or failed connection's reason over TLS: OpenSSL's explanation, which appears
    /// only in libmosquitto's log (also when the code just says "lost"), and, for a connection lost before
    /// the broker answered while no client certificate is configured, that the broker may want one (it
    /// ends such a handshake with an alert, or the socket closes before the alert is read).
    private func tlsExplanation(libraryError: String?, beforeConnack: Bool) -> String {
        guard let tls = configuration.tls else { return "" }
        var text = libraryError.map { " (\($0))" } ?? ""
        guard tls.certificateFile == nil, beforeConnack else { return text }
        if libraryError?.contains("certificate required") == true {
            text += "; the broker requires a client certificate, and none is configured"
        } else if libraryError == nil {
            text += "; if the broker requires a client certificate: none is configured"
        }
        return text
    }

    private func didPublish(messageID: Int32, reasonCode: Int32) {
        let reportedID = state.withLockBroadcasting { state -> Int32 in
            state.awaitingAcknowledgement.remove(messageID)
            if let key = state.journalKeysBySentID.removeValue(forKey: messageID) { journal?.delete(key) }
            if reasonCode >= 0x80 {
                state.statistics.publishErrors += 1
            } else {
                state.statistics.messagesPublished += 1
            }
            if let bufferedID = state.bufferedIDsBySentID.removeValue(forKey: messageID) {
                state.pendingPublications.remove(bufferedID)
                return bufferedID
            }
            if state.pendingPublications.remove(messageID) == nil {
                if state.completedBeforeRegistration.count >= Self.earlyCompletionLimit {
                    state.completedBeforeRegistration.removeAll()
                }
                state.completedBeforeRegistration.insert(messageID)
            }
            return messageID
        }
        deliver(.published(messageID: reportedID))
    }

    private func didReceive(_ message: mosquitto_message, properties: OpaquePointer?) {
        let length = Int(max(0, message.payloadlen))
        if let maximum = configuration.maximumIncomingPacketSize, length > Int(maximum) {
            // The payload alone exceeds the packet limit: not copied, not delivered.
            state.withLock { $0.statistics.oversizedMessagesDropped += 1 }
            return
        }
        let payload: [UInt8] =
            if let bytes = message.payload, length > 0 {
                Array(UnsafeRawBufferPointer(start: bytes, count: length))
            } else {
                []
            }
        let topic = message.topic.map { String(cString: $0) } ?? ""
        let qos = MQTTQoS(rawValue: message.qos) ?? .atMostOnce
        var received = MQTTMessage(topic: topic, payload: payload, qos: qos, retain: message.retain)
        MosquittoProperties.read(properties, into: &received)
        deliver(.message(received))
    }

    /// Hands `event` to the handler unless shutdown has begun. The lock is not held while the handler
    /// runs, so the handler may publish or subscribe.
    private func deliver(_ event: MQTTClientEvent) {
        guard state.withLock({ $0.lifecycle == .running }) else { return }
        events(event)
    }
}

/// What the network thread needs, passed through `pthread_create`'s argument.
private final class NetworkThreadContext {
    let connection: MosquittoConnection

    init(connection: MosquittoConnection) {
        self.connection = connection
    }
}
