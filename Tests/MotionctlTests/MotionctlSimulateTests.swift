import AgentTestSupport
import Foundation
import MotionContract
import MotionTestSupport
import Testing

/// `motionctl simulate`: N real agents in one process, each a device the fleet tools see and command.
@Suite(.serialized) struct MotionctlSimulateTests {
    @Test("five simulated devices: listed online with their rates, commanded by pattern, offline after a clean stop")
    func fiveSimulatedDevices() throws {
        let broker = try MosquittoBroker()
        let run = "s\(UUID().uuidString.prefix(4).lowercased())"
        let ids = (1...5).map { "\(run)-000\($0)" }
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["motion/+/status"])
        let simulation = try AgentProcess(
            "motionctl", arguments: ["simulate", "--devices", "5", "--rate", "10", "--services", "gyro,device-motion",
                                     "--id-prefix", run, "--broker", broker.url])
        defer { simulation.send(SIGKILL) }
        for id in ids {
            #expect(subscriber.waitForMessage(on: "motion/\(id)/status", timeout: .seconds(15)) { $0.payloadString == "online" } != nil, "\(id)")
        }

        let listing = try AgentProcess.run("motionctl", arguments: ["devices", "\(run)-*", "--broker", broker.url, "--json", "--wait", "2"])
        #expect(listing.status == 0, "\(listing.log)")
        let devices = ((try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [String: Any])?["devices"] as? [[String: Any]]) ?? []
        #expect(devices.compactMap { $0["device"] as? String } == ids)
        for device in devices {
            let services = device["services"] as? [String: [String: Any]] ?? [:]
            #expect(services["gyro"]?["state"] as? String == "active" && services["accelerometer"]?["state"] as? String == "stopped")
            let measured = (services["gyro"]?["measured_rate_hz"] as? NSNumber)?.doubleValue ?? 0
            #expect((7...13).contains(measured), "\(device["device"] ?? "?"): gyro at \(measured) msg/s")
        }

        let stop = try AgentProcess.run("motionctl", arguments: ["stop", "\(run)-*", "gyro", "--broker", broker.url])
        #expect(stop.status == 0 && stop.output.split(separator: "\n").filter { $0.contains("  ok") }.count == 5, "\(stop.output)\(stop.log)")

        simulation.send(SIGTERM)
        #expect(simulation.waitForExit(timeout: .seconds(20)) == 0, "\(simulation.log)")
        // Five agents' routine lines (started, connected, service changes, stopped) stay out of the log.
        #expect(simulation.log.contains("5 simulated devices") && !simulation.log.contains("connected to")
                && !simulation.log.contains("gyro: stopped"), "\(simulation.log)")
        for id in ids {
            #expect(subscriber.waitForMessage(on: "motion/\(id)/status") { $0.payloadString == "offline" } != nil, "\(id) offline")
        }
    }

    @Test("--detectors: on by default (the states topics, as an agent's), off publishes the services only (states cleared); a bad value exits 64")
    func detectorsOption() throws {
        let broker = try MosquittoBroker()
        let subscriber = try RecordingSubscriber(broker: broker.address, topicFilters: ["motion/+/device-motion", "motion/+/state/#"])
        func simulate(_ prefix: String, _ extra: [String]) throws -> (states: [String], messages: Int) {
            let simulation = try AgentProcess(
                "motionctl", arguments: ["simulate", "--devices", "2", "--rate", "20", "--id-prefix", prefix, "--broker", broker.url] + extra)
            defer { simulation.send(SIGKILL) }
            // Two seconds of device motion from the second device: the detectors' first states come with
            // their first samples (retained), well within that.
            #expect(subscriber.waitForCount(on: "motion/\(prefix)-0002/device-motion", count: 40, timeout: .seconds(20)), "\(simulation.log)")
            simulation.send(SIGTERM)
            #expect(simulation.waitForExit(timeout: .seconds(20)) == 0, "\(simulation.log)")
            let records = subscriber.allRecords().filter { $0.message.topic.hasPrefix("motion/\(prefix)-") }
            // Without detectors, an agent clears the retained states with empty messages; those are not states.
            let states = records.filter { $0.message.topic.contains("/state/") && !$0.message.payload.isEmpty }
            return (states.map(\.message.topic), records.count)
        }
        let on = try simulate("don", [])
        #expect(on.states.contains("motion/don-0001/state/tilt") && on.states.contains("motion/don-0002/state/moving"), "\(on.states)")
        let off = try simulate("doff", ["--detectors", "off"])
        #expect(off.messages >= 80 && off.states.isEmpty, "\(off)")

        let bad = try AgentProcess.run("motionctl", arguments: ["simulate", "--devices", "1", "--detectors", "maybe", "--broker", broker.url])
        #expect(bad.status == 64 && bad.log.contains("--detectors maybe: on or off"), "\(bad.log)")
    }
}
