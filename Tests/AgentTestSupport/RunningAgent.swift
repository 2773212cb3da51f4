import MotionContract
import Foundation
import MQTT
import MotionTestSupport

import MotionAgent

/// A real mosquitto on a free loopback port, the real `motion-agent` publishing to it, and a real
/// subscriber to everything under the agent's base topic.
public struct RunningAgent {
    public let broker: MosquittoBroker
    public let agent: AgentProcess
    public let topics: TopicLayout
    public let subscriber: RecordingSubscriber
    public let configurationURL: URL

    /// The device identifier (the last level of the base topic).
    public var deviceID: String { String(topics.base.split(separator: "/").last!) }

    /// Starts a broker and an agent with the configuration document `configuration` (JSON; its
    /// `device_id` and the broker URL are set here), after `prepare` ran with the subscriber connected.
    /// `agentBrokerURL` points the agent elsewhere (a proxy), `environment` is added to the agent's,
    /// `makeSubscriber` replaces the default subscriber to `{base}/#`.
    public static func start(
        configuration: String = "{}",
        device: String = "sim",
        brokerOptions: MosquittoBroker.Options = MosquittoBroker.Options(),
        agentBrokerURL: ((MosquittoBroker) throws -> String)? = nil,
        environment: [String: String] = [:],
        subscriber makeSubscriber: ((MosquittoBroker, TopicLayout) throws -> RecordingSubscriber)? = nil,
        beforeTheAgentStarts prepare: (RecordingSubscriber, TopicLayout) throws -> Void = { _, _ in }
    ) throws -> RunningAgent {
        let broker = try MosquittoBroker(options: brokerOptions)
        let deviceID = "it-\(UUID().uuidString.prefix(8).lowercased())"
        let configurationURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(deviceID).json")
        try Data(configuration.utf8).write(to: configurationURL)
        let topics = TopicLayout(prefix: "motion", deviceID: deviceID)
        let subscriber = try makeSubscriber?(broker, topics)
            ?? RecordingSubscriber(broker: broker.address, topicFilters: ["\(topics.base)/#"])
        try prepare(subscriber, topics)
        let agent = try AgentProcess(
            arguments: [
                "--config", configurationURL.path, "--broker", try agentBrokerURL?(broker) ?? broker.url,
                "--id", deviceID, "--device", device,
            ],
            environment: environment)
        return RunningAgent(broker: broker, agent: agent, topics: topics, subscriber: subscriber, configurationURL: configurationURL)
    }

    /// Removes the configuration file.
    public func cleanUp() {
        try? FileManager.default.removeItem(at: configurationURL)
    }

    /// The payloads of `topic` decoded as JSON objects.
    public func objects(on topic: String) -> [[String: Any]] {
        subscriber.messages(on: topic).compactMap(Self.object)
    }

    /// Publishes a command, not retained unless asked.
    public func send(_ command: String, to service: MotionService, retain: Bool = false) throws {
        try subscriber.client.publish(MQTTMessage(topic: topics.control(service), string: command, qos: .atLeastOnce, retain: retain))
    }

    /// A payload decoded as a JSON object.
    public static func object(_ message: MQTTMessage) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(message.payload))) as? [String: Any]
    }

    /// A number field of a JSON object.
    public static func number(_ object: [String: Any]?, _ key: String) -> Double? {
        (object?[key] as? NSNumber)?.doubleValue
    }

    /// Whether a service status message says available.
    public static func isAvailable(_ message: MQTTMessage) -> Bool {
        (object(message)?["available"] as? NSNumber)?.boolValue == true
    }
}
