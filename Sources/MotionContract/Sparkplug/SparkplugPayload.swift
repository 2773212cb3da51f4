/// A Sparkplug B payload (Sparkplug 3.0, section 6.4.1): the time it was sent, its metrics and the edge
/// node's message sequence number. Encoded and decoded with protobuf-c from the specification's schema
/// (`schemas/sparkplug_b.proto`; see `SparkplugPayload+ProtobufC.swift`).
public struct SparkplugPayload: Sendable, Equatable {
    /// When the message was sent, ms since the Unix epoch (UTC).
    public var timestamp: UInt64?
    /// The metrics, in order.
    public var metrics: [SparkplugMetric]
    /// The edge node's sequence number, 0…255 (every message but NDEATH carries one).
    public var seq: UInt64?
    /// A UUID saying how to read ``body``; MotionBridge sends none.
    public var uuid: String?
    /// An opaque body; MotionBridge sends none.
    public var body: [UInt8]?

    /// A payload.
    public init(timestamp: UInt64? = nil, metrics: [SparkplugMetric] = [], seq: UInt64? = nil) {
        self.timestamp = timestamp
        self.metrics = metrics
        self.seq = seq
    }

    /// The largest payload ``init(decoding:)`` reads, bytes: more than any command or birth needs.
    public static let maximumDecodedSize = 256 * 1024

    /// The first metric named `name`.
    public func metric(named name: String) -> SparkplugMetric? {
        metrics.first { $0.name == name }
    }
}
