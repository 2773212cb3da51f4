import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The libmosquitto handle of one ``MQTTClient`` and the state its threads share: the public calls
/// (``MosquittoConnection``), the network thread (``MosquittoNetworkLoop``) and libmosquitto's callbacks
/// (``MosquittoCallbacks``). It also holds the rules for entering libmosquitto safely (see
/// `MosquittoLink+LibraryCalls.swift`): who may write to the socket, who may close it, and when the
/// handle may be destroyed.
///
/// **Lifetime.** Callbacks get a raw pointer to this object (userdata). While the network thread runs
/// the object keeps a strong reference to itself (`State.retainedWhileLoopRuns`); ``destroy()`` drops it
/// only after the thread was joined (or, after a handover, as the thread exits). ``MQTTClient`` owns the
/// ``MosquittoConnection`` that owns this object, so dropping the last ``MQTTClient`` reference shuts
/// the link down and breaks the cycle.
final class MosquittoLink: Sendable {
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
        /// A last will given by ``MQTTClient/replaceWill(_:)``, set on the handle by the network thread
        /// before its next connection attempt.
        var pendingWill: MQTTMessage?
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
        var retainedWhileLoopRuns: MosquittoLink?
        /// `shutdown` asks the network thread to send DISCONNECT (plain TCP: only that thread closes the
        /// socket).
        var disconnectRequested = false
        /// `shutdown` gave up waiting for the network thread (inside a blocking connect): the thread
        /// destroys the handle itself when it exits.
        var teardownHandedToNetworkThread = false
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
    /// and libmosquitto's socket pair wakes it (see "Who writes to the socket" in ``MosquittoNetworkLoop``).
    let wakeSignal: WakeSignal?
    /// Plain TCP: read-held by threads writing to the socket, write-held by the network thread around
    /// calls that can close it (see "Who writes to the socket" in ``MosquittoNetworkLoop``).
    let socketLock = ReadWriteLock()
    /// The MQTT 5 property lists of recurring messages (data topics), built once.
    let propertyCache = MosquittoPropertyCache()
    /// The durable copy of the offline buffer, when configured.
    let journal: OfflineMessageJournal?
    /// What became of libmosquitto's wake-up socket pair over plain TCP (``MosquittoWakePair``); `nil`
    /// over TLS, where the network thread waits on it.
    let wakePair: MosquittoWakePair.Outcome?

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
        wakePair = configuration.tls == nil ? MosquittoWakePair.retire(on: handle) : nil
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
        try MosquittoHandleOptions.apply(configuration, to: handle)
        // Not retained: the strong reference is taken when the network thread starts
        // (`MosquittoConnection.start`), when callbacks become possible.
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        MosquittoCallbacks.install(on: self)
    }

    deinit {
        // Reached only when the thread never ran or `shutdown` already destroyed the handle.
        let lifecycle = state.withLock { $0.lifecycle }
        if lifecycle == .created { mosquitto_destroy(handle) }
    }
}
