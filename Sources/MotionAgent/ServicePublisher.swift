import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionLog
import Synchronization

/// The services' data path, a part with its own state: one engine subscription (or activity listener) per
/// running service, the pipelines that sample, batch and count each topic, and the payloads they publish;
/// a fault marks the service unavailable until data flows again.
///
/// Threading: ``startUpdates(_:)``, ``stopUpdates(_:)`` and ``restart(_:)`` on the control queue; samples
/// arrive on the device's thread (the barometer's for `altitude`), where they are sampled under the
/// pipelines' lock and published after it.
final class ServicePublisher: Sendable {
    let core: AgentCore
    let announcer: AgentAnnouncer
    /// The pedometer and the activity under the `steps` and `activity` services: the engine's detector host
    /// (its listeners' bank: rest ↔ motion, steps and activity with the configured detectors' thresholds),
    /// running while either service does.
    var detectorHost: MotionDetectorHost { core.engine.detectors }
    let encoder: SamplePayloadEncoder
    let pipelines: Mutex<ServicePipelines>
    /// One engine subscription per running service, so that each takes its own sample interval (a
    /// `latest` topic gets only the samples it can publish, see ``startUpdates(_:)``).
    let subscriptions = Mutex<[MotionService: MotionSubscription]>([:])
    /// What the running `steps`, `activity` and `altitude` services hold on the detector host and the altimeter.
    let activityListeners = Mutex(ActivityListeners())
    /// The running vibration service's pipeline, and what goes on across its restarts.
    let vibration = Mutex(VibrationServiceState())
    /// `{base}/state/vibration`'s two parts (the detectors write the other).
    let vibrationState: VibrationStateBoard

    /// The data path of `core`'s services.
    /// - Throws: ``ConfigurationError`` when a service's sampling settings are unusable.
    init(core: AgentCore, announcer: AgentAnnouncer, encoder: SamplePayloadEncoder, vibrationState: VibrationStateBoard)
        throws(ConfigurationError)
    {
        self.core = core
        self.vibrationState = vibrationState
        self.announcer = announcer
        self.encoder = encoder
        let configuration = core.configuration
        pipelines = Mutex(try ServicePipelines(settings: configuration.settings(for:)))
    }

    // MARK: - Subscriptions (control queue)

    /// Starts the updates of every active service.
    func startActiveServices() {
        for service in MotionService.allCases where core.state.withLock({ $0.services[service].active }) {
            startUpdates(service)
        }
    }

    /// Starts `service`'s updates when its sensors are there (and, but for `altitude`, the IMU is open).
    func startUpdates(_ service: MotionService) {
        // The altitude service needs the barometer only.
        guard core.isAvailable(service), service == .altitude || core.state.withLock({ $0.deviceError == nil }) else { return }
        let sampling = core.state.withLock { $0.services[service].settings.sampling }
        let stream: MotionStream
        switch service {
        case .steps, .activity: return startActivityUpdates(service, interval: sampling.interval)
        case .altitude: return startAltitudeUpdates()
        case .vibration: return startVibrationUpdates()
        case .accelerometer: stream = .accelerometer
        case .gyro: stream = .gyroscope
        case .magnetometer: stream = .magnetometer
        case .deviceMotion:
            let frame = core.state.withLock { $0.services[.deviceMotion].settings.referenceFrame } ?? .defaultFrame
            guard core.engine.availableFrames.contains(frame) else {
                core.state.withLock { $0.services[.deviceMotion].error = "reference frame \(frame.rawValue) is not available on this device" }
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
        subscription.sampleInterval = sampling.mode == .latest ? core.effectiveInterval(sampling.interval) : 0
        subscriptions.withLock { $0[service] = subscription }
        core.engine.subscribe(subscription)
    }

    /// Stops `service`'s updates (nothing when it does not run).
    func stopUpdates(_ service: MotionService) {
        if let subscription = subscriptions.withLock({ $0.removeValue(forKey: service) }) {
            core.engine.unsubscribe(subscription)
        }
        stopActivityUpdates(service)
        if service == .vibration { stopVibrationUpdates() }
    }

    /// Stops `service` and starts it again with its current settings if it is active; publishes its status.
    func restart(_ service: MotionService) {
        stopUpdates(service)
        let (active, sampling) = core.state.withLock { state in
            state.services[service].error = nil
            return (state.services[service].active, state.services[service].settings.sampling)
        }
        do {
            try pipelines.withLock { try $0.reconfigure(service, sampling) }
        } catch {
            core.state.withLock { $0.services[service].error = "\(error)" }
        }
        if active { startUpdates(service) }
        announcer.statusChanged(service)
    }

    /// The pipelines' counters now.
    func counters() -> PipelineCounters {
        var counts = pipelines.withLock { pipelines in
            Dictionary(uniqueKeysWithValues: MotionService.allCases.filter { $0 != .vibration }.map { ($0, pipelines.counters($0)) })
        }
        counts[.vibration] = vibration.withLock { ($0.summaries, $0.samples) }
        return PipelineCounters(uptime: core.uptime, counts: counts, samplesAnalysed: detectorHost.samplesAnalysed)
    }

    // MARK: - Data (the device's thread)

    func receive(_ samples: [MotionSample]?, fault: MotionEngineFault?, from service: MotionService) {
        guard let samples else { return report(fault, for: service) }
        if service == .deviceMotion {
            return receiveDeviceMotion(samples.compactMap { if case .deviceMotion(let motion) = $0 { motion } else { nil } })
        }
        let vectors = samples.compactMap { if case .vector(let reading) = $0 { reading } else { nil } }
        guard let delivery = readyToPublish(service) else { return }
        // Not `let (messages, batched) = pipelines.withLock { … }`: Swift 6.0.3's SILGen crashes on a labeled
        // tuple returned through Mutex.withLock ("Remangling failed").
        var messages: [ServicePipeline<VectorSample>.Message] = []
        var batched = false
        pipelines.withLock { pipelines in (messages, batched) = pipelines.add(vectors, to: service) }
        for message in messages {
            delivery.publish(
                encoder.encode(message.values, service: service, seq: message.sequence, batched: batched, format: delivery.format),
                to: core.topics.data(service))
            delivery.sparkplug?.publish(encoder.sparkplugMetrics(message.values, service: service), of: service)
        }
    }

    private func receiveDeviceMotion(_ samples: [DeviceMotionSample]) {
        guard let delivery = readyToPublish(.deviceMotion) else { return }
        let (messages, batched) = pipelines.withLock { ($0.deviceMotion.add(samples), $0.deviceMotion.isBatched) }
        for message in messages {
            delivery.publish(
                encoder.encode(message.values, seq: message.sequence, batched: batched, format: delivery.format), to: core.topics.data(.deviceMotion))
            delivery.sparkplug?.publish(encoder.sparkplugMetrics(message.values), of: .deviceMotion)
        }
    }

    /// Where and how `service`'s messages go when it should publish (nil: it should not, or there is
    /// nowhere to publish); clears a fault that data arriving again has ended.
    func readyToPublish(_ service: MotionService) -> ServiceDelivery? {
        let sparkplug = announcer.sparkplug
        let (ready, recovered) = core.state.withLock { state -> (ServiceDelivery?, Bool) in
            guard !state.shuttingDown, state.client != nil || sparkplug != nil else { return (nil, false) }
            let client = state.client
            // Read in place: this runs for every message, and a copy of the state would copy its settings.
            guard let (delivery, recovered) = state.services.reading(service, { serviceState -> (ServiceDelivery, Bool)? in
                guard serviceState.active else { return nil }
                let delivery = ServiceDelivery(
                    client: client, qos: serviceState.qos, expiry: serviceState.settings.messageExpiry,
                    format: serviceState.settings.format, sparkplug: sparkplug)
                return (delivery, serviceState.error != nil)
            }) else { return (nil, false) }
            if recovered { state.services[service].error = nil }
            return (delivery, recovered)
        }
        if recovered, ready != nil {
            Logger.agent.notice("\(service.topicName): data flows again")
            core.controlQueue.async { self.announcer.statusChanged(service) }
        }
        return ready
    }

    /// A sensor fault: the service is unavailable with the reason until data flows again.
    func report(_ fault: MotionEngineFault?, for service: MotionService) {
        report(reason: fault?.description ?? "no data", for: service)
    }

    /// A fault with its reason: the service is unavailable until data flows again.
    func report(reason: String, for service: MotionService) {
        core.controlQueue.async {
            let changed = self.core.state.withLock { state -> Bool in
                guard state.services[service].error != reason else { return false }
                state.services[service].error = reason
                return true
            }
            guard changed else { return }
            Logger.agent.warning("\(service.topicName): unavailable: \(reason)")
            self.announcer.statusChanged(service)
        }
    }
}

/// Where one service's messages go: the native connection with the topic's QoS, expiry and format, and the
/// Sparkplug edge node.
struct ServiceDelivery {
    /// The native connection (nil: the native contract is off, or not connected yet).
    let client: (any MessageTransport)?
    let qos: MQTTQoS
    /// The topic's message expiry, s (nil: none).
    let expiry: UInt32?
    let format: PayloadFormat
    /// The Sparkplug edge node (nil: none).
    let sparkplug: SparkplugEdgeNode?

    /// Publishes a native payload, encoded only when there is a native connection.
    func publish(_ payload: @autoclosure () -> [UInt8], to topic: String) {
        client?.publishData(payload(), to: topic, qos: qos, expiry: expiry, format: format)
    }
}

extension MessageTransport {
    /// Publishes a data payload of a service or of the detectors' events: not retained, with its format's
    /// content type and the topic's message expiry (s; nil for none). Publishing while disconnected fails for
    /// QoS 0: the message is gone, and the payload's `seq` shows the gap.
    func publishData(_ payload: [UInt8], to topic: String, qos: MQTTQoS, expiry: UInt32?, format: PayloadFormat) {
        _ = try? publish(MQTTMessage(
            topic: topic, payload: payload, qos: qos, retain: false, contentType: format.contentType, messageExpiryInterval: expiry))
    }
}
