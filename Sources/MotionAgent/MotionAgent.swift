import CoreMotion
import Foundation
import MQTT
import MotionHAL
import Synchronization

/// The bridge: reads the IMU through CoreMotion and publishes the MQTT contract's topics.
///
/// Threads: libmosquitto's loop thread delivers broker events, which are handed to the serial control
/// queue at once; CoreMotion delivers samples on the data queue, where they are encoded and published.
/// The motion manager is touched only on the control queue.
public final class MotionAgent: Sendable {
    /// The configuration the agent runs with.
    public let configuration: AgentConfiguration
    /// The agent's version, reported in `{base}/info`.
    public let version: String
    /// The topics of this device.
    public let topics: TopicLayout

    private let controlQueue = DispatchQueue(label: "motion-agent.control")
    private let dataQueue: OperationQueue
    // Touched only on `controlQueue` (start, stop, intervals); CoreMotion calls back on `dataQueue`.
    nonisolated(unsafe) private let motionManager: CMMotionManager
    private let encoder: MotionPayloadEncoder
    private let startTime = Date()
    private let state: Mutex<State>

    private struct State: Sendable {
        var client: MQTTClient?
        var services: [MotionService: ServiceState]
        var deviceError: String?
        var shuttingDown = false
    }

    /// Creates an agent; nothing runs until ``start()``.
    /// - Parameters:
    ///   - configuration: a validated configuration.
    ///   - version: the agent's version for `{base}/info`.
    public init(configuration: AgentConfiguration, version: String) {
        self.configuration = configuration
        self.version = version
        topics = configuration.topics
        let queue = OperationQueue()
        queue.name = "motion-agent.data"
        queue.maxConcurrentOperationCount = 1
        dataQueue = queue
        motionManager = CMMotionManager()
        encoder = MotionPayloadEncoder(
            wallClockOffset: Date().timeIntervalSince1970 - Double(MonotonicClock.now()) / 1e9)
        state = Mutex(State(services: Dictionary(uniqueKeysWithValues: MotionService.allCases.map {
            ($0, ServiceState(settings: configuration.settings(for: $0)))
        })))
    }

    /// Opens the device, connects to the broker (retrying in the background while it is down) and
    /// starts the enabled services.
    /// - Throws: ``ConfigurationError`` when the device specification is malformed, or the MQTT client's
    ///   error when the client cannot be created.
    public func start() throws {
        do {
            try CMMotionManager.useLinuxDevice(specification: configuration.device)
        } catch let error as IMUDeviceError {
            if case .invalidSpecification(let why) = error {
                throw ConfigurationError(fieldPath: "device", reason: why)
            }
            AgentLog.info("device \(configuration.device): \(error)")
            state.withLock { $0.deviceError = error.description }
        }
        let status = topics.status
        let clientConfiguration = MQTTClientConfiguration(
            broker: configuration.broker.address,
            clientID: configuration.clientID,
            keepAlive: configuration.broker.keepAlive,
            will: MQTTMessage(topic: status, string: "offline", qos: .atLeastOnce, retain: true))
        let client = try MQTTClient(configuration: clientConfiguration) { [weak self] event in
            self?.handle(event)
        }
        state.withLock { $0.client = client }
        try client.start()
        AgentLog.info("motion-agent \(version): device \(configuration.device), broker \(configuration.broker.address), base topic \(topics.base)")
        controlQueue.sync {
            for service in MotionService.allCases where state.withLock({ $0.services[service]!.active }) {
                startUpdates(service)
            }
        }
    }

    /// Stops the services, publishes `offline`, waits for the broker to acknowledge it and disconnects
    /// cleanly (so the broker does not send the last will). Idempotent.
    /// - Parameter timeout: the longest the whole shutdown may take.
    public func shutdown(timeout: Duration = .seconds(2)) {
        let client: MQTTClient? = controlQueue.sync {
            let client = state.withLock { state -> MQTTClient? in
                guard !state.shuttingDown else { return nil }
                state.shuttingDown = true
                return state.client
            }
            for service in MotionService.allCases { stopUpdates(service) }
            return client
        }
        guard let client else { return }
        dataQueue.waitUntilAllOperationsAreFinished()
        if client.isConnected,
           let messageID = try? client.publish(MQTTMessage(topic: topics.status, string: "offline", qos: .atLeastOnce, retain: true))
        {
            _ = client.waitUntilPublished(messageID: messageID, timeout: timeout / 2)
        }
        client.shutdown(timeout: timeout / 2)
        AgentLog.info("stopped")
    }

    /// The status `service` would publish now (control queue only: it asks the motion manager).
    private func status(of service: MotionService) -> ServiceStatus {
        let (serviceState, deviceError) = state.withLock { ($0.services[service]!, $0.deviceError) }
        let unavailableReason = deviceError ?? (isAvailable(service) ? nil : "the device has no \(Self.sensorName(service))")
        return ServiceStatus(
            available: unavailableReason == nil,
            active: serviceState.active && unavailableReason == nil && serviceState.error == nil,
            interval: effectiveInterval(serviceState.interval),
            referenceFrame: service == .deviceMotion ? serviceState.referenceFrame : nil,
            error: unavailableReason ?? serviceState.error)
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
            controlQueue.async { self.handleControl(message) }
        case .published:
            break
        }
    }

    /// On every (re)connect: `online`, `info`, every service status, and the control subscription.
    private func announce() {
        guard let client = state.withLock({ $0.shuttingDown ? nil : $0.client }) else { return }
        AgentLog.info("connected to \(configuration.broker.address)")
        do {
            try client.subscribe(topics.allControlTopics, qos: .atLeastOnce)
            try client.publish(MQTTMessage(topic: topics.status, string: "online", qos: .atLeastOnce, retain: true))
            try client.publish(MQTTMessage(topic: topics.info, string: infoPayload(), qos: .atLeastOnce, retain: true))
            for service in MotionService.allCases { try publishStatus(service, on: client) }
        } catch {
            AgentLog.info("announcing on the broker failed: \(error)")
        }
    }

    // MARK: - Control (control queue)

    private func handleControl(_ message: MQTTMessage) {
        guard let service = topics.service(forControlTopic: message.topic) else { return }
        guard !message.retain else {
            AgentLog.info("ignored a retained command on \(message.topic): commands must not be retained")
            return
        }
        let command: ControlCommand
        do {
            command = try ControlCommand.parse(message.payload, for: service)
        } catch {
            answerError(error.description, service: service, payload: message.payload)
            return
        }
        if command.active == true, let reason = status(of: service).error, !status(of: service).available {
            answerError("\(service.topicName) is unavailable: \(reason)", service: service, payload: message.payload)
            return
        }
        let wasActive = state.withLock { $0.services[service]!.active }
        state.withLock { state in
            if let interval = command.interval { state.services[service]!.interval = interval }
            if let frame = command.referenceFrame { state.services[service]!.referenceFrame = frame }
            if let active = command.active { state.services[service]!.active = active }
            state.services[service]!.error = nil
        }
        let nowActive = command.active ?? wasActive
        if wasActive { stopUpdates(service) }
        if nowActive { startUpdates(service) }
        AgentLog.info("\(service.topicName): \(nowActive ? "active" : "stopped"), interval \(status(of: service).interval) s")
        if let client = state.withLock({ $0.client }) {
            try? publishStatus(service, on: client)
        }
    }

    private func answerError(_ reason: String, service: MotionService, payload: [UInt8]) {
        AgentLog.info("refused a command for \(service.topicName): \(reason)")
        var writer = JSONWriter()
        writer.field("ok", false)
        writer.field("service", service.topicName)
        writer.field("error", reason)
        writer.field("command", String(decoding: payload.prefix(200), as: UTF8.self))
        guard let client = state.withLock({ $0.client }) else { return }
        _ = try? client.publish(MQTTMessage(topic: topics.error, string: writer.finished(), qos: .atLeastOnce, retain: false))
    }

    private func publishStatus(_ service: MotionService, on client: MQTTClient) throws {
        try client.publish(MQTTMessage(
            topic: topics.status(service), string: status(of: service).json(), qos: .atLeastOnce, retain: true))
    }

    // MARK: - CoreMotion (control queue)

    private func startUpdates(_ service: MotionService) {
        guard status(of: service).available else { return }
        let interval = state.withLock { $0.services[service]!.interval }
        switch service {
        case .accelerometer:
            motionManager.accelerometerUpdateInterval = interval
            motionManager.startAccelerometerUpdates(to: dataQueue, withHandler: publishingHandler(.accelerometer, MotionPayloadEncoder.encode))
        case .gyro:
            motionManager.gyroUpdateInterval = interval
            motionManager.startGyroUpdates(to: dataQueue, withHandler: publishingHandler(.gyro, MotionPayloadEncoder.encode))
        case .magnetometer:
            motionManager.magnetometerUpdateInterval = interval
            motionManager.startMagnetometerUpdates(to: dataQueue, withHandler: publishingHandler(.magnetometer, MotionPayloadEncoder.encode))
        case .deviceMotion:
            let frameName = state.withLock { $0.services[.deviceMotion]!.referenceFrame } ?? ReferenceFrameName.defaultFrame
            let frame = ReferenceFrameName.frame(named: frameName) ?? .xArbitraryZVertical
            guard CMMotionManager.availableAttitudeReferenceFrames().contains(frame) else {
                state.withLock { $0.services[.deviceMotion]!.error = "reference frame \(frameName) is not available on this device" }
                return
            }
            motionManager.deviceMotionUpdateInterval = interval
            motionManager.startDeviceMotionUpdates(
                using: frame, to: dataQueue, withHandler: publishingHandler(.deviceMotion, MotionPayloadEncoder.encode))
        }
    }

    /// A CoreMotion handler that publishes each sample of `service`, encoded by `encode`, and reports errors.
    private func publishingHandler<Item: CMLogItem>(
        _ service: MotionService, _ encode: @escaping (MotionPayloadEncoder) -> (Item, UInt64) -> String
    ) -> (Item?, (any Error)?) -> Void {
        { [weak self] item, error in
            guard let self else { return }
            guard let item else { return self.report(error, for: service) }
            self.publishSample(service) { encode(self.encoder)(item, $0) }
        }
    }

    private func stopUpdates(_ service: MotionService) {
        switch service {
        case .accelerometer: motionManager.stopAccelerometerUpdates()
        case .gyro: motionManager.stopGyroUpdates()
        case .magnetometer: motionManager.stopMagnetometerUpdates()
        case .deviceMotion: motionManager.stopDeviceMotionUpdates()
        }
    }

    // MARK: - Data (data queue)

    private func publishSample(_ service: MotionService, encode: (UInt64) -> String) {
        let next = state.withLock { state -> (MQTTClient, UInt64, MQTTQoS)? in
            guard !state.shuttingDown, let client = state.client, state.services[service]!.active else { return nil }
            state.services[service]!.sequence += 1
            return (client, state.services[service]!.sequence, state.services[service]!.qos)
        }
        guard let (client, sequence, qos) = next else { return }
        // Publishing while disconnected fails for QoS 0: the sample is gone, and `seq` shows the gap.
        _ = try? client.publish(MQTTMessage(topic: topics.data(service), string: encode(sequence), qos: qos, retain: false))
    }

    private func report(_ error: (any Error)?, for service: MotionService) {
        let reason = error.map { ($0 as NSError).localizedDescription } ?? "no data"
        controlQueue.async {
            let changed = self.state.withLock { state -> Bool in
                guard state.services[service]!.error != reason else { return false }
                state.services[service]!.error = reason
                return true
            }
            AgentLog.info("\(service.topicName): \(reason)")
            if changed, let client = self.state.withLock({ $0.client }) {
                try? self.publishStatus(service, on: client)
            }
        }
    }

    // MARK: - Helpers

    private func isAvailable(_ service: MotionService) -> Bool {
        switch service {
        case .accelerometer: motionManager.isAccelerometerAvailable
        case .gyro: motionManager.isGyroAvailable
        case .magnetometer: motionManager.isMagnetometerAvailable
        case .deviceMotion: motionManager.isDeviceMotionAvailable
        }
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
        guard let rate = CMMotionManager.linuxDeviceInfo?.defaultSampleRate, rate > 0 else { return requested }
        return max(requested, 1 / rate)
    }

    private func infoPayload() -> String {
        var writer = JSONWriter()
        writer.field("agent", "motion-agent")
        writer.field("version", version)
        writer.field("device_id", configuration.resolvedDeviceID)
        writer.object("device") { device in
            device.field("spec", configuration.device)
            if let info = CMMotionManager.linuxDeviceInfo {
                device.field("driver", info.driver)
                device.field("chip", info.chip)
                device.field("sample_rate_hz", info.defaultSampleRate)
            }
        }
        writer.object("services") { services in
            for service in MotionService.allCases {
                services.object(service.topicName) { entry in
                    entry.field("topic", topics.data(service))
                    entry.field("units", Self.units(service))
                }
            }
        }
        writer.field("started", startTime.ISO8601Format())
        return writer.finished()
    }

    private static func units(_ service: MotionService) -> String {
        switch service {
        case .accelerometer: "acceleration: g"
        case .gyro: "rotationRate: rad/s"
        case .magnetometer: "magneticField: µT"
        case .deviceMotion: "attitude: rad, rotationRate: rad/s, gravity and userAcceleration: g, magneticField: µT, heading: degrees"
        }
    }
}
