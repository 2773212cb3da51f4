import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionLog
import MotionMath
import MotionSupervision
import Synchronization

/// The bridge: reads every IMU sample through its ``MotionEngine`` and publishes the MQTT contract's
/// topics, each at its own rate.
///
/// Threads: libmosquitto's network thread delivers broker events, which are handed to the serial control
/// queue at once; the engine delivers sample batches on the device's thread, where they are down-sampled,
/// encoded and published. Engine subscriptions are started and stopped only on the control queue.
public final class MotionAgent: Sendable {
    /// The agent's version, reported in `{base}/info`.
    public let version: String
    /// The topics of this device.
    public let topics: TopicLayout

    let controlQueue = DispatchQueue(label: "motion-agent.control")
    /// Commands received and not yet handled; at most ``maximumPendingCommands``.
    let pendingCommands = Atomic<Int>(0)
    /// Commands dropped because too many were waiting (a flood).
    let droppedCommands = Atomic<Int>(0)
    /// The most commands waiting to be handled; more are dropped.
    static let maximumPendingCommands = 256
    /// The device, fusion and routing the agent publishes from.
    public let engine: MotionEngine
    /// Makes the broker connection.
    let makeTransport: MessageTransportFactory
    /// One engine subscription per running service, so that each takes its own sample interval (a `latest`
    /// topic gets only the samples it can publish, see `startUpdates`). Changed on the control queue only.
    let subscriptions = Mutex<[MotionService: MotionSubscription]>([:])
    /// The pedometer and the activity under the `steps` and `activity` services (rest ↔ motion, steps and
    /// activity with the configured detectors' thresholds), running while either service does.
    let activityMonitor: MotionActivityMonitor
    /// The on-board motion detectors: `{base}/events` and `{base}/state/{name}`.
    let detectors: DetectorService
    /// The periodic `{base}/health`.
    let health: HealthReporter
    /// The barometer under the `altitude` service and the pedometer's floors; its device is opened by
    /// ``start()`` from the configuration's `barometer`.
    let altimeter: MotionAltimeter
    /// What the running `steps`, `activity` and `altitude` services hold on the monitor and the
    /// altimeter. Changed on the control queue only.
    let activityListeners = Mutex(ActivityListeners())
    let encoder: SamplePayloadEncoder
    /// When the agent was made: `CLOCK_MONOTONIC` ns (for the uptime in `health`) and Unix time, s (the
    /// `started` of `info`).
    let startMonotonicNanoseconds = MonotonicClock.now()
    let startUnixTime = WallClock.unixTime()
    let state: Mutex<State>
    let pipelines: Mutex<ServicePipelines>
    /// Opens the device again while it cannot be opened (on the control queue, the engine's clock).
    let deviceSupervisor: DeviceSupervisor
    /// Opens the barometer again while it cannot be opened (on the control queue, the engine's clock).
    let barometerSupervisor: DeviceSupervisor
    /// The service manager told of readiness, status and stopping, and fed the watchdog (see
    /// ``attach(serviceManager:)``); `nil` when there is none.
    let serviceManager = Mutex<ServiceManagerLink?>(nil)
    // Touched only on `controlQueue`.
    nonisolated(unsafe) var serviceManagerTimer: ScheduledWork?

    struct State: Sendable {
        /// The configuration in force: the file's with the remote overlay on top.
        var configuration: AgentConfiguration
        /// The configuration file's (with the command line's options), as last read.
        var fileConfiguration: AgentConfiguration
        /// The documents accepted on `{base}/config/set`.
        var remote: RemoteConfiguration
        /// Where they are kept (the state file, or memory only with the reason).
        var remoteStore: RemoteConfigurationStore
        /// Why ``remote`` is not in force, or nil.
        var remoteError: String?
        /// When the configuration in force came into force, Unix time, s.
        var configurationSince: Double
        var client: (any MessageTransport)?
        var services: ServiceStates
        var deviceError: String?
        /// Why the configured barometer could not be opened (nil: it is open, or none is configured).
        var barometerError: String?
        var shuttingDown = false
    }

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
        self.version = version
        self.engine = engine
        deviceSupervisor = DeviceSupervisor(
            backoff: Backoff(first: Self.firstDeviceRetryDelay, maximum: Self.maximumDeviceRetryDelay), clock: engine.environment.clock,
            queue: controlQueue)
        barometerSupervisor = DeviceSupervisor(
            backoff: Backoff(first: Self.barometerRetryDelay, maximum: Self.barometerRetryDelay), clock: engine.environment.clock,
            queue: controlQueue)
        makeTransport = transport
        topics = configuration.topics
        encoder = SamplePayloadEncoder(
            wallClockOffset: WallClock.unixTime() - Double(MonotonicClock.now()) / 1e9)
        let (store, remote, notes) = RemoteConfigurationStore.open(configuration.remoteConfiguration.stateFile)
        notes.forEach { Logger.agent.warning($0) }
        let (effective, overlayError) = configuration.inForce(with: remote)
        if let overlayError {
            Logger.agent.warning("\(overlayError); the file's values apply")
        } else if configuration.remoteConfiguration.enabled, !remote.overlay.isEmpty {
            Logger.agent.notice("remote configuration version \(remote.version) applied on top of the file")
        }
        state = Mutex(State(
            configuration: effective, fileConfiguration: configuration, remote: remote, remoteStore: store, remoteError: overlayError,
            configurationSince: WallClock.unixTime(),
            services: ServiceStates { ServiceState(settings: effective.settings(for: $0)) }))
        pipelines = Mutex(try ServicePipelines(settings: effective.settings(for:)))
        health = HealthReporter(topics: topics, clock: engine.environment.clock, queue: controlQueue)
        detectors = DetectorService(engine: engine, topics: topics, wallClockOffset: encoder.wallClockOffset, version: version)
        activityMonitor = MotionActivityMonitor(source: engine, detectors: DetectorPipeline.activityBank(effective.detectors))
        altimeter = MotionAltimeter(device: nil, floors: activityMonitor, clock: engine.environment.clock)
    }

    /// The configuration in force: the file's (changed by reloads) with the accepted remote documents on top.
    public var configuration: AgentConfiguration { state.withLock { $0.configuration } }

    /// Opens the device, connects to the broker (retrying in the background while it is down) and
    /// starts the enabled services.
    /// - Throws: ``ConfigurationError`` when the device specification is malformed or the calibration file
    ///   cannot be used, or the MQTT client's error when the client cannot be created.
    public func start() throws {
        let configuration = self.configuration
        do {
            try openDevice()
        } catch let error as IMUDeviceError {
            if case .invalidSpecification(let why) = error {
                throw ConfigurationError(fieldPath: "device", reason: why)
            }
            state.withLock { $0.deviceError = error.description }
            superviseDeviceOpen(after: error)
        }
        openBarometer()
        if let path = configuration.calibration {
            try applyCalibration(path)
        }
        try apply(configuration.magneticReference)
        let clientConfiguration = try configuration.clientConfiguration(will: availability("offline"))
        let client = try makeTransport(clientConfiguration) { [weak self] event in
            self?.handle(event)
        }
        state.withLock { $0.client = client }
        detectors.setClient(client)
        try client.start()
        Logger.agent.notice("motion-agent \(version): device \(configuration.device), broker \(configuration.broker.address), base topic \(topics.base)")
        try controlQueue.sync {
            startActiveServices()
            scheduleHealthReports(every: configuration.healthInterval)
            if state.withLock({ $0.deviceError == nil }) { try startRecording() }
        }
    }

    /// Stops the services, publishes every service status as inactive and then `offline`, waits for the
    /// broker to acknowledge them and disconnects cleanly (so the broker does not send the last will).
    /// Idempotent.
    /// - Parameter timeout: the longest the whole shutdown may take.
    public func shutdown(timeout: Duration = .seconds(2)) {
        let client: (any MessageTransport)? = controlQueue.sync {
            let client = state.withLock { state -> (any MessageTransport)? in
                guard !state.shuttingDown else { return nil }
                state.shuttingDown = true
                return state.client
            }
            detectors.setClient(nil)
            health.stop()
            serviceManagerTimer?.cancel()
            deviceSupervisor.cancel()
            barometerSupervisor.cancel()
            serviceManager.withLock { $0?.notifier.notify("STOPPING=1\nSTATUS=stopping") }
            for service in MotionService.allCases { stopUpdates(service) }
            stopDetectors()
            do {
                let count = try engine.stopRecording()
                if let file = configuration.recording?.file, count > 0 { Logger.agent.info("recorded \(count) samples to \(file)") }
            } catch {
                Logger.agent.error("the recording failed: \(error)")
            }
            return client
        }
        guard let client else { return }
        if client.isConnected {
            // Every service retained as inactive, then `offline`: what the last will cannot say.
            let final = MotionService.allCases.map { service in
                var status = controlQueue.sync { self.status(of: service) }
                status.active = false
                return MQTTMessage(
                    topic: topics.status(service), string: status.json(), qos: .atLeastOnce, retain: true, contentType: Self.json)
            } + [availability("offline")]
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
