import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionLog
import Synchronization

/// The motion detectors while they run: their engine subscription (device motion at the full sensor rate),
/// the pipeline it feeds, and how `{base}/events` is published (changed in place when only that changes).
struct DetectorRun: Sendable {
    var pipeline: DetectorPipeline
    let subscription: MotionSubscription
    /// The events' QoS.
    private(set) var qos = MQTTQoS.atLeastOnce
    /// The events' payload format.
    private(set) var format = PayloadFormat.json

    /// A run that publishes its events as `settings` say.
    init(pipeline: DetectorPipeline, subscription: MotionSubscription, settings: DetectorSettings) {
        self.pipeline = pipeline
        self.subscription = subscription
        deliver(as: settings)
    }

    /// Publishes the events with the QoS and format of `settings` from now on.
    mutating func deliver(as settings: DetectorSettings) {
        qos = MQTTQoS(rawValue: Int32(settings.qos)) ?? .atLeastOnce
        format = settings.format
    }
}

// The on-board motion detectors: `{base}/events` and the retained `{base}/state/{name}`.
extension MotionAgent {
    /// On the control queue: starts the detectors the configuration switches on, over device motion in
    /// the device-motion service's reference frame (or `xArbitraryZVertical` when the device cannot
    /// compute that one), unless they run already or the device is not open.
    func startDetectors() {
        let configuration = self.configuration
        let settings = configuration.detectors
        guard DetectorSettings.Detector.allCases.contains(where: settings.isOn), state.withLock({ $0.deviceError == nil && !$0.shuttingDown }), detectorRun.withLock({ $0 == nil }),
            engine.hasSensors(for: .deviceMotion(.xArbitraryZVertical))
        else { return }
        let requested = configuration.settings(for: .deviceMotion).referenceFrame
        let frame = requested.map { engine.availableFrames.contains($0) ? $0 : .xArbitraryZVertical } ?? .xArbitraryZVertical
        let pipeline = DetectorPipeline(
            settings: settings, sampleRate: engine.sampleRate, frame: frame, wallClockOffset: encoder.wallClockOffset,
            sequence: lastEventSequence.load(ordering: .relaxed))
        if pipeline.bands != settings.bank.vibration.bands, settings.isOn(.vibration) {
            // Clipping the default 20–100 Hz band to a 200 Hz device's 90 Hz is expected; a band lost is not.
            let rate = (engine.sampleRate ?? 0).fixedDecimal(places: 0)
            let inUse = pipeline.bands.map { "\($0.lowerBound.fixedDecimal(places: 1))–\($0.upperBound.fixedDecimal(places: 1)) Hz" }
            let message = "detectors.vibration.bands: the device samples at \(rate) Hz; bands in use: "
                + (inUse.isEmpty ? "none (the vibration detector is off)" : inUse.joined(separator: ", "))
            if pipeline.bands.count < settings.bank.vibration.bands.count { Logger.agent.warning(message) } else { Logger.agent.info(message) }
        }
        let subscription = MotionSubscription(
            service: .deviceMotion(frame), interval: 0,
            sink: .batch { [weak self] subscription, samples, _ in
                guard !subscription.isCancelled, let samples else { return }
                self?.receiveDetectorSamples(
                    samples.compactMap { if case .deviceMotion(let motion) = $0 { motion } else { nil } }, from: subscription)
            })
        detectorRun.withLock { $0 = DetectorRun(pipeline: pipeline, subscription: subscription, settings: settings) }
        if !engine.subscribe(subscription) {
            detectorRun.withLock { $0 = nil }
            Logger.agent.warning("motion detectors: the device cannot deliver device motion")
        }
    }

    /// On the control queue: stops the detectors (the event count goes on when they start again).
    func stopDetectors() {
        guard let run = detectorRun.withLock({ run -> DetectorRun? in defer { run = nil }; return run }) else { return }
        // What the run found before the stop is queued already (under the run's lock): published now, and
        // nothing of the run after this returns.
        detectorPublisher.sync {}
        engine.unsubscribe(run.subscription)
        lastEventSequence.store(run.pipeline.sequence, ordering: .relaxed)
    }

    /// On the control queue, after the detectors' settings changed: the detectors start over when what
    /// they detect changed (`restart`; a change of the events' QoS or format alone keeps them, with their
    /// states and tilt reference, and takes effect in the running one), and the states and discovery are
    /// announced again.
    func detectorSettingsChanged(restart: Bool) {
        let settings = configuration.detectors
        if restart {
            stopDetectors()
            startDetectors()
            // The steps and activity services follow the moving and activity thresholds.
            activityMonitor.setDetectors(DetectorPipeline.activityBank(settings))
        } else {
            detectorRun.withLock { $0?.deliver(as: settings) }
        }
        if let client = state.withLock({ $0.shuttingDown ? nil : $0.client }), client.isConnected {
            announceDetectors(on: client)
        }
        Logger.agent.notice(!settings.enabled ? "motion detectors off" : restart ? "motion detectors restarted with new settings"
            : "motion events now QoS \(settings.qos), \(settings.format.rawValue)")
    }

    /// On the device's thread: feeds the detectors and publishes what they found: events on
    /// `{base}/events` (the configured QoS and format; QoS 1 and 2 are kept in the offline buffer while the
    /// broker is away), changed states retained on `{base}/state/{name}` while connected (a reconnect
    /// announces the states in force, so a state is not queued for later).
    ///
    /// The run's lock is held to feed the pipeline and queue what it found on ``detectorPublisher`` (in the
    /// order found); the writes happen there, without a lock. ``stopDetectors()`` empties that queue before
    /// it returns, and ``announceDetectors(on:)`` publishes on it, so that nothing found by a run that was
    /// stopped (or by another subscription's batch still under way) is published after the stop, and a
    /// state announced is never overtaken by an older one.
    func receiveDetectorSamples(_ samples: [DeviceMotionSample], from subscription: MotionSubscription) {
        guard let client = state.withLock({ $0.shuttingDown ? nil : $0.client }) else { return }
        detectorRun.withLock { run in
            guard run?.subscription === subscription else { return }
            let output = run!.pipeline.add(samples)
            guard !(output.events.isEmpty && output.states.isEmpty) else { return }
            let (qos, format) = (run!.qos, run!.format)
            detectorPublisher.async { [weak self] in self?.publishDetections(output, qos: qos, format: format, on: client) }
        }
    }

    /// On ``detectorPublisher``: the events found (counted) and, while connected, the states changed.
    private func publishDetections(_ output: DetectorPipeline.Output, qos: MQTTQoS, format: PayloadFormat, on client: any MessageTransport) {
        for event in output.events {
            publish(event.encoded(format), to: topics.events, qos: qos, expiry: nil, format: format, on: client)
            eventCounts.withLock { $0[event.type, default: 0] += 1 }
        }
        guard client.isConnected else { return }
        for state in output.states { publishState(state, on: client) }
    }

    /// On (re)connect and after the detectors' settings changed: the detectors' Home Assistant discovery,
    /// the states in force (retained), and empty retained messages for the states no detector keeps now
    /// (after their entities are removed, so that Home Assistant never renders an empty state).
    func announceDetectors(on client: any MessageTransport) {
        publishDetectorDiscovery(on: client)
        detectorPublisher.sync {
            let (published, inForce) = detectorRun.withLock { run in (publishedStates(of: run), run?.pipeline.states ?? [:]) }
            for name in MotionStateName.allCases {
                if published.contains(name) {
                    if let state = inForce[name] { publishState(state, on: client) }
                } else {
                    _ = try? client.publish(MQTTMessage(topic: topics.state(name), payload: [], qos: .atLeastOnce, retain: true))
                }
            }
        }
    }

    /// The states published: those of the running pipeline (a vibration meter without a usable band keeps
    /// none), or, while the detectors wait for the device, those the settings switch on.
    private func publishedStates(of run: DetectorRun?) -> Set<MotionStateName> {
        Set(run?.pipeline.stateNames ?? configuration.detectors.publishedStates)
    }

    private func publishState(_ state: MotionStatePayload, on client: any MessageTransport) {
        _ = try? client.publish(MQTTMessage(
            topic: topics.state(state.name), string: state.json(), qos: .atLeastOnce, retain: true, contentType: Self.json))
    }

    /// With Home Assistant discovery on: a device trigger per event type and an entity per state of the
    /// detectors that run; empty retained messages (which remove them) for the others, and for every event
    /// trigger while the events are CBOR (Home Assistant's templates read JSON only).
    func publishDetectorDiscovery(on client: any MessageTransport) {
        let homeAssistant = configuration.homeAssistant
        guard homeAssistant.discovery else { return }
        let settings = configuration.detectors
        let discovery = HomeAssistantDiscovery(
            discoveryPrefix: homeAssistant.discoveryPrefix, topics: topics, model: engine.deviceInfo?.chip ?? configuration.device,
            version: version)
        let running = detectorRun.withLock { publishedStates(of: $0) }
        let events = Set(Self.eventTypes(of: settings))
        for (name, entity) in discovery.stateEntities() {
            retain(entity, present: running.contains(name), on: client)
        }
        for (type, trigger) in discovery.eventTriggers() {
            retain(trigger, present: settings.format == .json && events.contains(type), on: client)
        }
    }

    private func retain(_ entry: HomeAssistantDiscovery.Sensor, present: Bool, on client: any MessageTransport) {
        _ = try? client.publish(MQTTMessage(
            topic: entry.topic, payload: present ? Array(entry.payload.utf8) : [], qos: .atLeastOnce, retain: true,
            contentType: present ? Self.json : nil))
    }

    /// The event types the detectors that run can find.
    static func eventTypes(of settings: DetectorSettings) -> [MotionEventKind] {
        DetectorSettings.Detector.allCases.filter(settings.isOn).flatMap(\.eventKinds)
    }
}
