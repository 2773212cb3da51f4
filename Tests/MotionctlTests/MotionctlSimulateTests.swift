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
}
