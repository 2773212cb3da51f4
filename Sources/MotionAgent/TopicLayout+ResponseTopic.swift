import MQTT
import MotionContract

extension TopicLayout {
    /// Why the agent will not publish an answer on `responseTopic` (an MQTT 5 command's response topic),
    /// or `nil` when it may. Answers go only outside the device subtrees of the prefix, so that a command
    /// cannot make a device write into its own topics (its status, say) or another device's (its `set`
    /// topic), and only to a topic name a client may publish to (non-empty, no wildcards, not `$…`).
    public func responseTopicProblem(_ responseTopic: String) -> String? {
        if responseTopic == prefix || responseTopic.hasPrefix(prefix + "/") {
            return "the response topic must lie outside \(prefix)/ (the devices' own topics)"
        }
        if responseTopic.hasPrefix("$") || !MQTTMessage.isValidTopicName(responseTopic) {
            return "the response topic is not a topic name this device may publish to"
        }
        return nil
    }
}
