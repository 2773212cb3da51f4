#if canImport(Glibc)
import Glibc
#endif
import MotionContract
import MotionEngine
import MotionFusion
import MQTT
import Synchronization

/// A remote board's topics on an MQTT broker as a ``MotionSource``: what `CMMotionManager` reads when made
/// with `init(linuxRemoteDevice:broker:prefix:)`.
///
/// - Starting a stream subscribes to the board's data topic and sends the board the start command with
///   the subscription's interval (and, for device motion, its reference frame), so the board publishes
///   at the rate asked for. Samples arrive with the board's timestamps (seconds since the board booted).
/// - Stopping only unsubscribes here: it never stops the board's service, because another program (or
///   another manager) may be reading the same board; the last interval asked for wins on the board.
///   `motionctl stop` stops a service for everyone.
/// - Availability follows the board's retained status and service statuses; when the board goes offline
///   (or a service becomes unavailable) every subscription of it receives one not-available fault, and
///   data simply flows again when the board is back.
///
/// Thread-safe; samples and faults are delivered on the MQTT client's network thread.
public final class RemoteMotionSource: MotionSource {
    /// The board's topics.
    public let topics: TopicLayout

    private let clientBox = Mutex<MQTTClient?>(nil)
    private let state = Mutex(State())

    private struct State: Sendable {
        var online: Bool?
        var statuses: [MotionService: ServiceStatus] = [:]
        var sampleRate: Double?
        var subscriptions: [MotionService: [MotionSubscription]] = [:]
        var faulted: Set<MotionService> = []
        var synchronized = false
    }

    /// Connects to `broker` and reads the board's retained availability, information and statuses.
    /// - Parameters:
    ///   - deviceID: the board's device id (the second topic level).
    ///   - broker: the broker.
    ///   - prefix: the first topic level (`motion`).
    ///   - timeout: how long to wait for the connection and the retained messages.
    /// - Throws: ``RemoteMotionError``.
    public init(deviceID: String, broker: MQTTBrokerAddress, prefix: String = "motion", timeout: Duration = .seconds(5))
        throws(RemoteMotionError)
    {
        for (name, level) in [("device id", deviceID), ("prefix", prefix)] where !TopicLayout.isTopicLevel(level) {
            throw .invalidTopicLevel("\(name) \"\(level)\" is not one topic level")
        }
        topics = TopicLayout(prefix: prefix, deviceID: deviceID)
        let sync = "remotemotion/sync/\(UInt64.random(in: 1...UInt64.max))"
        let client: MQTTClient
        do {
            client = try MQTTClient(
                configuration: MQTTClientConfiguration(
                    broker: broker, clientID: "remotemotion-\(deviceID)-\(UInt32.random(in: 1...UInt32.max))")
            ) { [weak self] event in
                guard let self else { return }
                switch event {
                case .connected:
                    self.subscribeAll(sync: sync)
                case .message(let message):
                    if message.topic == sync {
                        self.state.withLock { $0.synchronized = true }
                    } else {
                        self.receive(message)
                    }
                case .connectionRefused, .disconnected, .offlineBufferProblem, .published:
                    break
                }
            }
            clientBox.withLock { $0 = client }
            try client.start()
        } catch {
            throw .unreachable("\(broker): \(error)")
        }
        guard client.waitUntilConnected(timeout: timeout) else {
            client.shutdown(timeout: .seconds(1))
            throw .unreachable("\(broker): no connection within \(timeout)")
        }
        // The marker comes back after the retained messages of the subscriptions sent before it.
        let deadline = ContinuousClock.now + timeout
        while !state.withLock({ $0.synchronized }) && ContinuousClock.now < deadline { usleep(10_000) }
    }

    deinit {
        clientBox.withLock { $0 }?.shutdown(timeout: .seconds(1))
    }

    // MARK: - MotionSource

    @discardableResult
    public func subscribe(_ subscription: MotionSubscription) -> Bool {
        // A board publishes device motion in Apple's units only; its detectors read it as such.
        if case .fusedMotion = subscription.service { return false }
        let service = subscription.service.service
        let (first, available) = state.withLock { state in
            let first = state.subscriptions[service, default: []].isEmpty
            state.subscriptions[service, default: []].append(subscription)
            return (first, state.online == true && state.statuses[service]?.available == true)
        }
        guard let client = clientBox.withLock({ $0 }) else { return false }
        if first { _ = try? client.subscribe(topics.data(service), qos: .atMostOnce) }
        sendStart(subscription, on: client)
        if !available { fault([service], "The remote device \(topics.base) is not available.") }
        return true
    }

    public func unsubscribe(_ subscription: MotionSubscription) {
        subscription.cancel()
        let service = subscription.service.service
        let last = state.withLock { state in
            state.subscriptions[service]?.removeAll { $0 === subscription }
            return state.subscriptions[service]?.isEmpty ?? true
        }
        if last, let client = clientBox.withLock({ $0 }) { try? client.unsubscribe(topics.data(service)) }
    }

    /// Sends the board the new interval of a running subscription (the last one asked for wins there).
    public func intervalChanged(_ subscription: MotionSubscription) {
        let service = subscription.service.service
        let running = state.withLock { $0.subscriptions[service]?.contains { $0 === subscription } ?? false }
        guard running, !subscription.isCancelled, let client = clientBox.withLock({ $0 }) else { return }
        sendStart(subscription, on: client)
    }

    /// The start command for `subscription`'s stream: its interval and, for device motion, its frame.
    private func sendStart(_ subscription: MotionSubscription, on client: MQTTClient) {
        var frame: AttitudeReferenceFrame?
        if case .deviceMotion(let referenceFrame) = subscription.service { frame = referenceFrame }
        let command = ControlCommand(active: true, interval: subscription.interval, referenceFrame: frame)
        let service = subscription.service.service
        _ = try? client.publish(MQTTMessage(topic: topics.control(service), payload: command.payload(), qos: .atLeastOnce))
    }

    public func hasSensors(for stream: MotionStream) -> Bool {
        if case .fusedMotion = stream { return false }
        if case .deviceMotion(let frame) = stream { return availableFrames.contains(frame) }
        let service = stream.service
        return state.withLock { $0.online == true && $0.statuses[service]?.available == true }
    }

    public var sampleRate: Double? { state.withLock { $0.sampleRate } }

    /// The frames of a board whose device motion is available: the 6-axis ones, the magnetic one when its
    /// magnetometer is available, true north when the board publishes in it (it has a declination).
    public var availableFrames: [AttitudeReferenceFrame] {
        state.withLock { state in
            guard state.online == true, state.statuses[.deviceMotion]?.available == true else { return [] }
            var frames: [AttitudeReferenceFrame] = [.xArbitraryZVertical, .xArbitraryCorrectedZVertical]
            if state.statuses[.magnetometer]?.available == true { frames.append(.xMagneticNorthZVertical) }
            if state.statuses[.deviceMotion]?.referenceFrame == AttitudeReferenceFrame.xTrueNorthZVertical.rawValue {
                frames.append(.xTrueNorthZVertical)
            }
            return frames
        }
    }

    // MARK: - Messages

    private func subscribeAll(sync: String) {
        guard let client = clientBox.withLock({ $0 }) else { return }
        let services = state.withLock { state in state.subscriptions.filter { !$0.value.isEmpty }.keys }
        for filter in [topics.status, topics.info, "\(topics.base)/+/status", sync] + services.map(topics.data) {
            _ = try? client.subscribe(filter, qos: .atMostOnce)
        }
        _ = try? client.publish(MQTTMessage(topic: sync, payload: [], qos: .atMostOnce))
    }

    private func receive(_ message: MQTTMessage) {
        guard let kind = topics.kind(ofTopic: message.topic) else { return }
        switch kind {
        case .availability:
            let online = message.payloadString == "online"
            let wasOnline = state.withLock { state in
                defer { state.online = online }
                return state.online
            }
            if !online && wasOnline != false { fault(MotionService.allCases, "The remote device \(topics.base) went offline.") }
        case .info:
            if let info = try? InfoPayload(payload: message.payload) { state.withLock { $0.sampleRate = info.device.sampleRateHz } }
        case .status(let service):
            guard let status = try? ServiceStatus(payload: message.payload) else { return }
            state.withLock { $0.statuses[service] = status }
            if !status.available { fault([service], "The remote \(service.topicName) is not available: \(status.error ?? "unknown reason").") }
        case .data(let service):
            deliver(message.payload, of: service)
        case .health, .error, .control, .configuration, .configurationControl, .events, .state, .vibrationSpectrum:
            break
        }
    }

    private func deliver(_ payload: [UInt8], of service: MotionService) {
        let samples: [MotionSample]
        if service == .deviceMotion {
            guard let message = try? SamplePayloadDecoder.deviceMotion(payload) else { return }
            samples = message.samples.map(MotionSample.deviceMotion)
        } else {
            guard let message = try? SamplePayloadDecoder.vectors(payload, service: service) else { return }
            samples = message.samples.map(MotionSample.vector)
        }
        let subscriptions = state.withLock { state in
            state.faulted.remove(service)
            return state.subscriptions[service] ?? []
        }
        for subscription in subscriptions where !subscription.isCancelled { subscription.deliver(batch: samples) }
    }

    /// One not-available fault per episode to every subscription of `services`.
    private func fault(_ services: [MotionService], _ description: String) {
        let subscriptions = state.withLock { state in
            services.filter { state.faulted.insert($0).inserted }.flatMap { state.subscriptions[$0] ?? [] }
        }
        let fault = MotionEngineFault(.notAvailable, description)
        for subscription in subscriptions where !subscription.isCancelled { subscription.deliver(fault) }
    }
}

/// Why a remote device cannot be read.
public enum RemoteMotionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broker URL cannot be used.
    case invalidBroker(String)
    /// The device id or prefix is not one topic level.
    case invalidTopicLevel(String)
    /// The broker cannot be reached.
    case unreachable(String)

    public var description: String {
        switch self {
        case .invalidBroker(let reason): "invalid broker: \(reason)"
        case .invalidTopicLevel(let reason): reason
        case .unreachable(let reason): "cannot reach the broker \(reason)"
        }
    }
}
