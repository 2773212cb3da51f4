import MotionContract

/// What a fleet tool knows about the devices under a topic prefix, from the messages it receives: the
/// retained availability, `info`, service statuses and last health report of each device, and the live
/// data it heard while listening. A pure value: messages and times go in, ``DeviceSummary`` values come
/// out; the MQTT connection and the clock belong to the caller.
///
/// A device is **stale** when its retained status says `online` but it has been silent (no data message,
/// no health report) for more than ``staleIntervals`` of its health interval (contract 1.1). Without
/// health reports (older agents, `health_interval` 0) staleness cannot be judged and such a device is
/// listed by its retained status.
///
/// Agents that speak Sparkplug B (alone or beside the contract) are known from their births, data and
/// deaths on `spBv1.0/…` too (``SparkplugNodeRecord``), under their edge node ID: the device ID unless
/// configured otherwise, so an agent speaking both is one device. Nodes that are not MotionBridge agents
/// are left out.
public struct FleetLedger: Sendable {
    /// The first topic level of the devices (`motion`).
    public let prefix: String
    /// Silence longer than this many health intervals makes an `online` device stale: 3.
    public static let staleIntervals = 3.0

    private var devices: [String: DeviceRecord] = [:]
    /// MotionBridge agents heard on Sparkplug B, by edge node ID.
    private var sparkplugNodes: [String: SparkplugNodeRecord] = [:]

    private struct DeviceRecord: Sendable {
        var availability: String?
        var info: InfoPayload?
        var health: HealthPayload?
        var healthArrival: Double?
        var statuses: [MotionService: ServiceStatus] = [:]
        var data: [MotionService: DataRecord] = [:]
        var lastLiveData: Double?
    }

    private struct DataRecord: Sendable {
        var messages = 0
        var sequence = SequenceGapCounter()
    }

    /// An empty ledger for the devices under `prefix`.
    public init(prefix: String) {
        self.prefix = prefix
    }

    /// Takes in one message. Payloads that do not decode are ignored (the previous value stays).
    /// - Parameters:
    ///   - topic: where it arrived.
    ///   - payload: its payload.
    ///   - retained: whether the broker delivered it as retained (an old message, not a sign of life).
    ///   - arrival: when it arrived, Unix time, s.
    public mutating func receive(topic: String, payload: [UInt8], retained: Bool, arrival: Double) {
        if case .message(let type, let group, let edgeNode, let device)? = SparkplugTopic(topic) {
            guard !retained else { return }  // Sparkplug retains nothing of a node's; an old message says nothing
            sparkplugNodes[edgeNode, default: SparkplugNodeRecord(group: group)]
                .receive(type, device: device, payload: payload, arrival: arrival)
            return
        }
        guard let deviceID = TopicLayout.deviceID(inTopic: topic, prefix: prefix),
            let kind = TopicLayout(prefix: prefix, deviceID: deviceID).kind(ofTopic: topic)
        else { return }
        var device = devices[deviceID] ?? DeviceRecord()
        switch kind {
        case .availability:
            guard !payload.isEmpty else { device.availability = nil; break }  // a cleared retained status
            device.availability = String(decoding: payload, as: UTF8.self)
        case .info:
            if let info = try? InfoPayload(payload: payload) { device.info = info }
        case .health:
            if payload.isEmpty {
                device.health = nil  // reports switched off
                device.healthArrival = nil
            } else if let health = try? HealthPayload(payload: payload) {
                device.health = health
                device.healthArrival = retained ? nil : arrival
            }
        case .status(let service):
            if let status = try? ServiceStatus(payload: payload) { device.statuses[service] = status }
        case .data(let service):
            guard !retained else { break }
            var record = device.data[service] ?? DataRecord()
            record.messages += 1
            if let sequence = try? SamplePayloadDecoder.sequence(payload) { record.sequence.record(sequence) }
            device.data[service] = record
            device.lastLiveData = arrival
        case .vibrationSpectrum:
            if !retained { device.lastLiveData = arrival }  // a sign of life, not a data topic with its own rate
        case .error, .control, .configuration, .configurationControl, .events, .state:
            break
        }
        devices[deviceID] = device
    }

    /// The devices matching `pattern`, sorted by identifier.
    /// - Parameters:
    ///   - pattern: which devices.
    ///   - now: the current time, Unix time, s.
    ///   - listened: how long the caller has been receiving, s (for the measured rates; 0: none measured).
    public func summaries(matching pattern: DevicePattern = .all, now: Double, listened: Double) -> [DeviceSummary] {
        let agents = sparkplugNodes.filter(\.value.isMotionBridge).keys
        return Set(devices.keys).union(agents).sorted().filter(pattern.matches).map { deviceID in
            let node = sparkplugNodes[deviceID].flatMap { $0.isMotionBridge ? $0 : nil }
            guard let device = devices[deviceID] else { return Self.summary(of: deviceID, node: node!, listened: listened) }
            var summary = summary(of: deviceID, device, now: now, listened: listened)
            summary.sparkplug = node.map { "\($0.group)/\(deviceID)" }
            return summary
        }
    }

    /// The MotionBridge agents heard on Sparkplug B without their birth (motionctl started listening after
    /// it): `(group, edge node)`, for asking them to be born again (`Node Control/Rebirth`).
    public var sparkplugNodesWithoutBirth: [(group: String, edgeNode: String)] {
        sparkplugNodes.filter { $0.value.isMotionBridge && $0.value.birthDeathSequence == nil && !$0.value.dead }
            .map { (group: $0.value.group, edgeNode: $0.key) }.sorted { $0.edgeNode < $1.edgeNode }
    }

    /// A device heard only on Sparkplug B: online from its birth or data until its death.
    private static func summary(of deviceID: String, node: SparkplugNodeRecord, listened: Double) -> DeviceSummary {
        let services = MotionService.allCases.compactMap { service -> DeviceSummary.Service? in
            guard let device = node.devices[service.topicName] else { return nil }
            return DeviceSummary.Service(
                service: service, status: device.status, measuredRate: listened > 0 ? Double(device.dataMessages) / listened : nil, lost: 0)
        }
        var summary = DeviceSummary(
            deviceID: deviceID, state: node.dead ? .offline : .online, started: nil, lastSeen: node.lastHeard, healthInterval: nil,
            agentVersion: node.version, contractVersion: nil, imu: node.imu, sampleRateHz: nil, services: services, health: nil)
        summary.sparkplug = "\(node.group)/\(deviceID)"
        return summary
    }

    private func summary(of deviceID: String, _ device: DeviceRecord, now: Double, listened: Double) -> DeviceSummary {
        // The health report's own time when it has one (it may have been retained for a while), else
        // when it arrived.
        let healthSeen = device.health?.ts ?? device.healthArrival
        let lastSeen = [healthSeen, device.lastLiveData].compactMap { $0 }.max()
        let interval = device.health?.interval.flatMap { $0 > 0 ? $0 : nil }
        let state: DeviceSummary.State
        switch device.availability {
        case "online":
            if let interval, (lastSeen.map { now - $0 } ?? .infinity) > Self.staleIntervals * interval {
                state = .stale
            } else {
                state = .online
            }
        case "offline":
            state = .offline
        default:
            state = .unknown
        }
        // The sensor services always; the others (since contract 1.5) when the device has them.
        let known = MotionService.allCases.filter {
            MotionService.sensorServices.contains($0) || device.statuses[$0] != nil || device.data[$0] != nil
        }
        let services = known.map { service in
            let data = device.data[service]
            return DeviceSummary.Service(
                service: service, status: device.statuses[service],
                measuredRate: listened > 0 ? Double(data?.messages ?? 0) / listened : nil, lost: data?.sequence.lost ?? 0)
        }
        let health = device.health.map { report in
            DeviceSummary.Health(
                faults: report.device.faults, fault: report.device.fault, reconnects: report.mqtt.reconnects,
                queueDepth: report.mqtt.queueDepth,
                dropped: report.mqtt.droppedFromBuffer + report.mqtt.droppedWhileDisconnected + report.mqtt.expiredInBuffer,
                uptime: report.uptime)
        }
        return DeviceSummary(
            deviceID: deviceID, state: state, started: device.info?.started, lastSeen: lastSeen, healthInterval: interval,
            agentVersion: device.info?.version, contractVersion: device.info?.contract, imu: device.info.map { $0.device.chip ?? $0.device.specification },
            sampleRateHz: device.info?.device.sampleRateHz, services: services, health: health)
    }
}
