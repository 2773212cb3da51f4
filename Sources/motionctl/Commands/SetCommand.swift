import Foundation
import MQTT
import MotionContract

/// `motionctl set`: sends one control command to one device's service.
enum SetCommand {
    static let usage = """
        usage: motionctl set DEVICE_ID SERVICE COMMAND \(BrokerCommandOptions.usage)
          publishes COMMAND (start, stop, or JSON such as {"interval":0.1}) to {prefix}/{id}/{service}/set
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: BrokerCommandOptions.valued, usage: usage)
        let connection = BrokerCommandOptions(options)
        let positional = options.positional
        guard positional.count == 3 else { options.fail("set needs DEVICE_ID SERVICE COMMAND") }
        guard let service = MotionService(topicName: positional[1]) else {
            options.fail("unknown service \(positional[1]) (one of \(MotionService.allCases.map(\.topicName).joined(separator: ", ")))")
        }
        let topic = TopicLayout(prefix: connection.prefix, deviceID: positional[0]).control(service)
        do {
            let client = try MQTTClient(
                configuration: MQTTClientConfiguration(
                    broker: connection.broker, clientID: "motionctl-set-\(ProcessInfo.processInfo.processIdentifier)")
            ) { _ in }
            try client.start()
            guard client.waitUntilConnected(timeout: .seconds(5)) else {
                CommandOptions.exit("cannot connect to \(connection.broker)", status: 69)
            }
            let messageID = try client.publish(MQTTMessage(topic: topic, string: positional[2], qos: .atLeastOnce, retain: false))
            _ = client.waitUntilPublished(messageID: messageID, timeout: .seconds(5))
            client.shutdown(timeout: .seconds(1))
            print("sent \(positional[2]) to \(topic)")
            exit(0)
        } catch {
            CommandOptions.exit("\(error)", status: 69)
        }
    }
}
