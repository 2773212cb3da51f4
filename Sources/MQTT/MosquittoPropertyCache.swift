import CMosquitto
import Synchronization

/// The MQTT 5 property lists of a connection's recurring messages, built once and reused.
///
/// A data topic publishes the same properties (content type, message expiry) a hundred times a second;
/// building and freeing a libmosquitto list for each message costs four allocations and four frees.
/// libmosquitto only reads the list it is given (`mosquitto_publish_v5` takes it `const` and copies what
/// it keeps), so one list can serve every publication, from any thread, for as long as this cache lives.
/// Only lists of content type and expiry are kept, at most ``capacity`` of them; a message with a
/// response topic or correlation data (a command's answer) gets a list of its own, freed after use.
final class MosquittoPropertyCache: Sendable {
    /// How many distinct lists are kept (a connection publishes a handful of kinds of messages).
    static let capacity = 8

    private struct Entry: @unchecked Sendable {
        // @unchecked: the list is immutable once built and freed only in `deinit`.
        let contentType: String?
        let messageExpiryInterval: UInt32?
        let list: OpaquePointer?
    }

    private let entries = Mutex<[Entry]>([])

    init() {}

    deinit {
        entries.withLock { entries in
            for entry in entries {
                var list = entry.list
                mosquitto_property_free_all(&list)
            }
        }
    }

    /// Runs `body` with the property list for `message`'s MQTT 5 fields (`nil` when it has none).
    /// - Throws: what ``MosquittoProperties/make(for:)`` throws for a value libmosquitto refuses.
    func withProperties<Result>(
        for message: MQTTMessage, _ body: (OpaquePointer?) -> Result
    ) throws(MQTTError) -> Result {
        guard message.hasProperties else { return body(nil) }
        if message.responseTopic == nil, message.correlationData == nil, let list = try keptList(for: message) {
            return body(list)
        }
        var list = try MosquittoProperties.make(for: message)
        defer { mosquitto_property_free_all(&list) }
        return body(list)
    }

    /// The kept list for `message`'s content type and expiry, built and kept on first use; `nil` when the
    /// cache is full and has none for them.
    private func keptList(for message: MQTTMessage) throws(MQTTError) -> OpaquePointer? {
        func matches(_ entry: Entry) -> Bool {
            entry.contentType == message.contentType && entry.messageExpiryInterval == message.messageExpiryInterval
        }
        let (kept, full) = entries.withLock { entries in (entries.first(where: matches), entries.count >= Self.capacity) }
        if let kept { return kept.list }
        guard !full else { return nil }
        let built = Entry(
            contentType: message.contentType, messageExpiryInterval: message.messageExpiryInterval,
            list: try MosquittoProperties.make(for: message))
        let keptEntry: Entry? = entries.withLock { entries in
            // Another thread may have built the same list meanwhile, or filled the cache: keep one list.
            if let existing = entries.first(where: matches) { return existing }
            guard entries.count < Self.capacity else { return nil }
            entries.append(built)
            return built
        }
        if keptEntry?.list != built.list {
            var surplus = built.list
            mosquitto_property_free_all(&surplus)
        }
        return keptEntry?.list
    }
}
