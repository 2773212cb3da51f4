import AgentTestSupport
import Foundation
import MotionContract
import MotionTestSupport
import MQTT
import Testing

/// `motionctl events` against a real mosquitto and a real agent on the simulator's drop: the free fall and
/// the impact as lines, the current states first with `--states`, JSON lines, and a pattern that matches
/// no device printing nothing.
@Suite(.serialized) struct MotionctlEventsTests {
    @Test func followsTheFleetsEventsAndStates() throws {
        let running = try RunningAgent.start(device: "sim:motion=drop")
        defer { running.cleanUp() }
        let broker = running.broker.url
        // The states are retained: with --states the five current ones come first.
        #expect(running.subscriber.waitForCount(on: running.topics.state(.activity), count: 1, timeout: .seconds(10)))
        let states = try AgentProcess.run(
            "motionctl", arguments: ["events", "--states", "--json", "--count", "5", "--broker", broker], timeout: .seconds(15))
        #expect(states.status == 0, "\(states.log)")
        let objects = states.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(Set(objects.compactMap { $0["state"] as? String }) == Set(MotionStateName.allCases.map(\.rawValue)), "\(states.output)")
        #expect(objects.allSatisfy { $0["device"] as? String == running.deviceID && $0["value"] is [String: Any] })

        // The drop every 10 s: a free fall, then an impact.
        let events = try AgentProcess.run(
            "motionctl", arguments: ["events", "it-*", "--count", "2", "--broker", broker], timeout: .seconds(30))
        #expect(events.status == 0, "\(events.log)")
        let lines = events.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(events.output)")
        #expect(lines.first?.contains("  \(running.deviceID)  free_fall") == true && lines.first?.contains(" m in 0.4") == true, "\(lines)")
        #expect(lines.last?.contains("  impact ") == true && lines.last?.contains(" g in ") == true, "\(lines)")

        let nobody = try AgentProcess.run(
            "motionctl", arguments: ["events", "nobody-*", "--states", "--duration", "1", "--broker", broker], timeout: .seconds(10))
        #expect(nobody.status == 0 && nobody.output.isEmpty, "\(nobody.log)")
    }
}

/// Issue 29, F2 end to end: a hostile device's retained info, and its events and states, as the real
/// `motionctl devices` and `motionctl events` print them from a real broker.
@Suite struct MotionctlHostileDeviceTests {
    static func retain(_ broker: MosquittoBroker, _ messages: [(String, String)]) throws {
        let publisher = try RecordingSubscriber(broker: broker.address, topicFilters: [])
        for (topic, payload) in messages {
            try publisher.client.publish(MQTTMessage(topic: topic, string: payload, qos: .atLeastOnce, retain: true))
        }
        try publisher.synchronize()
    }

    static func printable(_ output: String) -> Bool {
        !output.unicodeScalars.contains { $0 != "\n" && [.control, .format].contains($0.properties.generalCategory) }
    }

    @Test("a device's info cannot draw a row for another device, nor reach the terminal as control sequences")
    func devicesEscapesWhatADeviceSends() throws {
        let broker = try MosquittoBroker()
        let forged = "chip\ndev-b   online  12-01 16:02:52  0s ago  0.1.0  faked row\u{1b}]0;owned\u{07}\r\u{1b}[2K"
        let info = InfoPayload(
            agent: "motion-agent", version: "1\u{1b}[31m", deviceID: "evil",
            device: .init(specification: "sim", driver: "sim", chip: forged, sampleRateHz: 100), services: [], started: "2026-12-01T16:02:52Z\n")
        try Self.retain(broker, [("motion/evil/status", "online"), ("motion/evil/info", info.json())])
        let listing = try AgentProcess.run("motionctl", arguments: ["devices", "--broker", broker.url, "--wait", "0.5"], timeout: .seconds(15))
        #expect(listing.output.contains("evil") && listing.output.contains("chip\\u{a}dev-b"), "the info was read: \(listing.output) \(listing.log)")
        #expect(Self.printable(listing.output), "control characters reached the terminal: \(listing.output.debugDescription)")
        #expect(!listing.output.split(separator: "\n").contains { $0.hasPrefix("dev-b") }, "a forged row: \(listing.output)")
    }

    @Test("an event type the contract does not know is skipped; ids and states are escaped")
    func eventsSkipsUnknownTypesAndEscapes() throws {
        let broker = try MosquittoBroker()
        try Self.retain(broker, [("motion/evil\u{202e}live/state/orientation", #"{"timestamp":1,"ts":1796139113,"orientation":"up\r\u001b[K\ndev-b  moving"}"#)])
        let publisher = try RecordingSubscriber(broker: broker.address, topicFilters: [])
        let events = try AgentProcess(
            "motionctl", arguments: ["events", "--states", "--json", "--count", "3", "--duration", "4", "--broker", broker.url])
        Thread.sleep(forTimeInterval: 1)
        for type in ["levitation", "impact"] {
            try publisher.client.publish(MQTTMessage(
                topic: "motion/evil/events", string: #"{"seq":1,"type":"\#(type)","timestamp":1,"ts":1796139113,"duration":0.1,"magnitude":3,"unit":"g"}"#,
                qos: .atLeastOnce))
        }
        _ = events.waitForExit(timeout: .seconds(10))
        let text = try AgentProcess.run(
            "motionctl", arguments: ["events", "--states", "--count", "1", "--duration", "2", "--broker", broker.url], timeout: .seconds(10))
        #expect(Self.printable(text.output) && text.output.split(separator: "\n").count == 1, "\(text.output.debugDescription)")
        let lines = String(decoding: events.standardOutput.availableData, as: UTF8.self).split(separator: "\n")
        #expect(!lines.contains { $0.contains("levitation") }, "an unknown type was shown: \(lines)")
        #expect(lines.contains { $0.contains(#""type":"impact""#) }, "\(lines) \(events.log)")
    }
}
