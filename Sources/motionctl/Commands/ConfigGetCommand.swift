import Foundation
import MotionContract
import MotionFleet
import MQTT
import Synchronization

/// `motionctl config get DEVICE`: the retained `{base}/config` of one device as a table (or its JSON).
/// Exit status: 0 shown, 1 the device has no configuration report (unknown, or an agent before contract
/// 1.2), 69 the broker cannot be reached.
enum ConfigGetCommand {
    static let usage = """
        usage: motionctl config get DEVICE [--json] \(BrokerCommandOptions.usage)
          prints the run-time configuration DEVICE has in force (its retained {prefix}/DEVICE/config): every
          setting with its value and source (file or remote), the version (remote documents accepted) and hash
          --json   the report as the device published it
          exit status: 0 shown, 1 no report from DEVICE, 69 broker unreachable
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: BrokerCommandOptions.valued, switches: ["--json"], usage: usage)
        guard options.positional.count == 1, let deviceID = options.positional.first else { options.fail("config get needs DEVICE") }
        guard TopicLayout.isTopicLevel(deviceID) else { options.fail("DEVICE \(deviceID) must be one topic level, without wildcards") }
        let connection = BrokerCommandOptions(options)
        let topics = TopicLayout(prefix: connection.prefix, deviceID: deviceID)
        let token = String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
        let sync = CommandRound.synchronizationTopic(token: token, account: connection.username)
        let received = Mutex<(report: [UInt8]?, synced: Bool)>((nil, false))
        let client = connection.subscriber(
            to: [topics.configuration, sync], command: "config",
            onSubscribed: { client in
                // Comes back after the retained report the subscription above delivers.
                _ = try? client.publish(MQTTMessage(topic: sync, payload: [], qos: .atMostOnce))
            }
        ) { message in
            received.withLock { received in
                if message.topic == sync { received.synced = true } else if !message.payload.isEmpty { received.report = message.payload }
            }
        }
        guard BrokerCommandOptions.wait(until: Date().addingTimeInterval(5), for: { received.withLock { $0.synced } }) else {
            client.shutdown(timeout: .seconds(1))
            CommandOptions.exit("no answer from \(connection.broker) within 5 s", status: 69)
        }
        client.shutdown(timeout: .seconds(1))
        guard let payload = received.withLock({ $0.report }) else {
            CommandOptions.exit(
                "no configuration report on \(topics.configuration): no such device, or its agent is older than contract 1.2",
                status: 1)
        }
        let report: ConfigurationReport
        do {
            report = try ConfigurationReport(payload: payload)
        } catch {
            CommandOptions.exit("\(topics.configuration): unreadable report: \(error)", status: 1)
        }
        let output = options.flags.contains("--json") ? String(decoding: payload, as: UTF8.self) + "\n" : ConfigurationTable.render(report, deviceID: deviceID)
        FileHandle.standardOutput.write(Data(output.utf8))
        exit(0)
    }
}
