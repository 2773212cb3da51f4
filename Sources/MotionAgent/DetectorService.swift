import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionLog
import Synchronization

/// The agent's detector pipeline as the engine's detector host steps it, and how `{base}/events` is
/// published (changed in place when only that changes).
struct DetectorProcessor: MotionDetectorProcessor {
    /// What a delivery found, with the QoS and format to publish its events with.
    struct Found: Sendable {
        let output: DetectorPipeline.Output
        let qos: MQTTQoS
        let format: PayloadFormat
    }

    var pipeline: DetectorPipeline
    /// The events' QoS.
    private(set) var qos = MQTTQoS.atLeastOnce
    /// The events' payload format.
    private(set) var format = PayloadFormat.json

    /// A processor that publishes its events as `settings` say.
    init(pipeline: DetectorPipeline, settings: DetectorSettings) {
        self.pipeline = pipeline
        deliver(as: settings)
    }

    /// Publishes the events with the QoS and format of `settings` from now on.
    mutating func deliver(as settings: DetectorSettings) {
        qos = MQTTQoS(rawValue: Int32(settings.qos)) ?? .atLeastOnce
        format = settings.format
    }

    mutating func step(_ sample: FusedMotionSample, found: MotionDetectorBank.Output, bank: borrowing MotionDetectorBank) {
        pipeline.step(sample, found: found, bank: bank)
    }

    mutating func finishDelivery() -> Found? {
        pipeline.finishDelivery().map { Found(output: $0, qos: qos, format: format) }
    }
}

/// The running detectors: the host's channel that feeds the pipeline, and the states the pipeline keeps.
struct DetectorRun: Sendable {
    let channel: MotionDetectorChannel<DetectorProcessor>
    let stateNames: [MotionStateName]
}

/// The on-board motion detectors as the agent publishes them, one part of the agent with its own state: the
/// run (a processor on the engine's detector host, fed the filter's output at the full sensor rate),
/// `{base}/events` with its `seq` across runs and counts by type, the retained `{base}/state/{name}`, and
/// the detectors' Home Assistant discovery.
///
/// Threading: ``start(_:)``, ``stop()``, ``publishEvents(as:)`` and
/// ``announce(_:on:)`` on the agent's control queue; samples arrive on the device's thread. The channel's
/// lock is held to feed the pipeline and queue what it found on a serial publisher (in the order found); the
/// writes happen there, without a lock. ``stop()`` empties that queue before it returns, and
/// ``announce(_:on:)`` publishes on it, so that nothing found by a run that was stopped (or by another
/// subscription's batch still under way) is published after the stop, and a state announced is never
/// overtaken by an older one.
final class DetectorService: Sendable {
    private let engine: MotionEngine
    private let topics: TopicLayout
    private let wallClock: WallClockAnchor
    private let version: String
    /// The run while the detectors run.
    private let run = Mutex<DetectorRun?>(nil)
    /// The one owner of what the detectors publish.
    private let publisher = DispatchQueue(label: "motion-agent.detectors")
    /// Where events and states go; nil before the agent connects and once it shuts down.
    private let client = Mutex<(any MessageTransport)?>(nil)
    /// The `seq` of the last `{base}/events` message, kept while the detectors are stopped.
    private let lastEventSequence = Atomic<UInt64>(0)
    /// Events published since the start, by type (for `health`; every type from 0).
    /// `{base}/state/vibration`'s two parts (the vibration service writes the other).
    private let vibrationState: VibrationStateBoard
    private let counts = Mutex(Dictionary(uniqueKeysWithValues: MotionEventPayload.EventType.allCases.map { ($0.rawValue, UInt64(0)) }))
    /// The Sparkplug edge node, which takes every event and state too (connected to the native broker or not).
    private let sparkplug: SparkplugEdgeNode?

    /// The detectors of an agent.
    /// - Parameters:
    ///   - engine: where device motion comes from.
    ///   - topics: the agent's topics.
    ///   - wallClock: where the events' Unix times (`ts`) come from.
    ///   - version: the agent's version, for Home Assistant's device.
    ///   - vibrationState: `{base}/state/vibration`, shared with the vibration service.
    ///   - sparkplug: the Sparkplug edge node, if any.
    init(
        engine: MotionEngine, topics: TopicLayout, wallClock: WallClockAnchor, version: String, vibrationState: VibrationStateBoard,
        sparkplug: SparkplugEdgeNode?
    ) {
        self.engine = engine
        self.sparkplug = sparkplug
        self.vibrationState = vibrationState
        self.topics = topics
        self.wallClock = wallClock
        self.version = version
    }

    /// Publishes on `client` from now on (nil: nowhere).
    func setClient(_ client: (any MessageTransport)?) {
        self.client.withLock { $0 = client }
    }

    /// Whether the detectors run.
    var isRunning: Bool { run.withLock { $0 != nil } }

    /// Events published since the start, by type.
    var eventCounts: [String: UInt64] { counts.withLock { $0 } }

    /// Starts the detectors `configuration` switches on, as a processor on the engine's detector host whose
    /// bank then reads the attitude filter's output in the device-motion service's reference frame (or
    /// `xArbitraryZVertical` when the device cannot compute that one), unless they run already or the device
    /// cannot give device motion.
    func start(_ configuration: AgentConfiguration) {
        let settings = configuration.detectors
        guard DetectorSettings.Detector.allCases.contains(where: settings.isOn), !isRunning,
            engine.hasSensors(for: .deviceMotion(.xArbitraryZVertical))
        else { return }
        let requested = configuration.settings(for: .deviceMotion).referenceFrame
        let frame = requested.map { engine.availableFrames.contains($0) ? $0 : .xArbitraryZVertical } ?? .xArbitraryZVertical
        let pipeline = DetectorPipeline(
            settings: settings, sampleRate: engine.sampleRate, frame: frame, wallClock: wallClock,
            sequence: lastEventSequence.load(ordering: .relaxed))
        if pipeline.bands != settings.bank.vibration.bands, settings.isOn(.vibration) {
            // Clipping the default 20–100 Hz band to a 200 Hz device's 90 Hz is expected; a band lost is not.
            let rate = (engine.sampleRate ?? 0).fixedDecimal(places: 0)
            let inUse = pipeline.bands.map { "\($0.lowerBound.fixedDecimal(places: 1))–\($0.upperBound.fixedDecimal(places: 1)) Hz" }
            let message = "detectors.vibration.bands: the device samples at \(rate) Hz; bands in use: "
                + (inUse.isEmpty ? "none (the vibration detector is off)" : inUse.joined(separator: ", "))
            if pipeline.bands.count < settings.bank.vibration.bands.count { Logger.agent.warning(message) } else { Logger.agent.info(message) }
        }
        // One bank for the events, the states and the steps and activity services, afresh from now.
        let channel = engine.detectors.addProcessor(
            DetectorProcessor(pipeline: pipeline, settings: settings), frame: frame,
            detectors: DetectorPipeline.bank(for: settings, bands: pipeline.bands)
        ) { [weak self] found in
            guard let self else { return }
            self.sparkplug?.detectorsFound(found.output)
            guard let client = self.client.withLock({ $0 }) else { return }
            self.publisher.async { [weak self] in self?.publish(found.output, qos: found.qos, format: found.format, on: client) }
        }
        guard let channel else {
            return Logger.agent.warning("motion detectors: the device cannot deliver device motion")
        }
        run.withLock { $0 = DetectorRun(channel: channel, stateNames: pipeline.stateNames) }
    }

    /// Stops the detectors (the event count goes on when they start again).
    func stop() {
        guard let stopped = run.withLock({ run -> DetectorRun? in defer { run = nil }; return run }) else { return }
        // Once removed, the processor is not fed; what it found before is queued already (under the
        // channel's lock): published now, and nothing of the run after this returns.
        let final = engine.detectors.removeProcessor(stopped.channel)
        publisher.sync {}
        if let final { lastEventSequence.store(final.pipeline.sequence, ordering: .relaxed) }
    }

    /// Publishes the running detectors' events with the QoS and format of `settings` from now on (a change
    /// of those alone keeps the run, with its states and tilt reference).
    func publishEvents(as settings: DetectorSettings) {
        run.withLock { $0 }?.channel.withProcessor { $0.deliver(as: settings) }
    }

    /// On the publisher: events on `{base}/events` (the configured QoS and format; QoS 1 and 2 are kept in
    /// the offline buffer while the broker is away), counted, and changed states retained on
    /// `{base}/state/{name}` while connected (a reconnect announces the states in force, so a state is not
    /// queued for later).
    private func publish(_ output: DetectorPipeline.Output, qos: MQTTQoS, format: PayloadFormat, on client: any MessageTransport) {
        for event in output.events {
            client.publishData(event.encoded(format), to: topics.events, qos: qos, expiry: nil, format: format)
            counts.withLock { $0[event.type, default: 0] += 1 }
        }
        guard client.isConnected else { return }
        for state in output.states { publishState(state, on: client) }
    }

    /// On (re)connect and after the detectors' settings changed: the detectors' Home Assistant discovery,
    /// the states in force (retained), and empty retained messages for the states no detector keeps now
    /// (after their entities are removed, so that Home Assistant never renders an empty state).
    func announce(_ configuration: AgentConfiguration, on client: any MessageTransport) {
        publishDiscovery(configuration, on: client)
        publisher.sync {
            let running = run.withLock { $0 }
            let published = publishedStates(of: running, configuration)
            let inForce = running?.channel.withProcessor { $0.pipeline.states } ?? [:]
            for name in MotionStateName.allCases {
                if published.contains(name) {
                    if let state = inForce[name] {
                        publishState(state, on: client)
                    } else if name == .vibration {
                        vibrationState.republish(on: client)  // the service's zone, before the detector has a state
                    }
                } else if name == .vibration {
                    // Cleared, unless the vibration service's zone is there.
                    vibrationState.update(on: client) { $0.detector = nil }
                } else {
                    _ = try? client.publish(MQTTMessage(topic: topics.state(name), payload: [], qos: .atLeastOnce, retain: true))
                }
            }
        }
    }

    /// The states published: those of the running pipeline (a vibration meter without a usable band keeps
    /// none), or, while the detectors wait for the device, those the settings switch on.
    private func publishedStates(of run: DetectorRun?, _ configuration: AgentConfiguration) -> Set<MotionStateName> {
        Set(run?.stateNames ?? configuration.detectors.publishedStates)
    }

    private func publishState(_ state: MotionStatePayload, on client: any MessageTransport) {
        guard state.name != .vibration else { return vibrationState.update(on: client) { $0.detector = state } }
        _ = try? client.publish(MQTTMessage(
            topic: topics.state(state.name), string: state.json(), qos: .atLeastOnce, retain: true, contentType: PayloadFormat.json.contentType))
    }

    /// With Home Assistant discovery on: a device trigger per event type and an entity per state of the
    /// detectors that run; empty retained messages (which remove them) for the others, and for every event
    /// trigger while the events are CBOR (Home Assistant's templates read JSON only).
    private func publishDiscovery(_ configuration: AgentConfiguration, on client: any MessageTransport) {
        let homeAssistant = configuration.homeAssistant
        guard homeAssistant.discovery else { return }
        let settings = configuration.detectors
        let discovery = HomeAssistantDiscovery(
            discoveryPrefix: homeAssistant.discoveryPrefix, topics: topics, model: engine.deviceInfo?.chip ?? configuration.device,
            version: version)
        let running = run.withLock { publishedStates(of: $0, configuration) }
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
            contentType: present ? PayloadFormat.json.contentType : nil))
    }

    /// The event types the detectors that run can find.
    static func eventTypes(of settings: DetectorSettings) -> [MotionEventKind] {
        DetectorSettings.Detector.allCases.filter(settings.isOn).flatMap(\.eventKinds)
    }
}
