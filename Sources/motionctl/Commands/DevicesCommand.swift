import Foundation
import MotionContract
import MotionFleet
import MQTT
import Synchronization

/// `motionctl devices [PATTERN]`: every device under the prefix, from the retained topics and what it
/// sends while motionctl listens: online, offline or stale, since when, agent, IMU, services, rates,
/// health highlights. Exit status: 0 when every listed device is online, 1 when one is offline, stale or
/// unknown, 2 when no device matches, 69 when the broker cannot be reached.
enum DevicesCommand {
    static let usage = """
        usage: motionctl devices [PATTERN] \(BrokerCommandOptions.usage) [--wait SECONDS] [--json]
          lists the devices whose id matches PATTERN (a shell glob, default *): state (online, offline, or
          stale: online but silent for 3 health intervals), start, last seen, agent, IMU, each service's
          state, configured rate and the message rate measured while listening, health highlights
          --wait S   how long to listen, s (default 2; longer measures the rates better)
          --json     one JSON document instead of the table
          exit status: 0 all online, 1 some offline, stale or unknown, 2 none matches, 69 broker unreachable
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: BrokerCommandOptions.valued.union(["--wait"]), switches: ["--json"], usage: usage)
        let pattern = options.devicePattern(command: "devices")
        let connection = BrokerCommandOptions(options)
        let wait = options.number("--wait", atLeast: 0.1, atMost: 3_600) ?? 2
        let ledger = Mutex(FleetLedger(prefix: connection.prefix))
        let listening = Mutex<Double?>(nil)
        let client = connection.subscriber(
            to: ["\(connection.prefix)/+/#"], command: "devices",
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
