import AgentTestSupport
import Foundation
import MotionContract
import MQTT
import MotionTestSupport
import Testing

/// Home Assistant discovery from a real agent: a retained config per sensor, valid against Home
/// Assistant's documented sensor discovery schema (schemas/home-assistant/), templates that render
/// (Jinja2, as Home Assistant renders them) to numbers on the payloads the agent publishes, and the
/// sensors of a stopped service (or one switched to CBOR) removed.
@Suite(.serialized) struct HomeAssistantDiscoveryTests {
    static let directory = Repository.schemas.appendingPathComponent("home-assistant")

    @Test func discoveryMessagesDescribeTheDeviceAndFollowItsServices() throws {
        let running = try RunningAgent.start(
            configuration: #"{"health_interval": 1, "home_assistant": {"discovery": true}, "services": {"accelerometer": {"batch": 3}}}"#,
            subscriber: { broker, topics in
                try RecordingSubscriber(broker: broker.address, topicFilters: ["\(topics.base)/#", "homeassistant/#"])
            })
        defer { running.cleanUp() }
        let node = "homeassistant/sensor/\(running.deviceID)"
        let objects = ["accelerometer_x", "accelerometer_y", "accelerometer_z", "accelerometer_rate", "gyro_x", "gyro_y", "gyro_z",
                       "gyro_rate", "magnetometer_x", "magnetometer_y", "magnetometer_z", "magnetometer_rate", "roll", "pitch",
                       "heading", "device-motion_rate", "steps", "distance", "cadence", "steps_rate", "current_activity",
                       "activity_rate"]
        for object in objects {
            #expect(running.subscriber.waitForMessage(on: "\(node)/\(object)/config", timeout: .seconds(10)) != nil, "\(object)")
        }
        #expect(running.subscriber.waitForMessage(on: running.topics.health) != nil)
        for service in MotionService.allCases where ![.altitude, .vibration].contains(service) {  // no barometer; vibration is off
            #expect(running.subscriber.waitForMessage(on: running.topics.data(service)) != nil, "\(service)")
        }
        let configs = objects.compactMap { running.subscriber.messages(on: "\(node)/\($0)/config").last }
        #expect(configs.count == objects.count)
        // Retained: Home Assistant (re)starting later reads them all.
        let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: ["\(node)/#"])
        #expect(late.waitForCount(on: "\(node)/gyro_x/config", count: 1))
        #expect(objects.allSatisfy { late.messages(on: "\(node)/\($0)/config").first?.retain == true })
        let validation = try PayloadSchemaTests.validate(configs.map(\.payload), against: "home-assistant/sensor-discovery")
        #expect(validation.status == 0, "\(validation.output)")

        // Every value template renders to a number on the newest message of its state topic (heading:
        // "None", Home Assistant's unknown, in a frame without north; the activity: its name); the
        // availability templates say online.
        var cases: [[String: String]] = []
        for config in configs {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload)) as? [String: Any])
            let stateTopic = try #require(object["state_topic"] as? String)
            let state = try #require(running.subscriber.messages(on: stateTopic).last, "\(stateTopic)")
            cases.append(["template": object["value_template"] as? String ?? "", "payload": state.payloadString])
            for entry in object["availability"] as? [[String: Any]] ?? [] {
                guard let template = entry["value_template"] as? String, let topic = entry["topic"] as? String,
                    let status = running.subscriber.messages(on: topic).last
                else { continue }
                cases.append(["template": template, "payload": status.payloadString])
            }
        }
        let lines = try cases.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let rendered = try CommandLineTool.run("/usr/bin/python3", [Self.directory.appendingPathComponent("render.py").path, input.path])
        #expect(rendered.status == 0, "\(rendered.output)")
        let values = rendered.output.split(separator: "\n").map(String.init)
        #expect(values.count == cases.count, "\(rendered.output)")
        for (value, testCase) in zip(values, cases) {
            let template = testCase["template"]!
            let fine = Double(value) != nil || value == "online" || (value == "None" && template.contains("heading"))
                || (template.contains("m.activity") && ["stationary", "walking", "running", "unknown"].contains(value))
            #expect(fine, "\(testCase["template"]!) on \(testCase["payload"]!.prefix(120)) rendered \(value)")
        }

        // Stopping a service removes its sensors (empty retained configs); starting it brings them back.
        running.subscriber.clear()
        try running.send("stop", to: .gyro)
        for axis in ["x", "y", "z", "rate"] {
            #expect(running.subscriber.waitForMessage(on: "\(node)/gyro_\(axis)/config") { $0.payload.isEmpty } != nil, "gyro_\(axis) removed")
        }
        try running.send("start", to: .gyro)
        #expect(running.subscriber.waitForMessage(on: "\(node)/gyro_x/config") { !$0.payload.isEmpty } != nil)

        // A service switched to CBOR (remotely) leaves Home Assistant, whose templates read JSON; back to
        // JSON, it returns.
        for (format, removed) in [("cbor", true), ("json", false)] {
            running.subscriber.clear()
            try running.subscriber.client.publish(MQTTMessage(
                topic: running.topics.configurationControl, string: #"{"services":{"gyro":{"format":"\#(format)"}}}"#, qos: .atLeastOnce))
            #expect(running.subscriber.waitForMessage(on: "\(node)/gyro_x/config") { $0.payload.isEmpty == removed } != nil, "\(format)")
        }
    }
}
