import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionHAL
import MotionLog
import MotionSupervision
import Synchronization

/// The Sparkplug B 3.0 edge node, a part of the agent: a broker connection of its own (MQTT 3.1.1, clean
/// session, NDEATH as its will) on which the board is edge node `{edge_node_id}` and each service a device;
/// the protocol's state is a ``SparkplugSession``, whose publications this part sends.
///
/// Threading: one serial queue owns the session and makes every publication, so `seq` goes out in order;
/// the network thread only hands events to it (and sets the next connection's will); samples come from the
/// device's thread as metrics and are handed over too; commands run on the agent's control queue.
final class SparkplugEdgeNode: Sendable {
    let settings: SparkplugSettings
    let core: AgentCore
    let clock: ClockSupervisor
    private let makeTransport: MessageTransportFactory
    /// The agent's bound on commands waiting (shared with the native contract's).
    let intake: CommandIntake
    private let stateFile: SparkplugStateFile
    /// Owns the session; every publication is made here, in order.
    let queue = DispatchQueue(label: "motion-agent.sparkplug")
    /// Touched through ``withSession(_:)`` alone, which mirrors the store's changes to its file.
    private let session: Mutex<SparkplugSession>
    /// The store's file (`sparkplug.store_file`); nil: the store lives in memory.
    private let store: SparkplugStore?
    private let identity: SparkplugIdentity

    private struct Connection {
        var client: (any MessageTransport)?
        /// Counts the clients made, so that a replaced client's late events are ignored.
        var generation = 0
        /// The `bdSeq` the will of the next connection attempt carries.
        var willSequence: UInt64 = 0
        var timer: ScheduledWork?
        var stopped = false
        /// Whether the queue has taken this connection's CONNACK (and sent its births, or waits for the
        /// primary host): cleared by the network thread the moment the connection drops. Nothing is
        /// published while it is clear, so data made before a drop cannot reach a quick reconnection ahead
        /// of its NBIRTH.
        var acknowledged = false
        /// Which of the brokers the next connection tries first: one further after the primary host went
        /// offline (Sparkplug 3.0: the edge node moves to the next MQTT server).
        var brokerOffset = 0
    }
    private let connection = Mutex(Connection())
    /// Carries out a device's command on the control queue: nil when done, else why it was refused.
    let commandHandler = Mutex<(@Sendable (MotionService, ControlCommand) -> String?)?>(nil)

    /// The services that are Sparkplug devices: the sample services (the vibration service's summaries and
    /// spectra are the native contract's alone).
    static let services = MotionService.allCases.filter { $0 != .vibration }

    /// How often changed node metrics (the clock's state, the counters) are published, s.
    static let nodeMetricsInterval = 5.0

    init(
        settings: SparkplugSettings, core: AgentCore, clock: ClockSupervisor, intake: CommandIntake, transport: @escaping MessageTransportFactory
    ) {
        self.settings = settings
        self.intake = intake
        self.core = core
        self.clock = clock
        self.makeTransport = transport
        stateFile = SparkplugStateFile(path: settings.stateFile)
        let identity = settings.identity(deviceID: core.configuration.resolvedDeviceID)
        self.identity = identity
        session = Mutex(SparkplugSession(identity: identity, nodeMetrics: [], storeLimit: settings.storeLimit))
        store = settings.storeFile.flatMap { path in
            settings.storeLimit > 0 ? SparkplugStore(path: path, identity: identity, limit: settings.storeLimit) : nil
        }
    }

    /// Runs `body` on the session under its lock, then hands the store's changes to its file (in order:
    /// still under the lock).
    func withSession<Result>(_ body: (inout SparkplugSession) -> Result) -> Result {
        session.withLock { session in
            let result = body(&session)
            if let store { store.apply(session.takeStoreChanges()) }
            return result
        }
    }

    /// Who carries out `Control/Running` and `Control/Interval` writes (the control plane).
    func setCommandHandler(_ handler: @escaping @Sendable (MotionService, ControlCommand) -> String?) {
        commandHandler.withLock { $0 = handler }
    }

    /// The node's client now (nil before the start, after the shutdown and while it connects again), for
    /// the service manager's status line when the native contract is off.
    var currentClient: (any MessageTransport)? {
        connection.withLock { $0.client }
    }

    /// Now, ms since the Unix epoch, through the agent's wall-clock anchor.
    var now: UInt64 {
        SamplePayloadEncoder.sparkplugTimestamp(unixTime: core.wallClock.unixTime(of: Double(MonotonicClock.now()) / 1e9))
    }

    // MARK: - Lifetime

    /// Declares the devices with their statuses, reads the last `bdSeq` and connects (in the background).
    /// - Parameter statuses: each service's status now.
    /// - Throws: ``ConfigurationError`` or the client's error when the connection cannot be made.
    func start(statuses: [MotionService: ServiceStatus]) throws {
        let (last, problem) = stateFile.read()
        if let problem { Logger.agent.warning("sparkplug: \(problem); bdSeq starts at 0") }
        let first = last == nil ? 0 : SparkplugSession.birthDeathSequence(after: last)
        let now = self.now
        let recovered = openStore()
        withSession { session in
            if let store { session.journalStore(largestKey: store.largestKey, restoring: recovered) }
            _ = session.updateNode(nodeMetrics(refused: 0, dropped: 0, now: now), now: now)
            for service in Self.services where core.isAvailable(service) {
                _ = session.declareDevice(service.topicName, metrics: Self.deviceMetrics(service, statuses[service], now: now), now: now)
            }
            let detectors = core.configuration.detectors
            if DetectorSettings.Detector.allCases.contains(where: detectors.isOn) {
                _ = session.declareDevice(SparkplugDetectorMetrics.device, metrics: Self.detectorDeclarations(now: now), now: now)
            }
        }
        connection.withLock { $0.willSequence = first }
        try connect()
        let timer = DispatchSupervisionClock().scheduleRepeating(on: queue, every: Self.nodeMetricsInterval) { [weak self] in
            self?.publishNodeMetrics()
        }
        connection.withLock { $0.timer = timer }
        Logger.agent.notice(
            "sparkplug: edge node \(identity.group)/\(identity.edgeNode)"
                + (identity.primaryHost.map { ", waiting for primary host \($0)" } ?? "") + ", first bdSeq \(first)")
    }

    /// The batches the store's file kept from the last run (said in the log), and its problems from now on
    /// in the log.
    private func openStore() -> [SparkplugHistory.Batch] {
        guard let store, let path = settings.storeFile else { return [] }
        store.startReporting { Logger.agent.warning("sparkplug: store: \($0)") }
        let (batches, unreadable) = store.recovered()
        if unreadable > 0 { Logger.agent.warning("sparkplug: store \(path): \(unreadable) rows were not this node's data and are deleted") }
        let metrics = batches.reduce(0) { $0 + $1.metrics.count }
        if metrics > 0 { Logger.agent.notice("sparkplug: store \(path): \(metrics) metrics kept from the last run, sent after the births") }
        return batches
    }

    /// Makes a client whose will is the NDEATH of the next `bdSeq`, subscribes and starts it; nothing after
    /// ``shutdown(timeout:)``.
    private func connect() throws {
        let configuration = core.configuration
        var generation = 0
        var sequence: UInt64 = 0
        var brokerOffset = 0
        guard connection.withLock({ connection in
            guard !connection.stopped else { return false }
            connection.generation += 1
            (generation, sequence, brokerOffset) = (connection.generation, connection.willSequence, connection.brokerOffset)
            return true
        }) else { return }
        let thisGeneration = generation
        // Kept before the will can reach a broker: a restart after a power cut takes the next one.
        keep(birthDeathSequence: sequence)
        let will = withSession { $0.death(birthDeathSequence: sequence, now: now) }.message
        var clientConfiguration = try configuration.clientConfiguration(will: will)
        let brokers = clientConfiguration.brokers
        if brokers.count > 1 {
            let first = brokerOffset % brokers.count
            clientConfiguration.broker = brokers[first]
            clientConfiguration.failoverBrokers = Array(brokers[(first + 1)...] + brokers[..<first])
        }
        clientConfiguration.clientID = settings.clientID ?? configuration.clientID + "-sparkplug"
        // Sparkplug 3.0: clean session; MQTT 3.1.1 (5.0 would need session expiry 0 and DISCONNECT 0x04).
        clientConfiguration.cleanSession = true
        clientConfiguration.protocolVersion = .v311
        clientConfiguration.allowsProtocolFallback = false
        clientConfiguration.durableOfflineBuffer = nil
        let client = try makeTransport(clientConfiguration) { [weak self] event in self?.handle(event, generation: thisGeneration) }
        let topic = { (type: SparkplugMessageType, device: String?) in
            SparkplugTopic.message(type, group: self.identity.group, edgeNode: self.identity.edgeNode, device: device).name
        }
        try client.subscribe(topic(.nodeCommand, nil), qos: .atLeastOnce)
        try client.subscribe(topic(.deviceCommand, "+"), qos: .atLeastOnce)
        if let host = identity.primaryHost {
            try client.subscribe(SparkplugTopic.state(hostID: host).name, qos: .atLeastOnce)
        }
        let current = connection.withLock { connection in
            guard !connection.stopped, connection.generation == thisGeneration else { return false }
            connection.client = client
            return true
        }
        guard current else { return client.shutdown(timeout: .zero) }
        try client.start()
    }

    /// Writes the `bdSeq` a will carries to the state file (a failure is logged: the next start may then
    /// repeat a `bdSeq`, which a host reads as a stale death).
    private func keep(birthDeathSequence: UInt64) {
        do {
            try stateFile.write(birthDeathSequence)
        } catch {
            Logger.agent.warning("sparkplug: bdSeq \(birthDeathSequence) not kept: \(error)")
        }
    }

    /// Publishes NDEATH and disconnects (waiting up to `timeout`); idempotent.
    func shutdown(timeout: Duration) {
        let (client, timer) = connection.withLock { connection -> ((any MessageTransport)?, ScheduledWork?) in
            guard !connection.stopped else { return (nil, nil) }
            connection.stopped = true
            defer { connection.client = nil }
            return (connection.client, connection.timer)
        }
        timer?.cancel()
        // The store's file last, once the queue is idle: what it keeps until the client is gone is written too.
        defer {
            queue.sync {}
            store?.close()
        }
        guard let client else { return }
        // Drained: no publication of the queue can follow the death.
        let death = queue.sync { withSession { $0.death(now: now) } }
        if client.isConnected, let id = try? client.publish(death.message) {
            _ = client.waitUntilPublished(messageID: id, timeout: timeout / 2)
        }
        client.shutdown(timeout: timeout / 2)
    }

    // MARK: - Broker events (the network thread: hand over at once)

    private func handle(_ event: MQTTClientEvent, generation: Int) {
        let (current, client) = connection.withLock { ($0.generation == generation && !$0.stopped, $0.client) }
        guard current, let client else { return }
        switch event {
        case .connected:
            // This connection's will carried `used`, and so do its births.
            let used = connection.withLock { $0.willSequence }
            queue.async { self.connected(birthDeathSequence: used) }
        case .disconnected(_, let reason):
            // At once, not on the queue: data made from now on are kept, and none made before goes out on
            // the next connection before its births.
            let next = connection.withLock { connection -> UInt64 in
                connection.acknowledged = false
                connection.willSequence = SparkplugSession.birthDeathSequence(after: connection.willSequence)
                return connection.willSequence
            }
            withSession { $0.disconnected() }
            Logger.agent.warning("sparkplug: disconnected: \(reason)")
            // The next attempt (the client's own reconnection, on this thread) carries the next bdSeq, kept first.
            keep(birthDeathSequence: next)
            do {
                try client.replaceWill(withSession { $0.death(birthDeathSequence: next, now: now) }.message)
            } catch {
                Logger.agent.warning("sparkplug: the next connection's will was not set: \(error)")
            }
        case .message(let message):
            // Bounded with the native commands: a flood is dropped and counted (health's `commands_dropped`);
            // the slot is held until the control queue has carried out the message's writes.
            guard intake.admit() else {
                if intake.droppedCount == 1 {
                    Logger.agent.warning("sparkplug: commands arrive faster than they can be handled: dropping them (counted in health)")
                }
                return
            }
            queue.async { self.carryOut(self.received(message)) }
        case .connectionRefused(_, let reason):
            Logger.agent.warning("sparkplug: the broker refused the connection: \(reason)")
        case .offlineBufferProblem, .published:
            break
        }
    }

    // MARK: - The session (queue)

    /// Publishes in order while this connection is born; device data that cannot go out (the connection
    /// dropped meanwhile) go back to the store, to follow the next births.
    func send(_ publications: [SparkplugPublication]) {
        guard !publications.isEmpty else { return }
        let client = connection.withLock { $0.stopped || !$0.acknowledged ? nil : $0.client }
        for (index, publication) in publications.enumerated() where (client.flatMap { try? $0.publish(publication.message) }) == nil {
            withSession { session in publications[index...].forEach { session.keep($0) } }
            return
        }
    }

    private func connected(birthDeathSequence: UInt64) {
        let now = self.now
        connection.withLock { $0.acknowledged = true }
        send(withSession { $0.connected(birthDeathSequence: birthDeathSequence, now: now) })
        Logger.agent.notice("sparkplug: connected with bdSeq \(birthDeathSequence)")
    }

    /// Publishes `death`, ends the connection and connects again with the next `bdSeq`, to the next broker
    /// when there are several (the primary host went offline: Sparkplug 3.0 has the edge node move on).
    func reconnect(after death: SparkplugPublication) {
        let old = connection.withLock { connection -> (any MessageTransport)? in
            defer {
                connection.client = nil
                connection.acknowledged = false
                connection.brokerOffset += 1
                // The old client's events are ignored from here (it is no longer the client): the next bdSeq here.
                connection.willSequence = SparkplugSession.birthDeathSequence(after: connection.willSequence)
            }
            return connection.stopped ? nil : connection.client
        }
        guard let old else { return }
        if let id = try? old.publish(death.message) { _ = old.waitUntilPublished(messageID: id, timeout: .seconds(1)) }
        old.shutdown(timeout: .seconds(1))
        do {
            try connect()
        } catch {
            Logger.agent.error("sparkplug: cannot connect again: \(error)")
        }
    }
}
