import Dispatch
import FoundationEssentials
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionMath
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

    private let controlQueue = DispatchQueue(label: "motion-agent.control")
    /// Commands received and not yet handled; at most ``maximumPendingCommands``.
    private let pendingCommands = Atomic<Int>(0)
    /// Commands dropped because too many were waiting (a flood).
    private let droppedCommands = Atomic<Int>(0)
    /// The most commands waiting to be handled; more are dropped.
    static let maximumPendingCommands = 256
    /// The device, fusion and routing the agent publishes from.
    public let engine: MotionEngine
    /// One engine subscription per running service, so that each takes its own sample interval (a `latest`
    /// topic gets only the samples it can publish, see `startUpdates`). Changed on the control queue only.
    private let subscriptions = Mutex<[MotionService: MotionSubscription]>([:])
    private let encoder: SamplePayloadEncoder
    private let startUptime = ProcessInfo.processInfo.systemUptime
    private let startDate = Date()
    private let state: Mutex<State>
    private let pipelines: Mutex<ServicePipelines>
    // Touched only on `controlQueue`.
    nonisolated(unsafe) private var healthTimer: (any DispatchSourceTimer)?

    private struct State: Sendable {
        var configuration: AgentConfiguration
        var client: MQTTClient?
        var services: [MotionService: ServiceState]
        var deviceError: String?
        var lastHealth: (uptime: Double, messages: [MotionService: UInt64])?
        var shuttingDown = false
    }

    /// Creates an agent; nothing runs until ``start()``.
    /// - Parameters:
    ///   - configuration: a validated configuration.
    ///   - version: the agent's version for `{base}/info`.
    ///   - engine: the engine to read (by default one of its own, which reads no `MOTION_*` variables: the
    ///     configuration says which device).
    /// - Throws: ``ConfigurationError`` when a service's sampling settings are unusable.
    public init(
        configuration: AgentConfiguration, version: String,
        engine: MotionEngine = MotionEngine(environment: MotionEngineEnvironment())
    ) throws(ConfigurationError) {
        self.version = version
        self.engine = engine
        topics = configuration.topics
        encoder = SamplePayloadEncoder(
            wallClockOffset: Date().timeIntervalSince1970 - Double(MonotonicClock.now()) / 1e9)
        state = Mutex(State(
            configuration: configuration,
            services: Dictionary(uniqueKeysWithValues: MotionService.allCases.map {
                ($0, ServiceState(settings: configuration.settings(for: $0)))
            })))
        pipelines = Mutex(try ServicePipelines(settings: configuration.settings(for:)))
    }

    /// The configuration in force (the file's, changed by reloads).
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
            AgentLog.info("device \(configuration.device): \(error); trying again in \(Int(Self.firstDeviceRetryDelay)) s")
            state.withLock { $0.deviceError = error.description }
            controlQueue.asyncAfter(deadline: .now() + Self.firstDeviceRetryDelay) { [weak self] in
                self?.retryDeviceOpen(delay: Self.firstDeviceRetryDelay)
            }
        }
        if let path = configuration.calibration {
            try applyCalibration(path)
        }
        try apply(configuration.magneticReference)
        let clientConfiguration = try configuration.clientConfiguration(will: availability("offline"))
        let client = try MQTTClient(configuration: clientConfiguration) { [weak self] event in
            self?.handle(event)
        }
        state.withLock { $0.client = client }
        try client.start()
        AgentLog.info("motion-agent \(version): device \(configuration.device), broker \(configuration.broker.address), base topic \(topics.base)")
        try controlQueue.sync {
            startActiveServices()
            scheduleHealthReports(every: configuration.healthInterval)
            if state.withLock({ $0.deviceError == nil }) { try startRecording() }
        }
    }

    /// First delay before opening a device again that was unavailable at start, s; it doubles up to
    /// ``maximumDeviceRetryDelay``.
    static let firstDeviceRetryDelay = 1.0
    /// Longest delay between attempts to open the device, s.
    static let maximumDeviceRetryDelay = 30.0

    /// On the control queue: opens the device that was unavailable (a chip not yet powered, a driver not
    /// yet loaded); on success starts the active services and the recording and publishes the new state,
    /// otherwise tries again after twice the delay (a changed reason is published).
    private func retryDeviceOpen(delay: Double) {
        guard state.withLock({ !$0.shuttingDown && $0.deviceError != nil }) else { return }
        let configuration = self.configuration
        do {
            try openDevice()
        } catch {
            let next = min(delay * 2, Self.maximumDeviceRetryDelay)
            let description = (error as? IMUDeviceError)?.description ?? "\(error)"
            let changed = state.withLock { state -> Bool in
                defer { state.deviceError = description }
                return state.deviceError != description
            }
            if changed {
                AgentLog.info("device \(configuration.device): \(description)")
                publishDeviceState()
            }
            controlQueue.asyncAfter(deadline: .now() + next) { [weak self] in self?.retryDeviceOpen(delay: next) }
            return
        }
        AgentLog.info("device \(configuration.device) opened")
        state.withLock { $0.deviceError = nil }
        startActiveServices()
        do { try startRecording() } catch { AgentLog.info("\(error)") }
        publishDeviceState()
    }

    /// Opens the configured device, turned into the board's axes by the configured mount matrix; without
    /// it the engine has no device (it never falls back to another one).
    /// - Throws: `IMUDeviceError` when the string is invalid or the device cannot be opened.
    private func openDevice() throws {
        let configuration = self.configuration
        do {
            try engine.openDevice(specification: configuration.device, mountMatrix: configuration.mountMatrix ?? .identity)
        } catch {
            engine.setDevice(nil)
            throw error
        }
    }

    /// On the control queue: starts the updates of every active service.
    private func startActiveServices() {
        for service in MotionService.allCases where state.withLock({ $0.services[service]!.active }) {
            startUpdates(service)
        }
    }

    /// Starts the configured field recording of raw samples, if any.
    /// - Throws: ``ConfigurationError`` for `record.file` when the file cannot be created.
    private func startRecording() throws(ConfigurationError) {
        guard let recording = configuration.recording else { return }
        do {
            try engine.startRecording(toFile: recording.file, duration: recording.seconds)
        } catch {
            throw ConfigurationError(fieldPath: "record.file", reason: "cannot record to \(recording.file): \(error)")
        }
        AgentLog.info("recording raw samples to \(recording.file) (at most \(recording.seconds) s)")
    }

    /// Publishes `info` and every service status again (after the device came or changed), when connected.
    private func publishDeviceState() {
        guard let client = state.withLock({ $0.shuttingDown ? nil : $0.client }), client.isConnected else { return }
        do {
            try client.publish(MQTTMessage(
                topic: topics.info, string: infoPayload(), qos: .atLeastOnce, retain: true, contentType: Self.json))
            for service in MotionService.allCases { try publishStatus(service, on: client) }
        } catch {
            AgentLog.info("publishing the device's state failed: \(error)")
        }
    }

    /// Stops the services, publishes every service status as inactive and then `offline`, waits for the
    /// broker to acknowledge them and disconnects cleanly (so the broker does not send the last will).
    /// Idempotent.
    /// - Parameter timeout: the longest the whole shutdown may take.
    public func shutdown(timeout: Duration = .seconds(2)) {
        let client: MQTTClient? = controlQueue.sync {
            let client = state.withLock { state -> MQTTClient? in
                guard !state.shuttingDown else { return nil }
                state.shuttingDown = true
                return state.client
            }
            healthTimer?.cancel()
            for service in MotionService.allCases { stopUpdates(service) }
            do {
                let count = try engine.stopRecording()
                if let file = configuration.recording?.file, count > 0 { AgentLog.info("recorded \(count) samples to \(file)") }
            } catch {
                AgentLog.info("the recording failed: \(error)")
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
        AgentLog.info("stopped")
    }

    /// Reads the calibration file at `path` and has the engine apply it to every sample.
    /// - Throws: ``ConfigurationError`` for field `calibration` naming the file and its bad field.
    private func applyCalibration(_ path: String) throws(ConfigurationError) {
        let calibration = try AgentConfiguration.loadCalibration(path)
        engine.setCalibration(calibration)
        let parts = [
            calibration.gyroscope.map { _ in "gyroscope" }, calibration.accelerometer.map { _ in "accelerometer" },
            calibration.magnetometer.map { "magnetometer (\($0.quality.rawValue))" },
        ].compactMap { $0 }
        AgentLog.info("calibration \(path): \(parts.isEmpty ? "no parts" : parts.joined(separator: ", "))")
    }

    /// Gives the engine the magnetic declination for true north (a running true-north service follows).
    /// - Throws: ``ConfigurationError`` for values outside the ranges that validation checks.
    private func apply(_ reference: MagneticReference?) throws(ConfigurationError) {
        switch reference {
        case .location(let latitude, let longitude, let altitude):
            engine.setLocation(try MagneticReference.geodeticLocation(latitude: latitude, longitude: longitude, altitude: altitude))
        case .declination(let degrees):
            try reference?.validate()
            engine.setMagneticDeclination(degrees)
        case nil:
            return
        }
        if let declination = engine.magneticDeclination {
            AgentLog.info("magnetic declination \(AgentLog.decimal(declination, places: 2))° (true north available)")
        }
    }

    /// Applies a new configuration without dropping the connection: service settings, the magnetic
    /// reference, the calibration file and the health interval take effect at once; changes that need a restart (device, identity, broker) are kept
    /// as they are and returned as notes.
    /// - Returns: one line per setting that was not applied.
    @discardableResult
    public func reload(_ new: AgentConfiguration) -> [String] {
        controlQueue.sync {
            let old = configuration
            var notes: [String] = []
            if new.device != old.device || new.mountMatrix != old.mountMatrix {
                notes.append("device or mount_matrix changed: restart to apply")
            }
            if new.recording != old.recording { notes.append("record changed: restart to apply") }
            if new.topics != old.topics { notes.append("device_id or topic_prefix changed: restart to apply") }
            if new.broker != old.broker { notes.append("broker settings changed: restart to apply") }
            state.withLock { state in
                state.configuration.services = new.services
                state.configuration.healthInterval = new.healthInterval
                state.configuration.magneticReference = new.magneticReference
            }
            // The file is read again even under the same name: it may have been recalibrated.
            if new.calibration != old.calibration || new.calibration != nil {
                do {
                    if let path = new.calibration {
                        try applyCalibration(path)
                    } else {
                        engine.setCalibration(nil)
                    }
                    state.withLock { $0.configuration.calibration = new.calibration }
                } catch {
                    notes.append("calibration: \(error)")
                }
            }
            if new.magneticReference != old.magneticReference {
                // Validated with the file: a failure here would be a range the validation missed.
                do { try apply(new.magneticReference) } catch { notes.append("magnetic reference: \(error)") }
            }
            for service in MotionService.allCases {
                let settings = new.settings(for: service)
                let changed = state.withLock { state -> Bool in
                    let current = state.services[service]!
                    guard current.settings != settings || current.active != settings.enabled else { return false }
                    state.services[service]!.settings = settings
                    state.services[service]!.active = settings.enabled
                    return true
                }
                if changed { restart(service) }
            }
            scheduleHealthReports(every: new.healthInterval)
            AgentLog.info("configuration reloaded" + (notes.isEmpty ? "" : "; not applied: " + notes.joined(separator: "; ")))
            return notes
        }
    }

    // MARK: - Broker events (libmosquitto's thread: hand over at once)

    private func handle(_ event: MQTTClientEvent) {
        switch event {
        case .connected:
            controlQueue.async { self.announce() }
        case .connectionRefused(let code, let reason):
            AgentLog.info("broker refused the connection (\(code)): \(reason)")
        case .disconnected(let code, let reason):
            AgentLog.info("disconnected from the broker (\(code)): \(reason)")
        case .message(let message):
            // A flood of commands must not queue without bound: beyond the limit they are dropped (the
            // broker stops sending QoS 1 ones by itself once 20 are unacknowledged; QoS 0 ones it does not).
            let waiting = pendingCommands.add(1, ordering: .relaxed).newValue
            guard waiting <= Self.maximumPendingCommands else {
                pendingCommands.subtract(1, ordering: .relaxed)
                if droppedCommands.add(1, ordering: .relaxed).newValue == 1 {
                    AgentLog.info("commands arrive faster than they can be handled: dropping them (counted in health)")
                }
                return
            }
            controlQueue.async {
                self.handleControl(message)
                self.pendingCommands.subtract(1, ordering: .relaxed)
            }
        case .offlineBufferProblem(let problem):
            AgentLog.info(problem)
        case .published:
            break
        }
    }

    /// On every (re)connect: `online`, `info`, every service status, and the control subscription.
    private func announce() {
        guard let client = state.withLock({ $0.shuttingDown ? nil : $0.client }) else { return }
        AgentLog.info("connected to \(configuration.broker.address)")
        do {
            // Retain-as-published: a retained command is recognisable even when it arrives live.
            try client.subscribe(topics.allControlTopics, qos: .atLeastOnce, retainAsPublished: true)
            try client.publish(availability("online"))
            try client.publish(MQTTMessage(
                topic: topics.info, string: infoPayload(), qos: .atLeastOnce, retain: true, contentType: Self.json))
            for service in MotionService.allCases { try publishStatus(service, on: client) }
        } catch {
            AgentLog.info("announcing on the broker failed: \(error)")
        }
    }

    // MARK: - Control (control queue)

    private func handleControl(_ message: MQTTMessage) {
        guard let service = topics.service(forControlTopic: message.topic) else { return }
        guard !message.retain else {
            AgentLog.info("ignored a retained command on \(ContractText.sanitized(message.topic)): commands must not be retained")
            return
        }
        if let responseTopic = message.responseTopic, let problem = topics.responseTopicProblem(responseTopic) {
            var refused = message
            refused.responseTopic = nil  // answered on {base}/error instead
            answerError("refused: \(problem)", service: service, command: refused)
            return
        }
        let next: ServiceState
        do {
            let command = try ControlCommand.parse(message.payload, for: service)
            let status = status(of: service)
            next = try state.withLock { $0.services[service]! }.applying(
                command, for: service, unavailableReason: status.available ? nil : status.error ?? "unknown reason",
                availableFrames: engine.deviceInfo == nil ? nil : Set(availableFrames().map(\.rawValue)))
        } catch {
            answerError(error.description, service: service, command: message)
            return
        }
        state.withLock { $0.services[service] = next }
        restart(service)
        AgentLog.info("\(service.topicName): \(state.withLock { $0.services[service]!.active } ? "active" : "stopped"), interval \(status(of: service).interval) s")
        if message.responseTopic != nil {
            respond(to: message, with: CommandAnswer.accepted.json())
        }
    }

    /// Stops `service` and starts it again with its current settings if it is active; publishes its status.
    private func restart(_ service: MotionService) {
        stopUpdates(service)
        let (active, sampling) = state.withLock { state in
            state.services[service]!.error = nil
            return (state.services[service]!.active, state.services[service]!.settings.sampling)
        }
        do {
            try pipelines.withLock { try $0.reconfigure(service, sampling) }
        } catch {
            state.withLock { $0.services[service]!.error = "\(error)" }
        }
        if active { startUpdates(service) }
        if let client = state.withLock({ $0.client }) {
            try? publishStatus(service, on: client)
        }
    }

    /// Answers a refused command: on its MQTT 5 response topic when it named one, else on `{base}/error`.
    private func answerError(_ reason: String, service: MotionService, command: MQTTMessage) {
        AgentLog.info("refused a command for \(service.topicName): \(reason)")
        respond(to: command, with: CommandAnswer.refusal(reason, service: service, payload: command.payload).json())
    }

    /// Publishes `result` on the command's response topic with its correlation data, or on `{base}/error`
    /// when the command named no response topic.
    private func respond(to command: MQTTMessage, with result: String) {
        guard let client = state.withLock({ $0.client }) else { return }
        var answer = MQTTMessage(
            topic: command.responseTopic ?? topics.error, string: result, qos: .atLeastOnce, retain: false, contentType: Self.json)
        answer.correlationData = command.correlationData
        _ = try? client.publish(answer)
    }

    /// The retained `{base}/status` message.
    private func availability(_ text: String) -> MQTTMessage {
        MQTTMessage(topic: topics.status, string: text, qos: .atLeastOnce, retain: true, contentType: "text/plain")
    }

    /// The content type of every JSON payload.
    private static let json = "application/json"

    private func publishStatus(_ service: MotionService, on client: MQTTClient) throws {
        try client.publish(MQTTMessage(
            topic: topics.status(service), string: status(of: service).json(), qos: .atLeastOnce, retain: true,
            contentType: Self.json))
    }

    /// The status `service` would publish now (control queue only: it asks the motion manager).
    private func status(of service: MotionService) -> ServiceStatus {
        let (serviceState, deviceError) = state.withLock { ($0.services[service]!, $0.deviceError) }
        let unavailableReason = deviceError ?? serviceState.error
            ?? (isAvailable(service) ? nil : "the device has no \(Self.sensorName(service))")
        return ServiceStatus(
            available: unavailableReason == nil,
            active: serviceState.active,
            interval: effectiveInterval(serviceState.settings.sampling.interval),
            referenceFrame: service == .deviceMotion ? serviceState.settings.referenceFrame : nil,
            error: unavailableReason)
    }

    // MARK: - Engine subscriptions (control queue)

    private func startUpdates(_ service: MotionService) {
        guard isAvailable(service), state.withLock({ $0.deviceError == nil }) else { return }
        let sampling = state.withLock { $0.services[service]!.settings.sampling }
        let stream: MotionStream
        switch service {
        case .accelerometer: stream = .accelerometer
        case .gyro: stream = .gyroscope
        case .magnetometer: stream = .magnetometer
        case .deviceMotion:
            let frameName = state.withLock { $0.services[.deviceMotion]!.settings.referenceFrame } ?? ReferenceFrameName.defaultFrame
            let frame = AttitudeReferenceFrame(rawValue: frameName) ?? .xArbitraryZVertical
            guard availableFrames().contains(frame) else {
                state.withLock { $0.services[.deviceMotion]!.error = "reference frame \(frameName) is not available on this device" }
                return
            }
            stream = .deviceMotion(frame)
        }
        // A batch per device delivery (interval 0), on the device's thread.
        let subscription = MotionSubscription(
            service: stream, interval: 0,
            sink: .batch { [weak self] subscription, samples, fault in
                guard !subscription.isCancelled else { return }
                self?.receive(samples, fault: fault, from: service)
            })
        // `latest` publishes one sample per interval, on the same kind of schedule the engine keeps for a
        // sample interval: only those samples are made and passed on (`mean` averages every sample).
        subscription.sampleInterval = sampling.mode == .latest ? effectiveInterval(sampling.interval) : 0
        subscriptions.withLock { $0[service] = subscription }
        engine.subscribe(subscription)
    }

    private func stopUpdates(_ service: MotionService) {
        if let subscription = subscriptions.withLock({ $0.removeValue(forKey: service) }) {
            engine.unsubscribe(subscription)
        }
    }

    /// The reference frames the device can deliver device motion in: the 6-axis frame with an accelerometer
    /// and gyroscope, the others with a magnetometer too, true north only with a known declination.
    private func availableFrames() -> [AttitudeReferenceFrame] {
        guard let sensors = engine.deviceInfo?.sensors else { return [] }
        let hasDeclination = engine.magneticDeclination != nil
        return AttitudeReferenceFrame.allCases.filter { frame in
            sensors.isSuperset(of: MotionEngine.requiredSensors(.deviceMotion(frame)))
                && (frame != .xTrueNorthZVertical || hasDeclination)
        }
    }

    // MARK: - Data (the device's thread)

    private func receive(_ samples: [MotionSample]?, fault: MotionEngineFault?, from service: MotionService) {
        guard let samples else { return report(fault, for: service) }
        if service == .deviceMotion {
            return receiveDeviceMotion(samples.compactMap { if case .deviceMotion(let motion) = $0 { motion } else { nil } })
        }
        let vectors = samples.compactMap { if case .vector(let reading) = $0 { reading } else { nil } }
        guard let (client, qos, expiry) = readyToPublish(service) else { return }
        let (messages, batched) = pipelines.withLock { $0.add(vectors, to: service) }
        for message in messages {
            publish(encoder.encode(message.values, service: service, seq: message.sequence, batched: batched),
                    to: topics.data(service), qos: qos, expiry: expiry, on: client)
        }
    }

    private func receiveDeviceMotion(_ samples: [DeviceMotionSample]) {
        guard let (client, qos, expiry) = readyToPublish(.deviceMotion) else { return }
        let (messages, batched) = pipelines.withLock { ($0.deviceMotion.add(samples), $0.deviceMotion.isBatched) }
        for message in messages {
            publish(encoder.encode(message.values, seq: message.sequence, batched: batched),
                    to: topics.data(.deviceMotion), qos: qos, expiry: expiry, on: client)
        }
    }

    /// The client and the topic's QoS and expiry when `service` should publish; clears a fault that data
    /// arriving again has ended.
    private func readyToPublish(_ service: MotionService) -> (MQTTClient, MQTTQoS, UInt32?)? {
        let (ready, recovered) = state.withLock { state -> ((MQTTClient, MQTTQoS, UInt32?)?, Bool) in
            guard !state.shuttingDown, let client = state.client, let serviceState = state.services[service],
                  serviceState.active else { return (nil, false) }
            let recovered = serviceState.error != nil
            if recovered { state.services[service]!.error = nil }
            return ((client, serviceState.qos, serviceState.settings.messageExpiry), recovered)
        }
        if recovered, let (client, _, _) = ready {
            AgentLog.info("\(service.topicName): data flows again")
            controlQueue.async { try? self.publishStatus(service, on: client) }
        }
        return ready
    }

    private func publish(_ payload: [UInt8], to topic: String, qos: MQTTQoS, expiry: UInt32?, on client: MQTTClient) {
        // Publishing while disconnected fails for QoS 0: the message is gone, and `seq` shows the gap.
        _ = try? client.publish(MQTTMessage(
            topic: topic, payload: payload, qos: qos, retain: false, contentType: Self.json, messageExpiryInterval: expiry))
    }

    /// A sensor fault: the service is unavailable with the reason until data flows again.
    private func report(_ fault: MotionEngineFault?, for service: MotionService) {
        let reason = fault?.description ?? "no data"
        controlQueue.async {
            let changed = self.state.withLock { state -> Bool in
                guard state.services[service]!.error != reason else { return false }
                state.services[service]!.error = reason
                return true
            }
            guard changed else { return }
            AgentLog.info("\(service.topicName): unavailable: \(reason)")
            if let client = self.state.withLock({ $0.client }) {
                try? self.publishStatus(service, on: client)
            }
        }
    }

    // MARK: - Health (control queue)

    private func scheduleHealthReports(every interval: Double) {
        healthTimer?.cancel()
        healthTimer = nil
        guard interval > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: controlQueue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.publishHealth() }
        timer.resume()
        healthTimer = timer
    }

    private func publishHealth() {
        let uptime = ProcessInfo.processInfo.systemUptime - startUptime
        let counters = pipelines.withLock { pipelines in
            Dictionary(uniqueKeysWithValues: MotionService.allCases.map { ($0, pipelines.counters($0)) })
        }
        let (client, services, last) = state.withLock { state in
            let last = state.lastHealth
            state.lastHealth = (uptime, counters.mapValues(\.messages))
            return (state.client, state.services, last)
        }
        guard let client else { return }
        var report = HealthReport(
            uptime: uptime, connected: client.isConnected, diagnostics: engine.diagnostics,
            broker: client.statistics, protocolVersion: client.negotiatedProtocolVersion,
            commandsDropped: droppedCommands.load(ordering: .relaxed))
        for service in MotionService.allCases {
            let messages = counters[service]!.messages
            let rate = last.map { Double(messages - ($0.messages[service] ?? 0)) / max(uptime - $0.uptime, 1e-3) }
            report.services.append(.init(
                service: service, active: services[service]!.active, messages: messages,
                samples: counters[service]!.samples, messageRate: rate, error: services[service]!.error))
        }
        _ = try? client.publish(MQTTMessage(
            topic: topics.health, string: report.json(), qos: .atMostOnce, retain: false, contentType: Self.json))
    }

    // MARK: - Helpers

    private func isAvailable(_ service: MotionService) -> Bool {
        let needed: IMUSensors =
            switch service {
            case .accelerometer: .accelerometer
            case .gyro: .gyroscope
            case .magnetometer: .magnetometer
            case .deviceMotion: [.accelerometer, .gyroscope]
            }
        return engine.deviceInfo?.sensors.isSuperset(of: needed) ?? false
    }

    private static func sensorName(_ service: MotionService) -> String {
        switch service {
        case .accelerometer: "accelerometer"
        case .gyro: "gyroscope"
        case .magnetometer: "magnetometer"
        case .deviceMotion: "accelerometer and gyroscope"
        }
    }

    /// The interval in effect: the requested one, but not shorter than the device's sample period.
    private func effectiveInterval(_ requested: Double) -> Double {
        guard let rate = engine.deviceInfo?.defaultSampleRate, rate > 0 else { return requested }
        return max(requested, 1 / rate)
    }

    private func infoPayload() -> String {
        let configuration = self.configuration
        let info = engine.deviceInfo
        return InfoPayload(
            agent: "motion-agent", version: version, deviceID: configuration.resolvedDeviceID,
            device: InfoPayload.Device(
                specification: configuration.device, driver: info?.driver, chip: info?.chip,
                sampleRateHz: info?.defaultSampleRate),
            services: MotionService.allCases.map { service in
                InfoPayload.Service(
                    service: service, topic: topics.data(service), units: InfoPayload.units(of: service),
                    mode: configuration.settings(for: service).sampling.mode.rawValue)
            },
            started: startDate.ISO8601Format()
        ).json()
    }
}
