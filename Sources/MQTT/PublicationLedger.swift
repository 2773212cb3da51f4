/// Which publications are still owed an outcome: the IDs `publish` returned and not yet completed, the
/// completions that beat their registration, the buffered messages given up, the mapping from a flushed
/// buffered message's (negative) ID to the libmosquitto message ID it went out under, the QoS ≥ 1
/// messages awaiting their acknowledgement, and their journal keys. A pure value: the connection keeps
/// one under its lock and does the I/O (journal deletes, events) the answers ask for.
struct PublicationLedger: Sendable, Equatable {
    /// Message IDs returned by `publish` and not yet completed (negative IDs: buffered messages).
    private(set) var pending: Set<Int32> = []
    /// The latest completion that arrived before `publish` returned its ID. libmosquitto completes a QoS 0
    /// message inside `mosquitto_publish`, before its registration: kept out of the set, this costs every
    /// QoS 0 message a comparison instead of three hash-table operations.
    private var latestEarlyCompletion: Int32?
    /// Other completions that arrived before `publish` returned their ID (the loop thread can be faster).
    private var completedBeforeRegistration: Set<Int32> = []
    /// Buffered messages dropped before they were sent: `waitUntilPublished` answers `false` for them.
    private var abandoned: Set<Int32> = []
    /// libmosquitto message ID → the negative ID `publish` returned, for flushed buffered messages.
    private var bufferedIDsBySentID: [Int32: Int32] = [:]
    /// Message IDs of QoS ≥ 1 publications handed to libmosquitto and not yet acknowledged.
    private(set) var awaitingAcknowledgement: Set<Int32> = []
    /// With a durable buffer: the journal keys of QoS ≥ 1 messages handed to libmosquitto and not yet
    /// acknowledged, by libmosquitto message ID (deleted from the journal at the acknowledgement, so
    /// that one acknowledged within the commit interval is never written at all).
    private var journalKeysBySentID: [Int32: Int64] = [:]

    /// At most this many early completions and abandoned IDs are remembered (each set is emptied when
    /// full: a waiter that old has long timed out).
    static let memoryLimit = 1024

    /// A message handed to libmosquitto directly under `messageID`.
    /// - Returns: the journal key to delete now when its acknowledgement already arrived.
    mutating func registerSent(_ messageID: Int32, acknowledged qos: MQTTQoS, journalKey: Int64?) -> Int64? {
        if latestEarlyCompletion == messageID {
            latestEarlyCompletion = nil
            return journalKey
        }
        guard completedBeforeRegistration.isEmpty || completedBeforeRegistration.remove(messageID) == nil else { return journalKey }
        pending.insert(messageID)
        if qos != .atMostOnce { awaitingAcknowledgement.insert(messageID) }
        if let journalKey { journalKeysBySentID[messageID] = journalKey }
        return nil
    }

    /// A message put into the offline buffer under its (negative) ID.
    mutating func registerBuffered(_ id: Int32) {
        pending.insert(id)
    }

    /// A buffered message dropped (the buffer's bounds, an expiry, a failed send): never published.
    mutating func abandon(_ id: Int32) {
        pending.remove(id)
        if abandoned.count >= Self.memoryLimit { abandoned.removeAll() }
        abandoned.insert(id)
    }

    /// A buffered message handed to libmosquitto under `messageID`.
    mutating func recordFlushed(_ bufferedID: Int32, as messageID: Int32, qos: MQTTQoS, journalKey: Int64?) {
        bufferedIDsBySentID[messageID] = bufferedID
        if qos != .atMostOnce { awaitingAcknowledgement.insert(messageID) }
        if let journalKey { journalKeysBySentID[messageID] = journalKey }
    }

    /// libmosquitto completed `messageID` (a PUBACK or PUBCOMP, or a QoS 0 message written).
    /// - Returns: the ID `publish` returned for it (the buffered ID of a flushed message), and its
    ///   journal key to delete.
    mutating func complete(_ messageID: Int32) -> (publishedID: Int32, journalKey: Int64?) {
        // A QoS 0 message written at once (the common case) finds these empty: no hashing for them. A
        // collection that becomes empty gives its storage back, so that the next message's `isEmpty` reads
        // the shared empty singleton rather than a storage of this connection's that has gone cold (with
        // thousands of connections in one process, each such read was a cache miss).
        if !awaitingAcknowledgement.isEmpty {
            awaitingAcknowledgement.remove(messageID)
            if awaitingAcknowledgement.isEmpty { awaitingAcknowledgement = [] }
        }
        var journalKey: Int64?
        if !journalKeysBySentID.isEmpty {
            journalKey = journalKeysBySentID.removeValue(forKey: messageID)
            if journalKeysBySentID.isEmpty { journalKeysBySentID = [:] }
        }
        if !bufferedIDsBySentID.isEmpty, let bufferedID = bufferedIDsBySentID.removeValue(forKey: messageID) {
            if bufferedIDsBySentID.isEmpty { bufferedIDsBySentID = [:] }
            removePending(bufferedID)
            return (bufferedID, journalKey)
        }
        if pending.isEmpty || removePending(messageID) == nil {
            if let earlier = latestEarlyCompletion {
                if completedBeforeRegistration.count >= Self.memoryLimit { completedBeforeRegistration.removeAll() }
                completedBeforeRegistration.insert(earlier)
            }
            latestEarlyCompletion = messageID
        }
        return (messageID, journalKey)
    }

    /// Removes `id` from ``pending``, giving the set's storage back when it becomes empty (see ``complete(_:)``).
    @discardableResult
    private mutating func removePending(_ id: Int32) -> Int32? {
        let removed = pending.remove(id)
        if removed != nil, pending.isEmpty { pending = [] }
        return removed
    }

    /// Whether `id` is still owed an outcome.
    func isPending(_ id: Int32) -> Bool { pending.contains(id) }

    /// Whether `id` was published: not pending and not abandoned.
    func wasPublished(_ id: Int32) -> Bool { !pending.contains(id) && !abandoned.contains(id) }
}
