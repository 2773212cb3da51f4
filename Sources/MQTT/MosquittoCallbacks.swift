import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libmosquitto's callbacks for one ``MosquittoLink``: connect, disconnect, publish and message, turned
/// into changes of the link's state and into ``MQTTClientEvent``s.
///
/// They run on the network thread, inside `mosquitto_loop` (or its read, write and misc parts), with
/// libmosquitto's callback lock held: they must not block, and may call only libmosquitto functions that
/// queue (SUBSCRIBE).
struct MosquittoCallbacks {
    /// The link whose handle called back.
    let link: MosquittoLink

    private var state: ConditionLock<MosquittoLink.State> { link.state }
    private var configuration: MQTTClientConfiguration { link.configuration }

    /// Sets the callbacks on `link`'s handle (whose userdata must already point at `link`).
    static func install(on link: MosquittoLink) {
        let handle = link.handle
        // C function pointers cannot capture: the link comes back through the userdata pointer.
        mosquitto_connect_v5_callback_set(handle) { _, userdata, reasonCode, flags, _ in
            MosquittoCallbacks.owner(userdata)?.didConnect(reasonCode: reasonCode, flags: flags)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, userdata, reasonCode, _ in
            MosquittoCallbacks.owner(userdata)?.didDisconnect(reasonCode: reasonCode, systemErrno: errno)
        }
        mosquitto_publish_v5_callback_set(handle) { _, userdata, messageID, reasonCode, _ in
            MosquittoCallbacks.owner(userdata)?.didPublish(messageID: messageID, reasonCode: reasonCode)
        }
        mosquitto_message_v5_callback_set(handle) { _, userdata, message, properties in
            guard let message else { return }
            MosquittoCallbacks.owner(userdata)?.didReceive(message.pointee, properties: properties)
        }
        // libmosquitto formats a log line for every packet while a log callback is set; the error lines
        // are only needed to explain TLS failures (OpenSSL's reasons appear nowhere else).
        guard link.configuration.tls != nil else { return }
        mosquitto_log_callback_set(handle) { _, userdata, level, text in
            guard level == MOSQ_LOG_ERR, let text else { return }
            MosquittoCallbacks.owner(userdata)?.state.withLock { $0.lastLibraryError = String(cString: text) }
        }
    }

    /// The callbacks of the link behind a userdata pointer. Unretained is safe: `retainedWhileLoopRuns`
    /// keeps the link alive for as long as the network thread can call back.
    private static func owner(_ userdata: UnsafeMutableRawPointer?) -> MosquittoCallbacks? {
        guard let userdata else { return nil }
        return MosquittoCallbacks(link: Unmanaged<MosquittoLink>.fromOpaque(userdata).takeUnretainedValue())
    }

    private func didConnect(reasonCode: Int32, flags: Int32) {
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
            link.deliver(.connectionRefused(reasonCode: reasonCode, reason: reason))
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
            _ = link.send(subscription, protocolVersion: version)
        }
        state.withLockBroadcasting { $0.connected = true }
        link.deliver(.connected(sessionPresent: sessionPresent))
    }

    private func didDisconnect(reasonCode: Int32, systemErrno: Int32) {
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
            reason += configuration.tls?.failureExplanation(libraryError: libraryError, beforeConnack: refusedBeforeConnack) ?? ""
        }
        link.deliver(.disconnected(reasonCode: reasonCode, reason: reason))
    }

    private func didPublish(messageID: Int32, reasonCode: Int32) {
        let (publishedID, journalKey) = state.withLockBroadcasting { state in
            if reasonCode >= 0x80 {
                state.statistics.publishErrors += 1
            } else {
                state.statistics.messagesPublished += 1
            }
            return state.ledger.complete(messageID)
        }
        if let journalKey { link.journal?.delete(journalKey) }
        if link.configuration.reportsPublications { link.deliver(.published(messageID: publishedID)) }
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
        link.deliver(.message(received))
    }
}
