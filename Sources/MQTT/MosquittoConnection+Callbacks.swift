import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MosquittoConnection {
    // MARK: Callbacks (network thread, inside mosquitto_loop, with libmosquitto's callback lock held)

    func installCallbacks() {
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
    static func owner(_ userdata: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        guard let userdata else { return nil }
        return Unmanaged<MosquittoConnection>.fromOpaque(userdata).takeUnretainedValue()
    }

    func didConnect(reasonCode: Int32, flags: Int32) {
        guard reasonCode == 0 else {
            let version = state.withLock { state in
                state.connackReasonCode = reasonCode
                return state.protocolVersion
            }
            var reason = MQTTError.brokerReasonMessage(reasonCode, protocolVersion: version)
            if ReconnectPolicy.fallsBack(
                onRefusal: reasonCode, protocolVersion: version, allowsFallback: configuration.allowsProtocolFallback)
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

    func didDisconnect(reasonCode: Int32, systemErrno: Int32) {
        // libmosquitto 2.0.11 reports a 3.1.1 broker's refusal of MQTT 5 (a CONNACK without properties,
        // `20 02 00 01`) as "unsupported protocol version" (0x84). 2.0.21 (Debian 13) fails to read that
        // CONNACK instead: its check for it expects MOSQ_ERR_PROTOCOL, but reading the missing properties
        // now gives MOSQ_ERR_MALFORMED_PACKET, and the connection ends with no CONNACK callback. Before any
        // CONNACK, over MQTT 5, that is the same refusal, reported and handled (fallback) as 2.0.11 did.
        if reasonCode == Int32(MOSQ_ERR_MALFORMED_PACKET.rawValue),
           state.withLock({ $0.connackReasonCode == nil && $0.protocolVersion == .v5 }) {
            didConnect(reasonCode: ReconnectPolicy.unsupportedProtocolVersion, flags: 0)
        }
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
    func tlsExplanation(libraryError: String?, beforeConnack: Bool) -> String {
        guard let tls = configuration.tls else { return "" }
        var text = libraryError.map { " (\($0))" } ?? ""
        guard tls.certificateFile == nil, beforeConnack else { return text }
        if libraryError?.contains("certificate required") == true {
            text += "; the broker requires a client certificate, and none is configured"
        } else if libraryError.map(Self.namesClosedSocket) ?? true {
            text += "; if the broker requires a client certificate: none is configured"
        }
        return text
    }

    /// Whether OpenSSL's error only says that the peer closed the socket (reset, or end of file in the
    /// handshake), which is how a broker's refusal looks when its alert was not read first (OpenSSL 3.5
    /// under load, measured on Debian 13).
    static func namesClosedSocket(_ libraryError: String) -> Bool {
        libraryError.contains("reset by peer") || libraryError.contains("unexpected eof")
    }

    func didPublish(messageID: Int32, reasonCode: Int32) {
        let (publishedID, journalKey) = state.withLockBroadcasting { state in
            if reasonCode >= 0x80 {
                state.statistics.publishErrors += 1
            } else {
                state.statistics.messagesPublished += 1
            }
            return state.ledger.complete(messageID)
        }
        if let journalKey { journal?.delete(journalKey) }
        deliver(.published(messageID: publishedID))
    }

    func didReceive(_ message: mosquitto_message, properties: OpaquePointer?) {
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
    func deliver(_ event: MQTTClientEvent) {
        guard state.withLock({ $0.lifecycle == .running }) else { return }
        events(event)
    }
}
