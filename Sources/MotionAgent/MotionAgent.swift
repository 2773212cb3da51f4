import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionSupervision
import MotionLog

/// The bridge: reads every IMU sample through its ``MotionEngine`` and publishes the MQTT contract's
/// topics, each at its own rate.
///
/// The agent is made of parts, each with one job and its own state, around one serial owner of the
/// control state (``AgentCore``): the announcer (`online`, `info`, statuses, `config`, discovery), the
/// service publisher (the data path), the detectors, the devices with their supervisors, the control plane
/// (commands, remote configuration, reloads), the health reporter and the service-manager reporter.
///
/// Threads: libmosquitto's network thread delivers broker events, which are handed to the serial control
/// queue at once; the engine delivers sample batches on the device's thread, where they are down-sampled,
/// encoded and published. Engine subscriptions are started and stopped only on the control queue. The
/// public methods may be called from any thread but the control queue.
public final class MotionAgent: Sendable {
    /// The agent's version, reported in `{base}/info`.
    public var version: String { core.version }
    /// The topics of this device.
    public var topics: TopicLayout { core.topics }
    /// The device, fusion and routing the agent publishes from.
    public var engine: MotionEngine { core.engine }

    let core: AgentCore
    let announcer: AgentAnnouncer
    let publisher: ServicePublisher
    /// The on-board motion detectors: `{base}/events` and `{base}/state/{name}`.
    let detectors: DetectorService
    let devices: AgentDevices
    let health: HealthReporter
    /// The watch on the wall clock, whose anchor gives every payload's `ts`.
    let clock: ClockSupervisor
    let control: ControlPlane
    let serviceManager: ServiceManagerReporter
    /// The Sparkplug B edge node on a connection of its own (nil: none configured).
    let sparkplug: SparkplugEdgeNode?
    /// Makes the broker connection.
    let makeTransport: MessageTransportFactory

    /// The serial queue that owns the control state (tests wait on it).
    var controlQueue: DispatchQueue { core.controlQueue }

    /// Creates an agent; nothing runs until ``start()``.
    /// - Parameters:
    ///   - configuration: a validated configuration.
    ///   - version: the agent's version for `{base}/info`.
    ///   - engine: the engine to read (by default one of its own, which reads no `MOTION_*` variables: the
    ///     configuration says which device).
    ///   - transport: makes the broker connection (by default an ``MQTTClient``; tests pass an in-memory one).
    /// - Throws: ``ConfigurationError`` when a service's sampling settings are unusable.
    public init(
        configuration: AgentConfiguration, version: String,
        engine: MotionEngine = MotionEngine(environment: MotionEngineEnvironment()),
        transport: @escaping MessageTransportFactory = MQTTClient.factory
    ) throws(ConfigurationError) {
        makeTransport = transport
        let (store, remote, notes) = RemoteConfigurationStore.open(configuration.remoteConfiguration.stateFile)
        notes.forEach { Logger.agent.warning($0) }
        let (effective, overlayError) = configuration.inForce(with: remote)
        if let overlayError {
            Logger.agent.warning("\(overlayError); the file's values apply")
        } else if configuration.remoteConfiguration.enabled, !remote.overlay.isEmpty {
            Logger.agent.notice("remote configuration version \(remote.version) applied on top of the file")
        }
        engine.detectors.setDetectors(DetectorPipeline.activityBank(effective.detectors))
        clock = ClockSupervisor(
            monotonicNanoseconds: engine.environment.monotonicNanoseconds, unixTime: engine.environment.unixTime)
        core = AgentCore(
            version: version, topics: configuration.topics, engine: engine,
            altimeter: MotionAltimeter(device: nil, floors: engine.detectors, clock: engine.environment.clock),
            state: AgentState(
                configuration: effective, fileConfiguration: configuration, remote: remote, remoteStore: store,
                remoteError: overlayError, configurationSince: Double(MonotonicClock.now()) / 1e9,
                services: ServiceStates { ServiceState(settings: effective.settings(for: $0)) }),
            wallClock: clock.anchor)
        var encoder = SamplePayloadEncoder(wallClock: clock.anchor)
        encoder.senmlBaseName = configuration.senmlBaseName ?? "urn:dev:mac:0000000000000000_\(configuration.resolvedDeviceID):"
        let intake = CommandIntake()
        let vibrationState = VibrationStateBoard(topics: core.topics, wallClock: clock.anchor)
        let sparkplug = configuration.sparkplug.map { [core, clock] in
            SparkplugEdgeNode(settings: $0, core: core, clock: clock, intake: intake, transport: transport)
        }
        detectors = DetectorService(
            engine: engine, topics: core.topics, wallClock: clock.anchor, version: version, vibrationState: vibrationState,
            sparkplug: sparkplug)
        self.sparkplug = sparkplug
        announcer = AgentAnnouncer(core: core, detectors: detectors, sparkplug: sparkplug)
        publisher = try ServicePublisher(core: core, announcer: announcer, encoder: encoder, vibrationState: vibrationState)
        health = HealthReporter(core: core, publisher: publisher, detectors: detectors, intake: intake, clock: clock)
        devices = AgentDevices(core: core, announcer: announcer, publisher: publisher, detectors: detectors)
        control = ControlPlane(
            core: core, announcer: announcer, publisher: publisher, devices: devices, detectors: detectors, health: health, intake: intake)
        serviceManager = ServiceManagerReporter(core: core, announcer: announcer, publisher: publisher)
    }

    /// The configuration in force: the file's (changed by reloads) with the accepted remote documents on top.
    public var configuration: AgentConfiguration { core.configuration }

    /// Opens the device, connects to the broker (retrying in the background while it is down; with
    /// Sparkplug, its edge node's connection too, and the native one only when `native_contract` is on) and
    /// starts the enabled services.
    /// - Throws: ``ConfigurationError`` when the device specification is malformed or the calibration file
    ///   cannot be used, or the MQTT client's error when the client cannot be created.
    public func start() throws {
        let configuration = self.configuration
        try devices.openAtStart()
        devices.openBarometer()
        if let path = configuration.calibration {
            try devices.applyCalibration(path)
        }
        try devices.apply(configuration.magneticReference)
        if configuration.sparkplug?.nativeContract ?? true {
            let clientConfiguration = try configuration.clientConfiguration(will: announcer.availability("offline"))
            let client = try makeTransport(clientConfiguration) { [weak self] event in
                self?.control.handle(event)
            }
            core.state.withLock { $0.client = client }
            detectors.setClient(client)
            try client.start()
            Logger.agent.notice(
                "motion-agent \(version): device \(configuration.device), broker \(configuration.broker.address), base topic \(topics.base)")
        } else {
            Logger.agent.notice("motion-agent \(version): device \(configuration.device), broker \(configuration.broker.address), Sparkplug B only")
        }
        if let sparkplug {
            sparkplug.setCommandHandler { [weak self] service, command in
                guard let self else { return "the agent stops" }
                do throws(ControlCommandError) {
                    try control.apply(command, to: service)
                    return nil
                } catch {
                    return error.description
                }
            }
            let statuses = controlQueue.sync {
                Dictionary(uniqueKeysWithValues: MotionService.allCases.map { ($0, announcer.status(of: $0)) })
            }
            try sparkplug.start(statuses: statuses)
        }
        try controlQueue.sync {
            devices.startActiveServices()
            health.schedule(every: configuration.healthInterval)
            // On Dispatch's own timers, not the engine's clock: a test's manual clock lists what it has
            // pending (the device's retries), and the checks read whatever clocks the environment gives.
            clock.schedule(on: DispatchSupervisionClock(), queue: controlQueue)
            if devices.isDeviceOpen { try devices.startRecording() }
        }
    }

    /// Applies a new configuration file without dropping the connection, with the accepted remote
    /// documents on top again: service settings, the magnetic reference, the calibration file, the mount
    /// matrix and the health interval take effect at once; changes that need a restart (device, identity,
    /// broker) are kept as they are and returned as notes. Remote documents that no longer fit the file
    /// are set aside (reported on `{base}/config` and in the notes) and the file's values apply.
    /// - Returns: one line per setting that was not applied.
    @discardableResult
    public func reload(_ file: AgentConfiguration) -> [String] {
        controlQueue.sync { control.reload(file) }
    }

    /// Reports to `notifier` from now on: `READY=1` with a first `STATUS=` at once (call it after
    /// ``start()``); then, every half watchdog interval (systemd's advice; every 5 s without a watchdog),
    /// the status line when it changed and, when the sample path made progress (``SampleWatchdog``),
    /// `WATCHDOG=1`; `STOPPING=1` when ``shutdown(timeout:)`` begins. The checks run on the control
    /// queue, so a dead-locked control queue starves the watchdog too.
    public func attach(serviceManager notifier: any ServiceManagerNotifier) {
        serviceManager.attach(notifier)
    }

    /// Stops the services, publishes every service status as inactive and then `offline`, waits for the
    /// broker to acknowledge them and disconnects cleanly (so the broker does not send the last will).
    /// Idempotent.
    /// - Parameter timeout: the longest the whole shutdown may take.
    public func shutdown(timeout: Duration = .seconds(2)) {
        let client: (any MessageTransport)? = controlQueue.sync {
            let client = core.state.withLock { state -> (any MessageTransport)? in
                guard !state.shuttingDown else { return nil }
                state.shuttingDown = true
                return state.client
            }
            detectors.setClient(nil)
            health.stop()
            clock.stop()
            devices.cancel()
            serviceManager.stopping()
            for service in MotionService.allCases { publisher.stopUpdates(service) }
            detectors.stop()
            do {
                let count = try engine.stopRecording()
                if let file = configuration.recording?.file, count > 0 { Logger.agent.info("recorded \(count) samples to \(file)") }
            } catch {
                Logger.agent.error("the recording failed: \(error)")
            }
            return client
        }
        sparkplug?.shutdown(timeout: timeout / 2)
        guard let client else { return }
        if client.isConnected {
            // Every service retained as inactive, then `offline`: what the last will cannot say.
            let final = MotionService.allCases.map { service in
                var status = controlQueue.sync { announcer.status(of: service) }
                status.active = false
                return AgentAnnouncer.statusMessage(status, topic: topics.status(service))
            } + [announcer.availability("offline")]
            let messageIDs = final.compactMap { try? client.publish($0) }
            let clock = ContinuousClock()
            let deadline = clock.now + timeout / 2
            for messageID in messageIDs {
                _ = client.waitUntilPublished(messageID: messageID, timeout: max(.zero, clock.now.duration(to: deadline)))
            }
        }
        client.shutdown(timeout: timeout / 2)
        Logger.agent.notice("stopped")
    }
}
