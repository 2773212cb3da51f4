import Foundation
import MotionContract
import MotionFleet
import MQTT
import Synchronization

/// The shell around ``CommandRound`` for `start`, `stop`, `set` and `config set`: finds the devices matching the
/// pattern from their retained status, sends each the command with its own response topic and
/// correlation data (QoS 1), waits for the answers, prints the results and exits: 0 when every device
/// confirmed, 1 naming those that did not, 2 when no device matches, 69 when the broker is unreachable.
enum FleetCommandRound {
    /// What the round needs from the command line.
    struct Request {
        let connection: BrokerCommandOptions
        let pattern: DevicePattern
        let target: Target
        let payload: [UInt8]
        let timeout: Double
        let json: Bool
    }

    /// Where each device is sent the payload.
    enum Target {
        /// A service's control topic, `{base}/{service}/set`.
        case service(MotionService)
        /// The configuration topic, `{base}/config/set`.
        case configuration

        func topic(_ topics: TopicLayout) -> String {
            switch self {
            case .service(let service): topics.control(service)
            case .configuration: topics.configurationControl
            }
        }
    }

    private struct State: Sendable {
        var ledger: FleetLedger
        var round: CommandRound?
        var discovered = false
    }

    static func run(_ request: Request) -> Never {
        let token = String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
        let account = request.connection.username
        let sync = CommandRound.synchronizationTopic(token: token, account: account)
        let answers = CommandRound.answerFilter(token: token, account: account)
        let state = Mutex(State(ledger: FleetLedger(prefix: request.connection.prefix)))
        let client = request.connection.subscriber(
            to: ["\(request.connection.prefix)/+/status", answers, sync], command: "command",
            onSubscribed: { client in
                // Comes back after the retained statuses the subscriptions above deliver.
                _ = try? client.publish(MQTTMessage(topic: sync, payload: [], qos: .atMostOnce))
            }
        ) { message in
            state.withLock { state in
                if message.topic == sync {
                    state.discovered = true
                } else if message.topic.hasPrefix(CommandRound.repliesTree(account: account) + "/") {
                    state.round?.receive(answer: message.payload, topic: message.topic, correlationData: message.correlationData)
                } else {
                    state.ledger.receive(topic: message.topic, payload: message.payload, retained: message.retain, arrival: 0)
                }
            }
        }
        guard BrokerCommandOptions.wait(until: Date().addingTimeInterval(5), for: { state.withLock { $0.discovered } }) else {
            client.shutdown(timeout: .seconds(1))
            CommandOptions.exit("no answer from \(request.connection.broker) within 5 s", status: 69)
        }
        let round = state.withLock { state in
            let devices = state.ledger.summaries(matching: request.pattern, now: 0, listened: 0)
            state.round = CommandRound(token: token, account: account, devices: devices.map { ($0.deviceID, $0.state != .offline) })
            return state.round!
        }
        guard !round.outcomes.isEmpty else {
            client.shutdown(timeout: .seconds(1))
            CommandOptions.exit("no device under \(request.connection.prefix)/ matches \(request.pattern)", status: 2)
        }
        for deviceID in round.targets {
            let topic = request.target.topic(TopicLayout(prefix: request.connection.prefix, deviceID: deviceID))
            do {
                _ = try client.publish(MQTTMessage(
                    topic: topic, payload: request.payload, qos: .atLeastOnce, responseTopic: round.responseTopic(for: deviceID),
                    correlationData: round.correlationData(for: deviceID)))
            } catch {
                state.withLock { $0.round?.sendFailed(deviceID, reason: "\(error)") }
            }
        }
        _ = BrokerCommandOptions.wait(until: Date().addingTimeInterval(request.timeout), for: { state.withLock { $0.round!.isComplete } })
        client.shutdown(timeout: .seconds(1))
        let finished = state.withLock { state in
            state.round!.finish()
            return state.round!
        }
        FileHandle.standardOutput.write(Data((request.json ? finished.json() : finished.render()).utf8))
        let unconfirmed = finished.unconfirmed
        guard unconfirmed.isEmpty else {
            CommandOptions.exit("did not confirm: \(unconfirmed.joined(separator: ", "))", status: 1)
        }
        exit(0)
    }

    /// The pattern, service, timeout and `--json` every round command takes, read from `options`, and
    /// the payload `payload` makes for the service (it may fail the command with a usage error).
    static func request(
        _ options: CommandOptions, pattern patternText: String, service serviceName: String,
        payload: (MotionService) -> [UInt8]
    ) -> Request {
        guard let service = MotionService(topicName: serviceName) else {
            options.fail("unknown service \(serviceName) (one of \(MotionService.allCases.map(\.topicName).joined(separator: ", ")))")
        }
        return request(options, pattern: patternText, target: .service(service), payload: payload(service))
    }

    /// The round of `payload` to `target` on the devices matching `patternText`, with the timeout and
    /// `--json` read from `options`.
    static func request(_ options: CommandOptions, pattern patternText: String, target: Target, payload: [UInt8]) -> Request {
        let pattern: DevicePattern
        do {
            pattern = try DevicePattern(patternText)
        } catch {
            options.fail(error.description)
        }
        return Request(
            connection: BrokerCommandOptions(options), pattern: pattern, target: target, payload: payload,
            timeout: options.number("--timeout", atLeast: 0.1, atMost: 3_600) ?? 5, json: options.flags.contains("--json"))
    }

    /// The option names every round command takes besides its own.
    static let valued = BrokerCommandOptions.valued.union(["--timeout"])
    /// Their part of a usage line.
    static let usage = "\(BrokerCommandOptions.usage) [--timeout SECONDS] [--json]"
    /// What the commands' usage says about the round.
    static let explanation = """
          PATTERN is a device id or a shell glob over device ids (board-*); offline devices are not sent to.
          Waits --timeout s (default 5) for each device's answer, prints DEVICE RESULT ERROR (or --json);
          exit status: 0 all confirmed, 1 some did not (named), 2 none matches, 69 broker unreachable
        """
}
