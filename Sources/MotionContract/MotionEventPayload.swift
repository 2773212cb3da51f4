import MotionMath
import MotionModel

/// One message of `{base}/events` (contract 1.4): something the board's motion detectors found — a free
/// fall, an impact, a tap, a double tap, a shake — with when it began, how long it lasted, how strong it
/// was and the device's attitude when it began. JSON or CBOR (``PayloadFormat``), the same map and keys:
///
/// ```json
/// {"seq":4,"type":"free_fall","timestamp":3521.125,"ts":1795986011.402,"duration":0.452,
///  "magnitude":1.0,"unit":"m","frame":"xArbitraryZVertical",
///  "attitude":{"quaternion":{"x":0.01,"y":-0.2,"z":0.3,"w":0.93},"roll":-0.41,"pitch":0.08,"yaw":0.62}}
/// ```
///
/// `type` is one of ``EventType``'s names; later minor versions may add types, so a subscriber skips a
/// type it does not know (``type`` keeps the name, ``eventType`` is nil for it).
public struct MotionEventPayload: FormattedPayload, Sendable, Equatable {
    /// The kinds of event of this contract version (the model's ``MotionEventKind``).
    public typealias EventType = MotionEventKind

    /// Counts the messages of the topic from 1 for the life of the agent (a gap is a lost message).
    public var seq: UInt64
    /// The event's name (``EventType``'s raw values, or a later version's).
    public var type: String
    /// When the event began, seconds since boot (as `CMLogItem`).
    public var timestamp: Double
    /// When the event began, Unix time, s.
    public var ts: Double
    /// How long it lasted, s.
    public var duration: Double
    /// How strong it was, in ``unit``.
    public var magnitude: Double
    /// The unit of ``magnitude`` (`m` or `g`).
    public var unit: String
    /// The attitude when the event began (device → reference unit quaternion); nil when the fusion had
    /// none yet.
    public var attitude: Quaternion?
    /// The reference frame of ``attitude`` (Apple's case name); nil without an attitude.
    public var frame: String?

    /// The event's kind, or nil for a type this version does not know.
    public var eventType: EventType? { EventType(rawValue: type) }

    /// Creates a message of a known kind (its unit follows from the kind).
    /// - Parameters:
    ///   - seq: the message's number on the topic, from 1.
    ///   - type: what happened.
    ///   - timestamp: when it began, s since boot.
    ///   - ts: when it began, Unix time, s.
    ///   - duration: s.
    ///   - magnitude: in the kind's unit.
    ///   - attitude: the attitude when it began, or nil.
    ///   - frame: the attitude's reference frame, or nil.
    public init(
        seq: UInt64, type: EventType, timestamp: Double, ts: Double, duration: Double, magnitude: Double,
        attitude: Quaternion?, frame: String?
    ) {
        self.seq = seq
        self.type = type.rawValue
        self.timestamp = timestamp
        self.ts = ts
        self.duration = duration
        self.magnitude = magnitude
        unit = type.unit
        self.attitude = attitude
        self.frame = attitude == nil ? nil : frame
    }

    /// Writes the payload's fields (``FormattedPayload``).
    public func write<Writer: PayloadWriter>(to writer: inout Writer) {
        writer.field("seq", seq)
        writer.field("type", type)
        writer.field("timestamp", timestamp)
        writer.field("ts", ts)
        writer.measurement("duration", duration)
        writer.measurement("magnitude", magnitude)
        writer.field("unit", unit)
        if let attitude {
            if let frame { writer.field("frame", frame) }
            writer.attitude(attitude)
        }
    }

    /// Decodes a `{base}/events` payload, JSON or CBOR (told apart by the first byte).
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8]) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(payload: payload)
        seq = try root.required("seq", root.count)
        type = try root.required("type", root.string)
        timestamp = try root.required("timestamp", root.number)
        ts = try root.required("ts", root.number)
        duration = try root.required("duration", root.measurement)
        magnitude = try root.required("magnitude", root.measurement)
        unit = try root.required("unit", root.string)
        attitude = try root.attitude("attitude")
        frame = attitude == nil ? nil : try root.string("frame")
    }
}

extension MotionEventKind {
    /// The unit of an event's magnitude as the contract writes it: `m` for a free fall, `g` for the others.
    public var unit: String { self == .freeFall ? "m" : "g" }
}
