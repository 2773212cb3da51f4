import AgentTestSupport
import Foundation
import MotionContract
import MQTT
import MotionTestSupport
import Testing

/// The detectors through the real agent and a real broker: a simulated drop published on `{base}/events`
/// (QoS 1, valid under the schema, in JSON and then CBOR), the states retained on `{base}/state/…`,
/// Home Assistant's triggers and entities, and a remote document that switches a detector off or is
/// refused with the field named.
@Suite(.serialized) struct MotionEventsIntegrationTests {
    @Test func aDropIsPublishedWithTheStatesAndTheirDiscovery() throws {
        let replies = "motionctl/events-test/replies/\(UUID().uuidString.prefix(8))"
        let running = try RunningAgent.start(
            configuration: #"{"home_assistant": {"discovery": true}}"#, device: "sim:motion=drop",
            subscriber: { broker, topics in
                try RecordingSubscriber(broker: broker.address, topicFilters: ["\(topics.base)/#", "homeassistant/#", replies])
            })
        defer { running.cleanUp() }
        let topics = running.topics
        let subscriber = running.subscriber
        // The scenario lets go 5 s into every 10 s: one free fall and one impact each time.
        #expect(subscriber.waitForCount(on: topics.events, count: 2, timeout: .seconds(20)))
        let events = try subscriber.messages(on: topics.events).map { try MotionEventPayload(payload: $0.payload) }
        #expect(events.prefix(2).map(\.type) == ["free_fall", "impact"])
        #expect(events.map(\.seq) == Array(1...UInt64(events.count)))
        if let fall = events.first {
            #expect(abs(fall.duration - 0.4515) < 0.03 && abs(fall.magnitude - 1) < 0.12, "\(fall)")
            #expect(fall.frame == ReferenceFrameName.defaultFrame && fall.attitude != nil, "the device-motion service's frame")
        }
        #expect(subscriber.messages(on: topics.events).allSatisfy { $0.qos == .atLeastOnce && !$0.retain && $0.contentType == "application/json" })
        var validation = try PayloadSchemaTests.validate(subscriber.messages(on: topics.events).map(\.payload), against: "events")
        #expect(validation.status == 0, "\(validation.output)")

        // Every state retained, valid, and read by a late subscriber.
        let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: ["\(topics.base)/state/#"])
        for name in MotionStateName.allCases {
            #expect(late.waitForCount(on: topics.state(name), count: 1), "\(name)")
        }
        let states = MotionStateName.allCases.compactMap { late.messages(on: topics.state($0)).first }
        #expect(states.count == MotionStateName.allCases.count && states.allSatisfy(\.retain))
        validation = try PayloadSchemaTests.validate(states.map(\.payload), against: "state")
        #expect(validation.status == 0, "\(validation.output)")
        let orientationMessage = try #require(late.messages(on: topics.state(.orientation)).first)
        let orientation = try MotionStatePayload(payload: orientationMessage.payload, name: .orientation)
        #expect(orientation.value == .orientation("face_up"))

        // Home Assistant: a trigger per event type, entities per state, valid and rendering on the payloads.
        let node = running.deviceID
        let triggers = MotionEventPayload.EventType.allCases.compactMap {
            subscriber.waitForMessage(on: "homeassistant/device_automation/\(node)/\($0.rawValue)/config") { !$0.payload.isEmpty }?.message
        }
        #expect(triggers.count == MotionEventPayload.EventType.allCases.count)
        validation = try PayloadSchemaTests.validate(triggers.map(\.payload), against: "home-assistant/device-trigger-discovery")
        #expect(validation.status == 0, "\(validation.output)")
        let binary = ["moving", "tilt", "vibration"].compactMap {
            subscriber.waitForMessage(on: "homeassistant/binary_sensor/\(node)/\($0)/config") { !$0.payload.isEmpty }?.message
        }
        let sensors = ["vibration_level", "orientation", "activity"].compactMap {
            subscriber.waitForMessage(on: "homeassistant/sensor/\(node)/\($0)/config") { !$0.payload.isEmpty }?.message
        }
        #expect(binary.count == 3 && sensors.count == 3)
        validation = try PayloadSchemaTests.validate(binary.map(\.payload), against: "home-assistant/binary-sensor-discovery")
        #expect(validation.status == 0, "\(validation.output)")
        validation = try PayloadSchemaTests.validate(sensors.map(\.payload), against: "home-assistant/sensor-discovery")
        #expect(validation.status == 0, "\(validation.output)")
        var cases: [[String: String]] = []
        for config in triggers + binary + sensors {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload)) as? [String: Any])
            let topic = try #require(object["state_topic"] as? String ?? object["topic"] as? String)
            let template = try #require(object["value_template"] as? String)
            let payload = try #require((topic == topics.events ? subscriber : late).messages(on: topic).last, "\(topic)")
            cases.append(["template": template, "payload": payload.payloadString])
        }
        let rendered = try Self.render(cases)
        #expect(rendered.count == cases.count)
        let allowed = Set(["ON", "OFF", "face_up", "stationary", "unknown", "walking"] + MotionEventPayload.EventType.allCases.map(\.rawValue))
        for (value, testCase) in zip(rendered, cases) {
            #expect(allowed.contains(value) || Double(value) != nil, "\(testCase) rendered \(value)")
        }

        // Remotely: tilt off (its state and entity removed), events in CBOR (the triggers removed).
        subscriber.clear()
        try subscriber.client.publish(MQTTMessage(
            topic: topics.configurationControl, string: #"{"detectors":{"tilt":{"enabled":false},"format":"cbor"}}"#, qos: .atLeastOnce,
            responseTopic: replies, correlationData: [1]))
        #expect(subscriber.waitForMessage(on: replies) { $0.payloadString.contains(#""ok":true"#) } != nil)
        #expect(subscriber.waitForMessage(on: topics.state(.tilt)) { $0.payload.isEmpty } != nil)
        #expect(subscriber.waitForMessage(on: "homeassistant/binary_sensor/\(node)/tilt/config") { $0.payload.isEmpty } != nil)
        #expect(subscriber.waitForMessage(on: "homeassistant/device_automation/\(node)/impact/config") { $0.payload.isEmpty } != nil)
        let afterwards = try RecordingSubscriber(broker: running.broker.address, topicFilters: ["\(topics.base)/state/#"])
        #expect(afterwards.waitForCount(on: topics.state(.moving), count: 1))
        #expect(afterwards.messages(on: topics.state(.tilt)).isEmpty, "no retained tilt state is left")
        let report = try #require(subscriber.waitForMessage(on: topics.configuration)?.message)
        #expect(try ConfigurationReport(payload: report.payload).sources["detectors"] == .remote)
        #expect(try PayloadSchemaTests.validate([report.payload], against: "config").status == 0)
        #expect(subscriber.waitForCount(on: topics.events, count: 2, timeout: .seconds(20)))
        let cbor = subscriber.messages(on: topics.events)
        #expect(cbor.allSatisfy { $0.contentType == "application/cbor" && PayloadFormat.of($0.payload) == .cbor })
        #expect(try cbor.map { try MotionEventPayload(payload: $0.payload).seq }.first == UInt64(events.count) + 1, "seq goes on")
        validation = try PayloadSchemaTests.validate(cbor.map(\.payload), against: "events", cbor: true)
        #expect(validation.status == 0, "\(validation.output)")

        // A bad threshold is refused with its field path and changes nothing.
        try subscriber.client.publish(MQTTMessage(
            topic: topics.configurationControl, string: #"{"detectors":{"impact":{"threshold":0.5}}}"#, qos: .atLeastOnce,
            responseTopic: replies, correlationData: [2]))
        let refusal = try #require(subscriber.waitForMessage(on: replies) { $0.correlationData == [2] }?.message)
        #expect(refusal.payloadString.contains("detectors.impact.threshold: must be 1.2…64 g"), "\(refusal.payloadString)")
        validation = try PayloadSchemaTests.validate(
            [Array(#"{"detectors":{"tilt":{"enabled":false},"format":"cbor"}}"#.utf8), Array(#"{"detectors":null}"#.utf8)], against: "config-set")
        #expect(validation.status == 0, "\(validation.output)")
        #expect(try PayloadSchemaTests.validate([Array(#"{"detectors":{"impact":{"threshold":0.5}}}"#.utf8)], against: "config-set").status == 1)

        // The format alone changes in the running detectors: the next events are JSON again, seq goes on.
        let lastCBOR = try MotionEventPayload(payload: try #require(subscriber.messages(on: topics.events).last).payload).seq
        subscriber.clear()
        try subscriber.client.publish(MQTTMessage(
            topic: topics.configurationControl, string: #"{"detectors":{"format":"json"}}"#, qos: .atLeastOnce,
            responseTopic: replies, correlationData: [3]))
        #expect(subscriber.waitForMessage(on: replies) { $0.correlationData == [3] && $0.payloadString.contains(#""ok":true"#) } != nil)
        #expect(subscriber.waitForMessage(on: topics.events, timeout: .seconds(20)) { PayloadFormat.of($0.payload) == .json } != nil)
        let json = subscriber.messages(on: topics.events).filter { PayloadFormat.of($0.payload) == .json }
        #expect(try json.map { try MotionEventPayload(payload: $0.payload).seq }.allSatisfy { $0 > lastCBOR })
        #expect(json.allSatisfy { $0.contentType == "application/json" })
    }

    /// Renders Home Assistant templates on payloads (schemas/home-assistant/render.py).
    static func render(_ cases: [[String: String]]) throws -> [String] {
        let lines = try cases.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let rendered = try CommandLineTool.run(
            "/usr/bin/python3", [HomeAssistantDiscoveryTests.directory.appendingPathComponent("render.py").path, input.path])
        #expect(rendered.status == 0, "\(rendered.output)")
        return rendered.output.split(separator: "\n").map(String.init)
    }
}
