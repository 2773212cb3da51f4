import Dispatch

/// A FIFO of messages waiting for a connection, bounded in count and bytes; drops the oldest first.
struct OfflineMessageBuffer {
    /// One waiting message and the (negative) ID ``MQTTClient/publish(_:)`` returned for it.
    struct Entry {
        let message: MQTTMessage
        let id: Int32
        let size: Int
        /// Its key in the durable journal, when the buffer has one (``OfflineMessageJournal``).
        var journalKey: Int64? = nil
        /// When it was published, ns of the monotonic clock (`DispatchTime`): its MQTT 5 message expiry
        /// counts from then, not from when it finally leaves the buffer.
        var publishedAt: UInt64 = DispatchTime.now().uptimeNanoseconds

        /// The message as it may leave the buffer at `now` (ns, `DispatchTime`): its message expiry
        /// shortened by the time it waited, or `nil` when that has run out.
        func messageToSend(at now: UInt64) -> MQTTMessage? {
            guard let expiry = message.messageExpiryInterval else { return message }
            let waited = (now > publishedAt ? now - publishedAt : 0) / 1_000_000_000
            guard waited < UInt64(expiry) else { return nil }
            var shortened = message
            shortened.messageExpiryInterval = expiry - UInt32(waited)
            return shortened
        }
    }

    let limits: MQTTOfflineBufferLimits
    private var storage: [Entry] = []
    private var head = 0
    /// Total ``MQTTMessage/bufferedSize`` of the entries, in bytes.
    private(set) var bytes = 0

    init(limits: MQTTOfflineBufferLimits) {
        self.limits = limits
    }

    var count: Int { storage.count - head }
    var isEmpty: Bool { count == 0 }
    var first: Entry? { isEmpty ? nil : storage[head] }

    /// Appends `entry`, first dropping the oldest entries until it fits.
    /// - Parameter enforcingLimits: `false` appends without dropping anything (used while connected and
    ///   flushing, when the buffer drains at network speed and new messages only wait behind it).
    /// - Returns: the dropped entries, oldest first; `entry` itself when it alone exceeds the byte bound
    ///   (then nothing else is dropped).
    mutating func append(_ entry: Entry, enforcingLimits: Bool = true) -> [Entry] {
        guard enforcingLimits else {
            storage.append(entry)
            bytes += entry.size
            return []
        }
        guard entry.size <= limits.maximumBytes else { return [entry] }
        var dropped: [Entry] = []
        while count > 0, count + 1 > limits.maximumMessages || bytes + entry.size > limits.maximumBytes {
            dropped.append(removeFirst())
        }
        storage.append(entry)
        bytes += entry.size
        return dropped
    }

    /// Removes and returns the oldest entry (the buffer must not be empty).
    @discardableResult
    mutating func removeFirst() -> Entry {
        let entry = storage[head]
        head += 1
        bytes -= entry.size
        if head >= 1024, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return entry
    }
}
