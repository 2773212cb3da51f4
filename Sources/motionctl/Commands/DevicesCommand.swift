import Foundation
import MotionContract
import MotionFleet
import MQTT
import Synchronization

/// `motionctl devices [PATTERN]`: every device under the prefix, from the retained topics and what it
/// sends while motionctl listens: online, offline or stale, since when, agent, IMU, services, rates,
/// health highlights; agents that speak Sparkplug B (alone or beside the contract) from their births, data
/// and deaths on `spBv1.0/`. Exit status: 0 when every listed device is online, 1 when one is offline, stale or
/// unknown, 2 when no device matches, 69 when the broker cannot be reached.
enum DevicesCommand {
    static let usage = """
        usage: motionctl devices [PATTERN] \(BrokerCommandOptions.usage) [--wait SECONDS] [--json]
                 [--sparkplug-group GROUP] [--rebirth]
          lists the devices whose id matches PATTERN (a shell glob, default *): state (online, offline, or
          stale: online but silent for 3 health intervals), start, last seen, agent, IMU, each service's
          state, configured rate and the message rate measured while listening, health highlights
          --wait S   how long to listen, s (default 2; longer measures the rates better)
          --json     one JSON document instead of the table
          agents that speak Sparkplug B are listed from their births, data and deaths (Sparkplug retains
          nothing: only what is heard while listening); an agent heard on both is one device
          --sparkplug-group G  only this Sparkplug group (default: every group)
          --rebirth  ask the Sparkplug agents heard without a birth to be born again (an NCMD
                     Node Control/Rebirth after half the wait), for their version and services' states
          exit status: 0 all online, 1 some offline, stale or unknown, 2 none matches, 69 broker unreachable
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: BrokerCommandOptions.valued.union(["--wait", "--sparkplug-group"]), switches: ["--json", "--rebirth"],
            usage: usage)
        let pattern = options.devicePattern(command: "devices")
        let connection = BrokerCommandOptions(options)
        let wait = options.number("--wait", atLeast: 0.1, atMost: 3_600) ?? 2
        let ledger = Mutex(FleetLedger(prefix: connection.prefix))
        let listening = Mutex<Double?>(nil)
        let group = options.values["--sparkplug-group"] ?? "+"
        if group != "+", let problem = SparkplugTopic.identifierProblem(group) {
            options.fail("--sparkplug-group: \"\(group)\" \(problem)")
        }
        // A node's births, data and deaths and its devices' (not its commands, nor the hosts' STATE).
        let sparkplug = [SparkplugMessageType.nodeBirth, .nodeDeath, .deviceBirth, .deviceData, .deviceDeath].map { type in
            "\(SparkplugTopic.namespace)/\(group)/\(type.rawValue)/+" + (type.isDeviceMessage ? "/+" : "")
        }
        let client = connection.subscriber(
            to: ["\(connection.prefix)/+/#"] + sparkplug, command: "devices",
            onSubscribed: { _ in listening.withLock { $0 = $0 ?? Date().timeIntervalSince1970 } }
        ) { message in
            let now = Date().timeIntervalSince1970
            ledger.withLock { $0.receive(topic: message.topic, payload: message.payload, retained: message.retain, arrival: now) }
        }
        // The retained topics arrive right after the subscription; the wait is for live traffic.
        _ = BrokerCommandOptions.wait(until: Date().addingTimeInterval(5), for: { listening.withLock { $0 } != nil })
        guard let start = listening.withLock({ $0 }) else {
            client.shutdown(timeout: .seconds(1))
            CommandOptions.exit("no connection to \(connection.broker) within 5 s", status: 69)
        }
        if options.flags.contains("--rebirth") {
            Thread.sleep(until: Date(timeIntervalSince1970: start + wait / 2))
            let rebirth = SparkplugPayload(
                timestamp: UInt64(Date().timeIntervalSince1970 * 1_000),
                metrics: [SparkplugMetric(name: SparkplugMetricName.rebirth, value: .boolean(true))]
            ).encoded()
            for node in ledger.withLock({ $0.sparkplugNodesWithoutBirth }) {
                let topic = SparkplugTopic.message(.nodeCommand, group: node.group, edgeNode: node.edgeNode, device: nil).name
                _ = try? client.publish(MQTTMessage(topic: topic, payload: rebirth, qos: .atMostOnce, retain: false))
            }
        }
        Thread.sleep(until: Date(timeIntervalSince1970: start + wait))
        client.shutdown(timeout: .seconds(1))
        let now = Date().timeIntervalSince1970
        let devices = ledger.withLock { $0.summaries(matching: pattern, now: now, listened: now - start) }
        let output = options.flags.contains("--json") ? FleetTable.json(devices, now: now) : FleetTable.render(devices, now: now)
        FileHandle.standardOutput.write(Data(output.utf8))
        guard !devices.isEmpty else {
            CommandOptions.exit("no device under \(connection.prefix)/ matches \(pattern)", status: 2)
        }
        exit(devices.allSatisfy { $0.state == .online } ? 0 : 1)
    }
}
