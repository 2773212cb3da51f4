/// A Sparkplug B topic (Sparkplug 3.0, chapter 4): `spBv1.0/{group_id}/{message_type}/{edge_node_id}` for
/// the edge node's messages, `…/{device_id}` after it for a device's, and `spBv1.0/STATE/{host_id}` for a
/// host application's state.
public enum SparkplugTopic: Sendable, Equatable {
    /// An edge node's or device's message.
    case message(SparkplugMessageType, group: String, edgeNode: String, device: String?)
    /// A host application's retained state (JSON, see ``SparkplugHostState``).
    case state(hostID: String)

    /// The namespace, the first topic level of every Sparkplug B topic.
    public static let namespace = "spBv1.0"
    /// The second level of the host applications' STATE topics (so no group may be named so).
    public static let stateLevel = "STATE"

    /// The topic name.
    public var name: String {
        switch self {
        case .message(let type, let group, let edgeNode, let device):
            let node = "\(Self.namespace)/\(group)/\(type.rawValue)/\(edgeNode)"
            return device.map { "\(node)/\($0)" } ?? node
        case .state(let hostID):
            return "\(Self.namespace)/\(Self.stateLevel)/\(hostID)"
        }
    }

    /// Reads a topic name; nil when it is not a Sparkplug B topic (another namespace, an unknown message
    /// type, a node message with a device level, a device message without one, or an empty identifier).
    public init?(_ name: String) {
        let levels = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard levels.first == Self.namespace, levels.count >= 3, !levels.contains(where: \.isEmpty) else { return nil }
        if levels[1] == Self.stateLevel {
            guard levels.count == 3 else { return nil }
            self = .state(hostID: levels[2])
            return
        }
        guard levels.count == 4 || levels.count == 5, let type = SparkplugMessageType(rawValue: levels[2]),
            type.isDeviceMessage == (levels.count == 5)
        else { return nil }
        self = .message(type, group: levels[1], edgeNode: levels[3], device: levels.count == 5 ? levels[4] : nil)
    }

    /// Why `identifier` cannot be a group, edge node, device or host ID (Sparkplug 3.0, section 4.1.1: UTF-8,
    /// none of `/`, `+`, `#`), or nil when it can.
    public static func identifierProblem(_ identifier: String) -> String? {
        if identifier.isEmpty { return "must not be empty" }
        if identifier.contains(where: { "/+#".contains($0) }) { return "must not contain /, + or #" }
        if identifier.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "must not contain control characters"
        }
        return nil
    }
}

/// The message types of Sparkplug B's topic namespace (Sparkplug 3.0, section 4.1.2).
public enum SparkplugMessageType: String, Sendable, CaseIterable {
    /// The edge node's birth: every node metric, `bdSeq`, `seq` 0.
    case nodeBirth = "NBIRTH"
    /// The edge node's death: its last will (and published before a clean disconnect), `bdSeq` alone.
    case nodeDeath = "NDEATH"
    /// Changed node metrics.
    case nodeData = "NDATA"
    /// A command to the edge node (`Node Control/Rebirth`, …).
    case nodeCommand = "NCMD"
    /// A device's birth: every metric of the device.
    case deviceBirth = "DBIRTH"
    /// A device's death.
    case deviceDeath = "DDEATH"
    /// Changed device metrics.
    case deviceData = "DDATA"
    /// A command to a device (writes to its metrics).
    case deviceCommand = "DCMD"

    /// Whether the topic has a device level.
    public var isDeviceMessage: Bool {
        switch self {
        case .deviceBirth, .deviceDeath, .deviceData, .deviceCommand: true
        default: false
        }
    }
}
