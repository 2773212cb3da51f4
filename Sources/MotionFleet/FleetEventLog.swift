import MotionContract
import MotionMath

/// The fleet's motion events and state changes, one line each, as `motionctl events` prints them: which
/// messages of the broker are events or states of matching devices, and their text and JSON lines. Pure.
public struct FleetEventLog: Sendable {
    /// One event or state of one device.
    public enum Entry: Sendable, Equatable {
        /// A message of `{base}/events`.
        case event(deviceID: String, MotionEventPayload)
        /// A message of `{base}/state/{name}`.
        case state(deviceID: String, MotionStatePayload)

        /// The device it came from.
        public var deviceID: String {
            switch self {
            case .event(let deviceID, _), .state(let deviceID, _): deviceID
            }
        }
    }

    /// The contract's first topic level.
    public let prefix: String
    /// The devices listed.
    public let pattern: DevicePattern
    /// Whether states are listed too (events always are).
    public let includesStates: Bool

    /// Creates a log.
    /// - Parameters:
    ///   - prefix: the first topic level (`motion`).
    ///   - pattern: the devices listed.
    ///   - includesStates: list `{base}/state/…` too.
    public init(prefix: String, pattern: DevicePattern = .all, includesStates: Bool) {
        self.prefix = prefix
        self.pattern = pattern
        self.includesStates = includesStates
    }

    /// The topic filters to subscribe to.
    public var topicFilters: [String] {
        ["\(prefix)/+/events"] + (includesStates ? ["\(prefix)/+/state/+"] : [])
    }

    /// The entry a message is, or nil for another topic, a device the pattern does not match, a removed
    /// state (an empty payload), a payload that does not decode (a publisher outside the contract) or an
    /// event of a type this version does not know (the contract: skip it).
    public func entry(topic: String, payload: [UInt8]) -> Entry? {
        guard let deviceID = TopicLayout.deviceID(inTopic: topic, prefix: prefix), pattern.matches(deviceID), !payload.isEmpty else {
            return nil
        }
        switch TopicLayout(prefix: prefix, deviceID: deviceID).kind(ofTopic: topic) {
        case .events?:
            guard let event = try? MotionEventPayload(payload: payload), event.eventType != nil else { return nil }
            return .event(deviceID: deviceID, event)
        case .state(let name)? where includesStates:
            return (try? MotionStatePayload(payload: payload, name: name)).map { .state(deviceID: deviceID, $0) }
        default:
            return nil
        }
    }

    /// `TIME  DEVICE  WHAT  VALUE`: the time (UTC, ms) it began, the device, the event type or state
    /// name, and its value with unit:
    /// `2026-12-02T14:31:05.402Z  crate-1  free_fall    1.00 m in 0.452 s`. What the device sent is
    /// escaped (``DeviceText``).
    public static func text(_ entry: Entry) -> String {
        let (ts, what, value): (Double, String, String)
        switch entry {
        case .event(_, let event): (ts, what, value) = (event.ts, event.type, describe(event))
        case .state(_, let state): (ts, what, value) = (state.ts, state.name.rawValue, describe(state.value))
        }
        let time = UTCDateTime(unixTime: ts).iso8601(fractionalDigits: 3)
        let padded = what + String(repeating: " ", count: max(0, 11 - what.count))
        return DeviceText.escaped("\(time)  \(DeviceText.id(entry.deviceID))  \(padded)  \(value)")
    }

    /// An event's magnitude with its unit and its duration: `1.00 m in 0.452 s`, `18.6 g in 0.035 s`.
    public static func describe(_ event: MotionEventPayload) -> String {
        let digits = event.unit == "m" ? 2 : 1
        return "\(event.magnitude.fixedDecimal(places: digits)) \(DeviceText.text(event.unit, limit: 32)) in \(event.duration.fixedDecimal(places: 3)) s"
    }

    /// A state's value in words: `still`, `face_up`, `tilted 34.2°`, `running 0.421 g`,
    /// `walking (high confidence)`.
    public static func describe(_ value: MotionStatePayload.Value) -> String {
        switch value {
        case .moving(let moving): moving ? "moving" : "still"
        case .orientation(let orientation): DeviceText.text(orientation, limit: 32)
        case .tilt(let tilted, let angle): "\(tilted ? "tilted" : "level") \(angle.fixedDecimal(places: 1))°"
        case .vibration(let running, let bands, let severity):
            [
                running.map { "\($0 ? "running" : "stopped") \((bands.first?.rms ?? 0).fixedDecimal(places: 3)) g" },
                severity.map { "zone \(DeviceText.text($0.zone, limit: 1)) \($0.velocityRMS.fixedDecimal(places: 2)) mm/s" },
            ].compactMap { $0 }.joined(separator: ", ")
        case .activity(let activity, let confidence): "\(DeviceText.text(activity, limit: 32)) (\(DeviceText.text(confidence, limit: 32)) confidence)"
        }
    }

    /// One JSON object: `{"device","topic","event":{…}}` or `{"device","topic","state":name,"value":{…}}`,
    /// the payload as the contract writes it in JSON (a CBOR event too).
    public func json(_ entry: Entry) -> String {
        var writer = JSONWriter()
        writer.field("device", entry.deviceID)
        let topics = TopicLayout(prefix: prefix, deviceID: entry.deviceID)
        switch entry {
        case .event(_, let event):
            writer.field("topic", topics.events)
            writer.field("event", (try? JSONValue.parse(event.encoded(.json))) ?? .null)
        case .state(_, let state):
            writer.field("topic", topics.state(state.name))
            writer.field("state", state.name.rawValue)
            writer.field("value", (try? JSONValue.parse(Array(state.json().utf8))) ?? .null)
        }
        return writer.finished()
    }
}
