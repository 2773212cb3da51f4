import MotionContract

/// What a fleet tool learns about one MotionBridge agent from its Sparkplug B messages (docs/MQTT-CONTRACT.md,
/// "Sparkplug B 3.0"): its births (the version, device ID and IMU of NBIRTH; each service's control and
/// status metrics of its DBIRTH, with their aliases), its data (by alias) and its deaths. A pure value,
/// kept by ``FleetLedger``.
///
/// Sparkplug retains nothing: a node is known from what is heard while listening. A death counts when its
/// `bdSeq` is the last birth's (or no birth was heard): a late will of an earlier connection does not make
/// a node that was born again offline.
struct SparkplugNodeRecord: Sendable {
    /// One device of the node: a service of the agent.
    struct Device: Sendable {
        var aliases: [UInt64: String] = [:]
        var running: Bool?
        var interval: Double?
        var available: Bool?
        var reason: String?
        /// DDEATH heard after the last DBIRTH.
        var dead = false
        /// DDATA messages carrying samples, heard while listening.
        var dataMessages = 0

        /// The service's status as the native contract words it, from the control and status metrics.
        var status: ServiceStatus? {
            guard running != nil || available != nil else { return nil }
            let reason = dead ? "the device is dead (DDEATH)" : reason.flatMap { $0.isEmpty ? nil : $0 }
            return ServiceStatus(
                available: (available ?? true) && !dead, active: (running ?? false) && !dead, interval: interval ?? 0, error: reason)
        }
    }

    /// The Sparkplug group.
    var group: String
    /// The `bdSeq` of the last NBIRTH heard.
    var birthDeathSequence: Int64?
    /// Whether the node's last word was its death.
    var dead = false
    /// When it was last heard from (any message but its death), Unix time, s.
    var lastHeard: Double?
    /// Whether its messages are a MotionBridge agent's: its NBIRTH carries the agent's device ID, or a
    /// device is named after one of the agent's services.
    var isMotionBridge = false
    var version: String?
    var deviceID: String?
    var imu: String?
    var devices: [String: Device] = [:]

    init(group: String) {
        self.group = group
    }

    /// Takes one of the node's messages. A payload that does not decode is ignored.
    mutating func receive(_ type: SparkplugMessageType, device: String?, payload bytes: [UInt8], arrival: Double) {
        guard let payload = try? SparkplugPayload(decoding: bytes) else { return }
        if type != .nodeDeath { lastHeard = arrival }
        switch (type, device) {
        case (.nodeBirth, nil):
            birthDeathSequence = payload.metric(named: SparkplugMetricName.birthDeathSequence)?.value?.integer
            dead = false
            version = payload.metric(named: SparkplugMetricName.version)?.value?.text
            deviceID = payload.metric(named: SparkplugMetricName.deviceID)?.value?.text
            imu = payload.metric(named: SparkplugMetricName.imu)?.value?.text
            if deviceID != nil { isMotionBridge = true }
        case (.nodeDeath, nil):
            let sequence = payload.metric(named: SparkplugMetricName.birthDeathSequence)?.value?.integer
            if birthDeathSequence == nil || sequence == birthDeathSequence { dead = true }
        case (.deviceBirth, let name?):
            var record = Device()
            record.dataMessages = devices[name]?.dataMessages ?? 0  // counted while listening, across births
            for metric in payload.metrics {
                if let alias = metric.alias, let metricName = metric.name { record.aliases[alias] = metricName }
            }
            record.take(payload.metrics)
            devices[name] = record
            dead = false
            if MotionService(topicName: name) != nil { isMotionBridge = true }
        case (.deviceData, let name?):
            var record = devices[name] ?? Device()
            let named = payload.metrics.map { metric in
                var named = metric
                if named.name == nil, let alias = metric.alias { named.name = record.aliases[alias] }
                return named
            }
            record.take(named)
            // Samples, unless every metric is a known control or status one (an alias not yet born counts as a sample).
            if named.contains(where: { $0.name.map { !Device.isControlOrStatus($0) } ?? true }) { record.dataMessages += 1 }
            devices[name] = record
            dead = false
            if MotionService(topicName: name) != nil { isMotionBridge = true }
        case (.deviceDeath, let name?):
            devices[name, default: Device()].dead = true
        default:
            break
        }
    }
}

extension SparkplugNodeRecord.Device {
    static func isControlOrStatus(_ name: String) -> Bool {
        [SparkplugMetricName.running, SparkplugMetricName.interval, SparkplugMetricName.available, SparkplugMetricName.unavailableReason]
            .contains(name)
    }

    /// Takes the control and status metrics among `metrics` (named).
    fileprivate mutating func take(_ metrics: [SparkplugMetric]) {
        for metric in metrics {
            switch (metric.name, metric.value) {
            case (SparkplugMetricName.running, .boolean(let value)?): running = value
            case (SparkplugMetricName.interval, let value?): interval = value.number ?? interval
            case (SparkplugMetricName.available, .boolean(let value)?): available = value
            case (SparkplugMetricName.unavailableReason, let value?): reason = value.text
            default: break
            }
        }
        dead = false
    }
}
