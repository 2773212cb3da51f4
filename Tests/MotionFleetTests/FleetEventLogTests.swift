import MotionContract
import MotionFleet
import MotionMath
import Testing

/// `motionctl events`' core: which messages are events and states of matching devices, and their lines.
@Suite struct FleetEventLogTests {
    static let fall = MotionEventPayload(
        seq: 3, type: .freeFall, timestamp: 12, ts: 1_796_220_665.25, duration: 0.4516, magnitude: 0.9996,
        attitude: Quaternion(w: 1, x: 0, y: 0, z: 0), frame: "xArbitraryZVertical")

    @Test func eventsOfMatchingDevicesAreListed() throws {
        let log = FleetEventLog(prefix: "motion", pattern: try DevicePattern("crate-*"), includesStates: false)
        #expect(log.topicFilters == ["motion/+/events"])
        for format in PayloadFormat.nativeForms {
            #expect(log.entry(topic: "motion/crate-1/events", payload: Self.fall.encoded(format)) == .event(deviceID: "crate-1", Self.fall.decodedAgain(format)))
        }
        #expect(log.entry(topic: "motion/door-1/events", payload: Self.fall.encoded()) == nil, "another device")
        #expect(log.entry(topic: "motion/crate-1/events", payload: Array("not json".utf8)) == nil)
        #expect(log.entry(topic: "motion/crate-1/gyro", payload: Self.fall.encoded()) == nil)
        let state = MotionStatePayload(value: .moving(true), timestamp: 1, ts: 1_796_220_665)
        #expect(log.entry(topic: "motion/crate-1/state/moving", payload: Array(state.json().utf8)) == nil, "states only with --states")
    }

    @Test func theLinesSayWhatHappenedWithUnits() throws {
        let text = FleetEventLog.text(.event(deviceID: "crate-1", Self.fall))
        #expect(text == "2026-12-02T14:11:05.250Z  crate-1  free_fall    1.00 m in 0.452 s")
        let impact = MotionEventPayload(seq: 4, type: .impact, timestamp: 12.5, ts: 1_796_220_665.9, duration: 0.02, magnitude: 8.25, attitude: nil, frame: nil)
        #expect(FleetEventLog.text(.event(deviceID: "crate-1", impact)).hasSuffix("impact       8.3 g in 0.020 s"))
        let states: [(MotionStatePayload.Value, String)] = [
            (.moving(false), "moving       still"), (.orientation("face_up"), "orientation  face_up"),
            (.tilt(tilted: true, angle: 34.25), "tilt         tilted 34.3°"),
            (.vibration(running: true, bands: [.init(low: 20, high: 100, rms: 0.4212)], severity: nil), "vibration    running 0.421 g"),
            (.activity("walking", confidence: "high"), "activity     walking (high confidence)"),
        ]
        let log = FleetEventLog(prefix: "motion", includesStates: true)
        for (value, expected) in states {
            let state = MotionStatePayload(value: value, timestamp: 1, ts: 1_796_220_665)
            let entry = try #require(log.entry(topic: "motion/m-7/state/\(value.name.rawValue)", payload: Array(state.json().utf8)))
            #expect(FleetEventLog.text(entry) == "2026-12-02T14:11:05.000Z  m-7  \(expected)")
        }
        #expect(log.entry(topic: "motion/m-7/state/tilt", payload: []) == nil, "a removed state")
    }

    @Test func theJSONLinesCarryThePayloadAsJSON() throws {
        let log = FleetEventLog(prefix: "site/motion", includesStates: true)
        let entry = try #require(log.entry(topic: "site/motion/crate-1/events", payload: Self.fall.encoded(.cbor)))
        let line = log.json(entry)
        #expect(line.hasPrefix(#"{"device":"crate-1","topic":"site/motion/crate-1/events","event":{"#), "\(line)")
        let reread = try JSONValue.parse(Array(line.utf8))
        guard case .object(let members) = reread, case .object(let event)? = members["event"] else { Issue.record("\(line)"); return }
        #expect(event["unit"] == .string("m") && event["type"] == .string("free_fall") && event["seq"] == .integer(3))
    }
}

extension MotionEventPayload {
    /// The event as a subscriber reads it back from `format` (measurements in single precision).
    func decodedAgain(_ format: PayloadFormat) -> MotionEventPayload { (try? MotionEventPayload(payload: encoded(format))) ?? self }
}
