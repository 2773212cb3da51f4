import Foundation
import MotionContract
import MotionFleet
import MQTT
import Synchronization

/// `motionctl events [PATTERN]`: the motion events (free fall, impact, tap, double tap, shake) of the
/// matching devices as they arrive, one line each, and with `--states` their states (the current ones
/// first, from the retained topics, then every change). Ends after `--count` lines, after `--duration`
/// seconds, or on Ctrl-C; exit status 0, 64 for a usage error, 69 when the broker cannot be reached.
enum EventsCommand {
    static let usage = """
        usage: motionctl events [PATTERN] \(BrokerCommandOptions.usage) [--states] [--json] [--count N] [--duration SECONDS]
          prints the motion events of the devices whose id matches PATTERN (a shell glob, default *) as they
          arrive: TIME (when it began, UTC)  DEVICE  TYPE  MAGNITUDE (m for a free fall, g otherwise) in DURATION
          --states      the states too (moving, orientation, tilt, vibration, activity): the current ones
                        first, then every change
          --json        one JSON object a line: {"device","topic","event":{…}} or {"device","topic","state","value":{…}}
          --count N     stop after N lines
          --duration S  stop after S seconds (default: until Ctrl-C)
          exit status: 0, 64 usage error, 69 broker unreachable
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: BrokerCommandOptions.valued.union(["--count", "--duration"]), switches: ["--states", "--json"],
            usage: usage)
        let pattern = options.devicePattern(command: "events")
        let connection = BrokerCommandOptions(options)
        let count = options.number("--count", atLeast: 1, atMost: 1e9).map { Int($0) }
        let duration = options.number("--duration", atLeast: .leastNonzeroMagnitude)
        let log = FleetEventLog(prefix: connection.prefix, pattern: pattern, includesStates: options.flags.contains("--states"))
        let asJSON = options.flags.contains("--json")
        let printed = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        let connected = Mutex(false)
        // A reader that goes away (`| head`) ends the command quietly instead of killing it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let client = connection.subscriber(
            to: log.topicFilters, command: "events", onSubscribed: { _ in connected.withLock { $0 = true } }
        ) { message in
            guard let entry = log.entry(topic: message.topic, payload: message.payload) else { return }
            let line = (asJSON ? log.json(entry) : FleetEventLog.text(entry)) + "\n"
            printed.withLock { printed in
                guard count.map({ printed < $0 }) ?? true else { return }
                printed += 1
                FileHandle.standardOutput.write(Data(line.utf8))
                if let count, printed == count { done.signal() }
            }
        }
        guard BrokerCommandOptions.wait(until: Date().addingTimeInterval(5), for: { connected.withLock { $0 } }) else {
            client.shutdown(timeout: .seconds(1))
            CommandOptions.exit("no connection to \(connection.broker) within 5 s", status: 69)
        }
        let stop = DispatchQueue(label: "motionctl.events.stop")
        stop.async {
            CommandOptions.waitForStop(after: duration)
            done.signal()
        }
        done.wait()
        client.shutdown(timeout: .seconds(1))
        exit(0)
    }
}
