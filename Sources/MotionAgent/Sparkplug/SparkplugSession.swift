import MQTT
import MotionContract

/// What the edge node sends: a Sparkplug topic, the payload, its QoS (every message but NDEATH QoS 0;
/// none retained).
struct SparkplugPublication: Sendable, Equatable {
    var topic: SparkplugTopic
    var payload: SparkplugPayload
    var qos: MQTTQoS = .atMostOnce

    /// The MQTT message.
    var message: MQTTMessage {
        MQTTMessage(topic: topic.name, payload: payload.encoded(), qos: qos, retain: false)
    }
}

/// The Sparkplug B 3.0 edge node's session as a pure value: the birth/death sequence number (`bdSeq`), the
/// message sequence number (`seq`), the births of the node and its devices, the primary host's state, the
/// commands, and the store that keeps device data while the node may not publish. The shell
/// (``SparkplugEdgeNode``) feeds it the connection's events and publishes what it returns.
///
/// Rules it keeps (Sparkplug 3.0, chapters 5 and 6):
/// - every connection has its own `bdSeq` (0…255, one more than the last connection's, across restarts
///   through the shell's file; the shell sets each connection's will): the NDEATH will carries it, and so
///   does every NBIRTH of that connection;
/// - `seq` is 0 in NBIRTH and one more (mod 256) in every later message of the node and its devices;
///   NDEATH has none;
/// - NBIRTH lists every node metric (with `bdSeq` and `Node Control/Rebirth`), then each device's DBIRTH
///   every metric of the device; data carry aliases; a metric new to a device births it again;
/// - with a primary host, births wait for its STATE `online`; a STATE older than the last one taken is
///   ignored; when it goes offline the node publishes NDEATH and ends the connection (the shell connects
///   again with the next `bdSeq`) and keeps device data meanwhile;
/// - kept data follow the births of their devices (the next session's, or a device's own when it comes
///   back), marked historical; the shell may keep them in a file across restarts (``journalStore(largestKey:restoring:)``).
struct SparkplugSession: Sendable {
    /// Where the node is.
    enum Phase: Sendable, Equatable {
        /// No connection.
        case disconnected
        /// Connected, waiting for the primary host's STATE `online`.
        case waitingForPrimaryHost
        /// Born: publishing.
        case online
    }

    /// What a STATE message leads to.
    enum HostStateOutcome: Sendable, Equatable {
        /// Nothing (not the primary host's, stale, or no change for the node).
        case none
        /// The host is online: the births and the kept data.
        case publish([SparkplugPublication])
        /// The host went offline: publish this NDEATH and end the connection.
        case disconnect(death: SparkplugPublication)
    }

    /// A command a host sent that the agent must carry out.
    enum Command: Sendable, Equatable {
        /// `Node Control/Rebirth` true: births again (the session has them ready, see ``rebirth(now:)``).
        case rebirth
        /// `Control/Running` of a device.
        case setRunning(device: String, Bool)
        /// `Control/Interval` of a device, s.
        case setInterval(device: String, Double)
    }

    /// The group, edge node and primary host IDs.
    let identity: SparkplugIdentity
    /// The most device metrics DDATA carries when forwarding the store.
    static let forwardChunk = 500

    /// The `bdSeq` of the connection under way (of the last one while disconnected).
    private(set) var birthDeathSequence: UInt64 = 0
    private var sequence: UInt64 = 0
    private(set) var phase = Phase.disconnected
    /// The primary host's latest STATE taken.
    private(set) var primaryHostState: SparkplugHostState?
    private var node = SparkplugMetricCatalogue()
    private var devices: [String: SparkplugMetricCatalogue] = [:]
    /// The devices in the order they were declared (births go in this order).
    private var deviceOrder: [String] = []
    private(set) var history: SparkplugHistory
    /// Commands refused since the start.
    private(set) var refusedCommands: UInt64 = 0
    private var nextAlias: UInt64 = 1

    /// A session.
    /// - Parameters:
    ///   - identity: the IDs.
    ///   - nodeMetrics: the node's metrics besides `bdSeq` and `Node Control/Rebirth`, named.
    ///   - storeLimit: the most device metrics kept while the node may not publish.
    init(identity: SparkplugIdentity, nodeMetrics: [SparkplugMetric], storeLimit: Int) {
        self.identity = identity
        history = SparkplugHistory(limit: storeLimit)
        node.record(SparkplugMetric(name: SparkplugMetricName.rebirth, value: .boolean(false)), nextAlias: &nextAlias, aliased: false)
        for metric in nodeMetrics { node.record(metric, nextAlias: &nextAlias) }
    }

    // MARK: - Connections

    /// The `bdSeq` of the connection after one that had `last` (nil: none known): one more, 255 wrapping
    /// to 0.
    static func birthDeathSequence(after last: UInt64?) -> UInt64 {
        last.map { ($0 + 1) % 256 } ?? 0
    }

    /// The NDEATH of `birthDeathSequence`: a connection's will, and what the node publishes before it
    /// ends a connection (QoS 1, `bdSeq` alone as Int64, no `seq`).
    func death(birthDeathSequence: UInt64, now: UInt64) -> SparkplugPublication {
        SparkplugPublication(
            topic: topic(.nodeDeath),
            payload: SparkplugPayload(
                timestamp: now,
                metrics: [SparkplugMetric(name: SparkplugMetricName.birthDeathSequence, value: .int64(Int64(birthDeathSequence)))]),
            qos: .atLeastOnce)
    }

    /// The NDEATH of the connection under way.
    func death(now: UInt64) -> SparkplugPublication {
        death(birthDeathSequence: birthDeathSequence, now: now)
    }

    /// The broker accepted a connection whose will carried `birthDeathSequence`: the births, unless a
    /// primary host must be online first.
    mutating func connected(birthDeathSequence: UInt64, now: UInt64) -> [SparkplugPublication] {
        self.birthDeathSequence = birthDeathSequence
        guard identity.primaryHost == nil else {
            // The host's retained STATE comes with the subscription: only a STATE of this connection counts.
            phase = .waitingForPrimaryHost
            return []
        }
        return births(now: now)
    }

    /// The connection ended: device data are kept until the next births.
    mutating func disconnected() {
        phase = .disconnected
    }

    /// A STATE message on `spBv1.0/STATE/{host_id}`.
    mutating func received(_ state: SparkplugHostState, from hostID: String, now: UInt64) -> HostStateOutcome {
        guard hostID == identity.primaryHost, phase != .disconnected else { return .none }
        if let last = primaryHostState, state.timestamp < last.timestamp { return .none }
        primaryHostState = state
        switch (state.online, phase) {
        case (true, .waitingForPrimaryHost): return .publish(births(now: now))
        case (false, .online):
            phase = .disconnected
            return .disconnect(death: death(now: now))
        default: return .none
        }
    }

    /// NBIRTH and every DBIRTH again (`Node Control/Rebirth`), with the same `bdSeq`; nothing while not born.
    mutating func rebirth(now: UInt64) -> [SparkplugPublication] {
        guard phase == .online else { return [] }
        return births(now: now)
    }

    private mutating func births(now: UInt64) -> [SparkplugPublication] {
        phase = .online
        sequence = 0
        var nodeMetrics = [SparkplugMetric(name: SparkplugMetricName.birthDeathSequence, timestamp: now, value: .int64(Int64(birthDeathSequence)))]
        nodeMetrics += node.birthMetrics(timestamp: now)
        var publications = [publication(.nodeBirth, device: nil, metrics: nodeMetrics, now: now)]
        for device in deviceOrder {
            publications.append(deviceBirth(device, now: now))
        }
        let declared = devices
        return publications + forwardHistory(of: { declared[$0] != nil }, now: now)
    }

    /// DDATA of the kept metrics of the devices `forwarded` accepts (declared ones), historical.
    private mutating func forwardHistory(of forwarded: (String) -> Bool, now: UInt64) -> [SparkplugPublication] {
        history.drain(chunk: Self.forwardChunk, where: forwarded).map { run in
            publication(.deviceData, device: run.device, metrics: run.metrics.map(devices[run.device]!.dataMetric), now: now)
        }
    }

    private mutating func deviceBirth(_ device: String, now: UInt64) -> SparkplugPublication {
        publication(.deviceBirth, device: device, metrics: devices[device]?.birthMetrics(timestamp: now) ?? [], now: now)
    }

    private mutating func publication(
        _ type: SparkplugMessageType, device: String?, metrics: [SparkplugMetric], now: UInt64
    ) -> SparkplugPublication {
        defer { sequence = (sequence + 1) % 256 }
        return SparkplugPublication(
            topic: topic(type, device: device), payload: SparkplugPayload(timestamp: now, metrics: metrics, seq: sequence))
    }

    private func topic(_ type: SparkplugMessageType, device: String? = nil) -> SparkplugTopic {
        .message(type, group: identity.group, edgeNode: identity.edgeNode, device: device)
    }

    // MARK: - Metrics

    /// Declares a device (or declares it again: its metrics are recorded) with its named metrics; born
    /// at once when the node is, and followed by what the store kept of it (from before it went away, or
    /// from an earlier run).
    mutating func declareDevice(_ device: String, metrics: [SparkplugMetric], now: UInt64) -> [SparkplugPublication] {
        if devices[device] == nil {
            devices[device] = SparkplugMetricCatalogue()
            deviceOrder.append(device)
        }
        for metric in metrics { devices[device]!.record(metric, nextAlias: &nextAlias) }
        guard phase == .online else { return [] }
        return [deviceBirth(device, now: now)] + forwardHistory(of: { $0 == device }, now: now)
    }

    /// Whether `device` is declared.
    func hasDevice(_ device: String) -> Bool {
        devices[device] != nil
    }

    /// Forgets a device: DDEATH when the node is born.
    mutating func removeDevice(_ device: String, now: UInt64) -> [SparkplugPublication] {
        guard devices.removeValue(forKey: device) != nil else { return [] }
        deviceOrder.removeAll { $0 == device }
        return phase == .online ? [publication(.deviceDeath, device: device, metrics: [], now: now)] : []
    }

    /// New values of a declared device's metrics (named): DDATA when born (after a DBIRTH if a metric is new
    /// to the device); kept for later when not.
    mutating func update(_ device: String, _ metrics: [SparkplugMetric], now: UInt64) -> [SparkplugPublication] {
        guard devices[device] != nil, !metrics.isEmpty else { return [] }
        var reshaped = false
        for metric in metrics where devices[device]!.record(metric, nextAlias: &nextAlias) { reshaped = true }
        guard phase == .online else {
            history.append(metrics, of: device)
            return []
        }
        var publications = reshaped ? [deviceBirth(device, now: now)] : []
        publications.append(publication(.deviceData, device: device, metrics: metrics.map(devices[device]!.dataMetric), now: now))
        return publications
    }

    /// A publication the shell could not send (the connection dropped): a device's data go back to the
    /// store, named again, to follow the next births as historical; anything else is made anew then.
    mutating func keep(_ publication: SparkplugPublication) {
        guard case .message(.deviceData, _, _, let device?) = publication.topic, let catalogue = devices[device] else { return }
        let named = publication.payload.metrics.compactMap { metric -> SparkplugMetric? in
            guard let entry = catalogue.entry(named: metric.name, alias: metric.alias) else { return nil }
            var named = metric
            named.name = entry.name
            named.alias = nil
            return named
        }
        history.append(named, of: device)
    }

    // MARK: - The store's file

    /// Keeps the store in a file whose keys go up to `largestKey` (every change from now on is listed for
    /// ``takeStoreChanges()``), and takes back the batches it kept from an earlier run, oldest first; the
    /// limit applies to them as to new ones.
    mutating func journalStore(largestKey: Int64, restoring batches: [SparkplugHistory.Batch]) {
        history.startJournal(largestKey: largestKey)
        batches.forEach { history.restore($0) }
    }

    /// The store's changes for its file since the last call (none unless journaled).
    mutating func takeStoreChanges() -> [SparkplugHistory.Change] {
        history.takeChanges()
    }

    /// New values of node metrics (named): NDATA of those that changed, when born.
    mutating func updateNode(_ metrics: [SparkplugMetric], now: UInt64) -> [SparkplugPublication] {
        let changed = metrics.filter { metric in metric.name.map { node.value(of: $0) != metric.value } ?? false }
        var reshaped = false
        for metric in changed where node.record(metric, nextAlias: &nextAlias) { reshaped = true }
        guard phase == .online, !changed.isEmpty else { return [] }
        if reshaped { return births(now: now) }
        return [publication(.nodeData, device: nil, metrics: changed.map(node.dataMetric), now: now)]
    }

    /// The latest value of a device's metric (nil when unknown or null).
    func value(of name: String, device: String) -> SparkplugValue? {
        devices[device]?.value(of: name)
    }

    // MARK: - Commands

    /// Reads an NCMD or DCMD: the commands to carry out and the refusals (one line each, counted in
    /// ``refusedCommands``). A metric is found by name or alias; `Node Control/Rebirth` must be Boolean true,
    /// `Control/Running` Boolean, `Control/Interval` a number.
    mutating func commands(in payload: SparkplugPayload, device: String?) -> (commands: [Command], refusals: [String]) {
        var commands: [Command] = []
        var refusals: [String] = []
        let target = device.map { "DCMD for \($0)" } ?? "NCMD"
        guard let catalogue = device.map({ devices[$0] }) ?? node else {
            refusedCommands += 1
            return ([], ["\(target): no such device"])
        }
        for metric in payload.metrics {
            let entry = catalogue.entry(named: metric.name, alias: metric.alias)
            let name = entry?.name ?? metric.name ?? metric.alias.map { "alias \($0)" } ?? "a metric without name or alias"
            switch (device, entry?.name, metric.value) {
            case (nil, SparkplugMetricName.rebirth, .boolean(true)): commands.append(.rebirth)
            case (nil, SparkplugMetricName.rebirth, .boolean(false)): break
            case (let device?, SparkplugMetricName.running, .boolean(let running)): commands.append(.setRunning(device: device, running))
            case (let device?, SparkplugMetricName.interval, let value?) where value.number != nil:
                commands.append(.setInterval(device: device, value.number!))
            case (_, nil, _): refusals.append("\(target): unknown metric \(ContractText.sanitized(name))")
            case (_, SparkplugMetricName.rebirth, _), (_, SparkplugMetricName.running, _):
                refusals.append("\(target): \(name) takes a Boolean")
            case (_, SparkplugMetricName.interval, _): refusals.append("\(target): \(name) takes a number of seconds")
            default: refusals.append("\(target): \(ContractText.sanitized(name)) is not writable")
            }
        }
        refusedCommands += UInt64(refusals.count)
        return (commands, refusals)
    }

    /// Counts a command refused after it was read (the agent could not carry it out).
    mutating func countRefusal() {
        refusedCommands += 1
    }
}

/// The IDs of an edge node: its group, its own, and the primary host it waits for (nil: none).
struct SparkplugIdentity: Sendable, Equatable {
    var group: String
    var edgeNode: String
    var primaryHost: String?
}
