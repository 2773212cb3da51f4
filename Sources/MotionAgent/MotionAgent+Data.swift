import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionLog
import MotionMath
import Synchronization

extension MotionAgent {
    // MARK: - Engine subscriptions (control queue)

    func startUpdates(_ service: MotionService) {
        // The altitude service needs the barometer only.
        guard isAvailable(service), service == .altitude || state.withLock({ $0.deviceError == nil }) else { return }
        let sampling = state.withLock { $0.services[service].settings.sampling }
        let stream: MotionStream
        switch service {
        case .steps, .activity: return startActivityUpdates(service, interval: sampling.interval)
        case .altitude: return startAltitudeUpdates()
        case .accelerometer: stream = .accelerometer
        case .gyro: stream = .gyroscope
        case .magnetometer: stream = .magnetometer
        case .deviceMotion:
            let frame = state.withLock { $0.services[.deviceMotion].settings.referenceFrame } ?? .defaultFrame
            guard engine.availableFrames.contains(frame) else {
                state.withLock { $0.services[.deviceMotion].error = "reference frame \(frame.rawValue) is not available on this device" }
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

    func stopUpdates(_ service: MotionService) {
        if let subscription = subscriptions.withLock({ $0.removeValue(forKey: service) }) {
            engine.unsubscribe(subscription)
        }
        stopActivityUpdates(service)
    }


    // MARK: - Data (the device's thread)

    func receive(_ samples: [MotionSample]?, fault: MotionEngineFault?, from service: MotionService) {
        guard let samples else { return report(fault, for: service) }
        if service == .deviceMotion {
            return receiveDeviceMotion(samples.compactMap { if case .deviceMotion(let motion) = $0 { motion } else { nil } })
        }
        let vectors = samples.compactMap { if case .vector(let reading) = $0 { reading } else { nil } }
        guard let (client, qos, expiry, format) = readyToPublish(service) else { return }
        // Not `let (messages, batched) = pipelines.withLock { … }`: Swift 6.0.3's SILGen crashes on a labeled
        // tuple returned through Mutex.withLock ("Remangling failed").
        var messages: [ServicePipeline<VectorSample>.Message] = []
        var batched = false
        pipelines.withLock { pipelines in (messages, batched) = pipelines.add(vectors, to: service) }
        for message in messages {
            client.publishData(encoder.encode(message.values, service: service, seq: message.sequence, batched: batched, format: format),
                to: topics.data(service), qos: qos, expiry: expiry, format: format)
        }
    }

    func receiveDeviceMotion(_ samples: [DeviceMotionSample]) {
        guard let (client, qos, expiry, format) = readyToPublish(.deviceMotion) else { return }
        let (messages, batched) = pipelines.withLock { ($0.deviceMotion.add(samples), $0.deviceMotion.isBatched) }
        for message in messages {
            client.publishData(encoder.encode(message.values, seq: message.sequence, batched: batched, format: format),
                to: topics.data(.deviceMotion), qos: qos, expiry: expiry, format: format)
        }
    }

    /// The client and the topic's QoS, expiry and payload format when `service` should publish; clears a
    /// fault that data arriving again has ended.
    func readyToPublish(_ service: MotionService) -> (any MessageTransport, MQTTQoS, UInt32?, PayloadFormat)? {
        let (ready, recovered) = state.withLock { state -> ((any MessageTransport, MQTTQoS, UInt32?, PayloadFormat)?, Bool) in
            let serviceState = state.services[service]
            guard !state.shuttingDown, let client = state.client, serviceState.active else { return (nil, false) }
            let recovered = serviceState.error != nil
            if recovered { state.services[service].error = nil }
            return ((client, serviceState.qos, serviceState.settings.messageExpiry, serviceState.settings.format), recovered)
        }
        if recovered, let (client, _, _, _) = ready {
            Logger.agent.notice("\(service.topicName): data flows again")
            controlQueue.async { try? self.publishStatus(service, on: client) }
        }
        return ready
    }

    /// A sensor fault: the service is unavailable with the reason until data flows again.
    func report(_ fault: MotionEngineFault?, for service: MotionService) {
        report(reason: fault?.description ?? "no data", for: service)
    }

    /// A fault with its reason: the service is unavailable until data flows again.
    func report(reason: String, for service: MotionService) {
        controlQueue.async {
            let changed = self.state.withLock { state -> Bool in
                guard state.services[service].error != reason else { return false }
                state.services[service].error = reason
                return true
            }
            guard changed else { return }
            Logger.agent.warning("\(service.topicName): unavailable: \(reason)")
            if let client = self.state.withLock({ $0.client }) {
                try? self.publishStatus(service, on: client)
            }
        }
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
