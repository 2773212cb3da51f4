import CMosquitto
import Dispatch
import MotionSupervision
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The network thread of one ``MQTTClient``: what it runs, from the first connection attempt to the
/// teardown.
///
/// **Why its own thread.** The client runs its own thread instead of `mosquitto_loop_start`, so that it
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
/// ``MosquittoLink/socketLock`` for writing while publishing threads hold it for reading, so a descriptor is never
/// closed, and its number reused, under another thread. Over TLS one `SSL` object must not be read and
/// written by two threads at once, so there the client uses `mosquitto_threaded_set`: publishing threads
/// only queue, libmosquitto wakes the network thread through its socket pair, and the thread runs
/// `mosquitto_loop`.
struct MosquittoNetworkLoop {
    /// The handle and shared state this thread drives.
    let link: MosquittoLink

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

    private var state: ConditionLock<MosquittoLink.State> { link.state }
    private var handle: OpaquePointer { link.handle }
    private var configuration: MQTTClientConfiguration { link.configuration }

    /// Network thread: the first connection attempt (and the first after a fallback to MQTT 3.1.1), with
    /// the CONNECT properties (MQTT 5), which
    /// libmosquitto keeps for every `mosquitto_reconnect_async` after it. libmosquitto 2.0.11 has no
    /// asynchronous connect that takes properties, so this blocks this thread for the TCP connect (and
    /// the TLS handshake); a shutdown meanwhile hands the teardown to this thread
    /// (``MosquittoConnection/finishShutdown(timeout:)``).
    /// - Returns: libmosquitto's result and `errno`.
    /// - Parameter protocolVersion: the version set on the handle; MQTT 3.1.1 sends no properties, which also
    ///   replaces the stored MQTT 5 ones after a fallback (they would make every 3.1.1 reconnect fail).
    /// - Parameter broker: the broker to connect to (``MQTTClientConfiguration/broker`` or a fail-over one).
    private func connectWithProperties(_ protocolVersion: MQTTProtocolVersion, to broker: MQTTBrokerAddress) -> (result: MosquittoResult, errno: Int32) {
        state.withLock { $0.currentBroker = broker }
        applyPendingWill()
        var properties = protocolVersion == .v5 ? MosquittoHandleOptions.connectProperties(configuration) : nil
        defer { mosquitto_property_free_all(&properties) }
        let result = link.closingSocket {
            mosquitto_connect_bind_v5(handle, broker.host, Int32(broker.port), Int32(configuration.keepAlive), nil, properties)
        }
        return (MosquittoResult(result), errno)
    }

    /// Drives the connection until shutdown: `mosquitto_loop`, flushing the buffer between calls; after
    /// a lost or failed connection, the backoff delay (or an immediate MQTT 3.1.1 retry) and a reconnect;
    /// with fail-over brokers, the next one at once and the delay only after all failed (``BrokerFailover``).
    func run() {
        link.loopThread.store(MosquittoLink.currentThread(), ordering: .relaxed)
        let brokers = configuration.brokers
        var failover = BrokerFailover(count: brokers.count)
        var (connectResult, connectErrno) = connectWithProperties(configuration.protocolVersion, to: brokers[0])
        var policy = ReconnectPolicy(backoff: link.backoff, allowsFallback: configuration.allowsProtocolFallback)
        attempts: while true {
            var loopResult = connectResult
            var loopErrno = connectErrno
            if connectResult.isSuccess {
                while true {
                    (loopResult, loopErrno) = runLoopPass()
                    if state.withLock({ $0.stopNetworkThread }) { break }
                    if !loopResult.isSuccess { break }
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
            if unreported, !loopResult.isSuccess {
                var reason = MQTTError(code: loopResult.code, operation: "connect to \(brokers[failover.current])", systemErrno: loopErrno)
                    .description
                reason += configuration.tls?.failureExplanation(libraryError: libraryError, beforeConnack: true) ?? ""
                link.deliver(.disconnected(reasonCode: loopResult.code, reason: reason))
            }
            let (stop, connack, version) = state.withLock { state in
                defer { state.connackReasonCode = nil }
                return (
                    state.stopNetworkThread || state.lifecycle != .running, state.connackReasonCode, state.protocolVersion
                )
            }
            if stop { break }
            switch policy.next(after: .init(protocolVersion: version, connackReasonCode: connack, result: loopResult)) {
            case .fallBackToMQTT311:
                configuration.logger.debug("\(brokers[failover.current]): refused MQTT 5; connecting again with MQTT 3.1.1")
                _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
                state.withLock { $0.protocolVersion = .v311 }
                (connectResult, connectErrno) = connectWithProperties(.v311, to: brokers[failover.current])
            case .retry(let delay):
                let previous = failover.current
                let (next, waits) = failover.next(afterAcceptedConnection: connack == 0)
                configuration.logger.debug(
                    "connecting again to \(brokers[next])\(waits ? " in \(delay)" : "")")
                if waitToReconnect(waits ? delay : .zero) { break attempts }
                if next == previous {
                    applyPendingWill()
                    connectResult = MosquittoResult(link.closingSocket { mosquitto_reconnect_async(handle) })
                    connectErrno = errno
                } else {
                    // Another node: a fresh connect to its address (reconnect would go to the last one).
                    (connectResult, connectErrno) = connectWithProperties(version, to: brokers[next])
                }
            }
        }
        let finishesTeardown = state.withLockBroadcasting { state in
            state.networkThreadExited = true
            return state.teardownHandedToNetworkThread
        }
        if finishesTeardown { link.destroy() }
    }

    /// Network thread, before a connection attempt: sets the will ``MQTTClient/replaceWill(_:)`` left, so
    /// that this CONNECT carries it. A will libmosquitto refuses (it was checked when given) is reported and
    /// the previous one stays.
    private func applyPendingWill() {
        guard let will = state.withLock({ state -> MQTTMessage? in
            defer { state.pendingWill = nil }
            return state.pendingWill
        }) else { return }
        let version = state.withLock { $0.protocolVersion }
        let failure: MQTTError? = link.closingSocket {
            do throws(MQTTError) {
                try MosquittoHandleOptions.setWill(will, protocolVersion: version, on: handle)
                return nil
            } catch {
                return error
            }
        }
        if let failure { configuration.logger.warning("the new last will was not set: \(failure)") }
    }

    /// Waits `delay` on the configuration's clock before the next attempt, or until the client stops.
    /// - Returns: whether the client stops.
    private func waitToReconnect(_ delay: Duration) -> Bool {
        let stops: (MosquittoLink.State) -> Bool = { $0.stopNetworkThread || $0.lifecycle != .running }
        guard delay > .zero else { return state.withLock { stops($0) } }
        state.withLock { $0.retryDue = false }
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        let due = configuration.clock.schedule(on: Self.reconnectTimers, after: seconds) { [state] in
            state.withLockBroadcasting { $0.retryDue = true }
        }
        defer { due.cancel() }
        state.wait { $0.retryDue || stops($0) }
        return state.withLock { stops($0) }
    }

    /// Where the reconnect waits run out: they only set a flag and wake the network thread.
    private static let reconnectTimers = DispatchQueue(label: "MQTT.reconnect-timers")

    /// One pass of the network loop, waiting for traffic (at most `loopTimeoutMilliseconds` over TLS,
    /// `pollTimeoutMilliseconds(keepAlive:)` over plain TCP).
    /// - Returns: libmosquitto's result (anything but success ends the connection) and `errno`.
    private func runLoopPass() -> (result: MosquittoResult, errno: Int32) {
        guard let wakeSignal = link.wakeSignal else {
            let result = MosquittoResult(mosquitto_loop(handle, Self.loopTimeoutMilliseconds, 1))
            return (result, errno)
        }
        if state.withLock({ state in defer { state.disconnectRequested = false }; return state.disconnectRequested }) {
            // Writes DISCONNECT here (or queues it when the socket is full); libmosquitto closes the
            // socket after writing it and reports the disconnect.
            _ = link.closingSocket { mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil) }
        }
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return (.noConnection, 0) }
        var descriptors = [
            pollfd(fd: socket, events: Int16(POLLIN) | (mosquitto_want_write(handle) ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: wakeSignal.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, nfds_t(descriptors.count), Self.pollTimeoutMilliseconds(keepAlive: configuration.keepAlive))
        if ready < 0 {
            let pollErrno = errno
            return pollErrno == EINTR ? (.success, 0) : (.systemError, pollErrno)
        }
        if descriptors[1].revents != 0 { wakeSignal.drain() }
        if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let result = MosquittoResult(link.closingSocket { mosquitto_loop_read(handle, 1) })
            if !result.isSuccess || mosquitto_socket(handle) < 0 { return (result, errno) }
        }
        if mosquitto_want_write(handle) {
            let result = MosquittoResult(link.closingSocket { mosquitto_loop_write(handle, 1) })
            if !result.isSuccess || mosquitto_socket(handle) < 0 { return (result, errno) }
        }
        let result = MosquittoResult(link.closingSocket { mosquitto_loop_misc(handle) })
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
                if first.message.qos != .atMostOnce, state.ledger.awaitingAcknowledgement.count >= sendMaximum { return nil }
                state.buffer.removeFirst()
                return (first, state.protocolVersion)
            }
            guard let (entry, version) = next else { return }
            guard let message = entry.messageToSend(at: DispatchTime.now().uptimeNanoseconds) else {
                // Its expiry ran out while it waited: a broker would not deliver it either.
                state.withLockBroadcasting { state in
                    state.statistics.expiredInBuffer += 1
                    state.ledger.abandon(entry.id)
                }
                if let key = entry.journalKey { link.journal?.delete(key) }
                continue
            }
            var messageID: Int32 = 0
            // A shortened expiry is a one-off property list, not one for the cache of recurring ones.
            let result = (try? link.send(
                message, protocolVersion: version, messageID: &messageID,
                reusingProperties: message.messageExpiryInterval == entry.message.messageExpiryInterval))
                ?? .invalid
            state.withLockBroadcasting { state in
                let connectionDropped = result.meansConnectionDropped
                if result.isSuccess || (connectionDropped && entry.message.qos != .atMostOnce) {
                    state.ledger.recordFlushed(entry.id, as: messageID, qos: entry.message.qos, journalKey: entry.journalKey)
                } else {
                    state.ledger.abandon(entry.id)
                    if let key = entry.journalKey { link.journal?.delete(key) }
                    if connectionDropped {
                        state.statistics.droppedWhileDisconnected += 1
                    } else {
                        state.statistics.publishErrors += 1
                    }
                }
            }
        }
    }
}
