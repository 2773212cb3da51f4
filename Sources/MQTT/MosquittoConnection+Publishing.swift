import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Publishing: straight to libmosquitto while connected, into the offline buffer (and the journal) otherwise.
extension MosquittoConnection {
    /// Publishes now, or buffers while disconnected (or while the buffer is being flushed).
    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        // Only errors need it: not built for every message.
        var operation: String { "publish to \(message.topic)" }
        guard MQTTMessage.isValidTopicName(message.topic) else {
            state.withLock { $0.statistics.publishErrors += 1 }
            throw MQTTError(
                code: MosquittoResult.invalid.code, operation: operation,
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
                state.ledger.abandon(entry.id)
                if let key = entry.journalKey { link.journal?.delete(key) }
            }
            if dropped.first?.id == id { return .tooLarge }
            state.ledger.registerBuffered(id)
            return .buffered(id)
        }
        switch route {
        case .shutDown:
            throw MosquittoLink.shutDownError(operation)
        case .refusedOffline(let why):
            throw MQTTError(code: MosquittoResult.noConnection.code, operation: operation, detail: why)
        case .tooLarge:
            throw MQTTError(
                code: MosquittoResult.payloadTooLarge.code, operation: operation,
                detail: "\(message.bufferedSize) bytes do not fit the offline buffer (\(link.configuration.offlineBuffer.maximumBytes) bytes)")
        case .buffered(let id):
            return id
        case .direct(let version, let journalKey):
            defer { link.leaveLibrary() }
            var messageID: Int32 = 0
            let result: MosquittoResult
            do {
                result = try link.usingSocket { () throws(MQTTError) in
                    try link.send(message, protocolVersion: version, messageID: &messageID)
                }
            } catch {
                state.withLock { $0.statistics.publishErrors += 1 }
                if let journalKey { link.journal?.delete(journalKey) }
                throw error
            }
            let systemErrno = errno
            // The connection has just dropped: NO_CONN, or (plain TCP, written here) the write failed
            // after the packet was queued. libmosquitto keeps a QoS ≥ 1 message and sends it right after
            // reconnecting, ahead of the offline buffer, so it counts as queued; the network thread sees
            // the broken socket on its next poll.
            let connectionDropped = result.meansConnectionDropped
            let queued = result.isSuccess || (connectionDropped && message.qos != .atMostOnce)
            guard queued else {
                if let journalKey { link.journal?.delete(journalKey) }
                state.withLock { state in
                    if connectionDropped {
                        state.statistics.droppedWhileDisconnected += 1
                    } else {
                        state.statistics.publishErrors += 1
                    }
                }
                throw MQTTError(code: result.code, operation: operation, systemErrno: systemErrno)
            }
            let acknowledgedAlready = state.withLock { state in
                state.ledger.registerSent(messageID, acknowledged: message.qos, journalKey: journalKey)
            }
            if let acknowledgedAlready { link.journal?.delete(acknowledgedAlready) }
            return messageID
        }
    }

    /// With a durable buffer, for a QoS ≥ 1 message: a new journal key (keys grow in send order, under
    /// the lock) with the message recorded under it; otherwise `nil`.
    func journalKey(for message: MQTTMessage, in state: inout MosquittoLink.State) -> Int64? {
        guard let journal = link.journal, message.qos != .atMostOnce else { return nil }
        let key = state.nextJournalKey
        state.nextJournalKey += 1
        journal.insert(key, message)
        return key
    }
}
