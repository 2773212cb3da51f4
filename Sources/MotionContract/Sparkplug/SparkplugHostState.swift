/// A host application's state, retained on `spBv1.0/STATE/{host_id}` (Sparkplug 3.0, section 5.3):
/// `{"online":true,"timestamp":1668114759262}`, the host's birth with `online` true and its death (its will,
/// and what it publishes before disconnecting) with false. An edge node that waits for its primary host
/// compares timestamps: a state older than the last one taken is stale and ignored.
public struct SparkplugHostState: Sendable, Equatable {
    /// Whether the host is connected.
    public var online: Bool
    /// When the host published the state, ms since the Unix epoch (UTC).
    public var timestamp: UInt64

    /// A state.
    public init(online: Bool, timestamp: UInt64) {
        self.online = online
        self.timestamp = timestamp
    }

    /// Reads a STATE payload.
    /// - Throws: ``PayloadError`` when it is not the JSON object with a boolean `online` and a whole,
    ///   non-negative `timestamp`.
    public init(decoding payload: [UInt8]) throws(PayloadError) {
        let fields = try JSONObjectReader<PayloadError>(bytes: payload)
        let online = try fields.required("online", fields.bool)
        let timestamp = try fields.required("timestamp", fields.count)
        self.init(online: online, timestamp: timestamp)
    }

    /// The payload: `{"online":…,"timestamp":…}`.
    public func json() -> [UInt8] {
        var writer = JSONWriter()
        writer.field("online", online)
        writer.field("timestamp", timestamp)
        return writer.finishedBytes()
    }
}
