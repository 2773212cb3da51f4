import MotionContract
import MotionMath
import Testing

/// `{base}/events` and `{base}/state/{name}` (contract 1.4): the documented bytes, round trips in JSON and
/// CBOR, a type a later version adds, and the topics' kinds.
@Suite struct MotionEventPayloadTests {
    static let attitude = Quaternion(w: 0.93, x: 0.01, y: -0.2, z: 0.3)

    @Test func anEventIsWrittenAsDocumented() {
        let event = MotionEventPayload(
            seq: 4, type: .freeFall, timestamp: 3521.125, ts: 1_795_986_011.402, duration: 0.452, magnitude: 1,
            attitude: Quaternion(w: 1, x: 0, y: 0, z: 0), frame: "xArbitraryZVertical")
        #expect(String(decoding: event.encoded(), as: UTF8.self) == #"{"seq":4,"type":"free_fall","timestamp":3521.125,"ts":1795986011.402,"duration":0.452,"magnitude":1.0,"unit":"m","frame":"xArbitraryZVertical","attitude":{"quaternion":{"x":0.0,"y":0.0,"z":0.0,"w":1.0},"roll":-0.0,"pitch":0.0,"yaw":-0.0}}"#)
        let impact = MotionEventPayload(seq: 5, type: .impact, timestamp: 1, ts: 2, duration: 0.02, magnitude: 8.5, attitude: nil, frame: "xArbitraryZVertical")
        #expect(impact.unit == "g" && impact.frame == nil)
        #expect(String(decoding: impact.encoded(), as: UTF8.self) == #"{"seq":5,"type":"impact","timestamp":1.0,"ts":2.0,"duration":0.02,"magnitude":8.5,"unit":"g"}"#)
    }

    @Test(arguments: PayloadFormat.nativeForms)
    func eventsRoundTrip(format: PayloadFormat) throws {
        for type in MotionEventPayload.EventType.allCases {
            let event = MotionEventPayload(
                seq: 9, type: type, timestamp: 12.5, ts: 1_795_986_011.25, duration: 0.125, magnitude: 2.5, attitude: Self.attitude,
                frame: "xMagneticNorthZVertical")
            let bytes = event.encoded(format)
            #expect(PayloadFormat.of(bytes) == format)
            let decoded = try MotionEventPayload(payload: bytes)
            #expect(decoded.eventType == type && decoded.seq == 9 && decoded.frame == "xMagneticNorthZVertical")
            #expect(decoded.timestamp == 12.5 && decoded.ts == 1_795_986_011.25 && decoded.unit == type.unit)
            let quaternion = try #require(decoded.attitude)
            #expect(abs(quaternion.w - 0.93) < 1e-6 && abs(quaternion.z - 0.3) < 1e-6)
        }
    }

    @Test func aTypeOfALaterVersionIsKeptAndAMissingFieldNamed() throws {
        let later = try MotionEventPayload(payload: Array(#"{"seq":1,"type":"knock","timestamp":1,"ts":2,"duration":0.1,"magnitude":3,"unit":"g"}"#.utf8))
        #expect(later.type == "knock" && later.eventType == nil && later.attitude == nil)
        #expect(throws: PayloadError(fieldPath: "magnitude", reason: "is required")) {
            try MotionEventPayload(payload: Array(#"{"seq":1,"type":"tap","timestamp":1,"ts":2,"duration":0.1,"unit":"g"}"#.utf8))
        }
        #expect(throws: PayloadError(fieldPath: "attitude.quaternion.w", reason: "is required")) {
            try MotionEventPayload(payload: Array(#"{"seq":1,"type":"tap","timestamp":1,"ts":2,"duration":0.1,"magnitude":1,"unit":"g","attitude":{"quaternion":{"x":0,"y":0,"z":0}}}"#.utf8))
        }
    }

    @Test func statesAreWrittenAsDocumentedAndRoundTrip() throws {
        let values: [(MotionStatePayload.Value, String)] = [
            (.moving(true), #""moving":true"#),
            (.orientation("face_up"), #""orientation":"face_up""#),
            (.tilt(tilted: true, angle: 34.25), #""tilted":true,"angle":34.25"#),
            (.vibration(running: true, bands: [.init(low: 20, high: 100, rms: 0.42)], severity: nil),
             #""running":true,"level":0.42,"bands":[{"low":20.0,"high":100.0,"rms":0.42}]"#),
            (.activity("walking", confidence: "high"), #""activity":"walking","confidence":"high""#),
        ]
        for (value, fields) in values {
            let state = MotionStatePayload(value: value, timestamp: 3521.125, ts: 1_795_986_011.402)
            #expect(state.json() == #"{"timestamp":3521.125,"ts":1795986011.402,"# + fields + "}")
            #expect(try MotionStatePayload(payload: Array(state.json().utf8), name: state.name) == state)
        }
        #expect(throws: PayloadError(fieldPath: "moving", reason: "must be true or false")) {
            try MotionStatePayload(payload: Array(#"{"timestamp":1,"ts":2,"moving":"yes"}"#.utf8), name: .moving)
        }
    }

    @Test func theTopicsAreKnown() {
        let topics = TopicLayout(prefix: "motion", deviceID: "pi-4")
        #expect(topics.events == "motion/pi-4/events")
        #expect(topics.kind(ofTopic: "motion/pi-4/events") == .events)
        for name in MotionStateName.allCases {
            #expect(topics.state(name) == "motion/pi-4/state/\(name.rawValue)")
            #expect(topics.kind(ofTopic: topics.state(name)) == .state(name))
        }
        #expect(topics.kind(ofTopic: "motion/pi-4/state/mood") == nil)
        #expect(topics.kind(ofTopic: "motion/pi-4/state/set") == nil)
        #expect(topics.service(forControlTopic: "motion/pi-4/state/set") == nil)
    }
}
