import MQTT
import MotionContract
import MotionEngine
import MotionHAL
import MotionLog
import MotionMath

/// What the agent says about itself, a part with no state of its own: `online` and the last will's
/// `offline`, the retained `info`, every service status with its Home Assistant discovery, and `config`.
///
/// Threading: on the control queue (``status(of:)`` asks the engine and the altimeter).
final class AgentAnnouncer: Sendable {
    private let core: AgentCore
    private let detectors: DetectorService
    /// The Sparkplug B edge node, told of every status change (nil: none configured).
    let sparkplug: SparkplugEdgeNode?

    init(core: AgentCore, detectors: DetectorService, sparkplug: SparkplugEdgeNode?) {
        self.core = core
        self.detectors = detectors
        self.sparkplug = sparkplug
    }

    private var topics: TopicLayout { core.topics }

    /// On every (re)connect: the control subscription (`{base}/+/set`, which takes `{base}/config/set`
    /// too), `online`, `info`, every service status, `config`, and the detectors' states and discovery.
    /// - Returns: the client announced on; nil when there is none or the agent shuts down.
    @discardableResult
    func announce() -> (any MessageTransport)? {
        guard let client = core.liveClient else { return nil }
        let configuration = core.configuration
        Logger.agent.notice("connected to \(client.currentBroker ?? configuration.broker.address)")
        do {
            // Retain-as-published: a retained command is recognisable even when it arrives live.
            try client.subscribe(topics.allControlTopics, qos: .atLeastOnce, retainAsPublished: true)
            try client.publish(availability("online"))
            try publishInfo(on: client)
            for service in MotionService.allCases { try publishStatus(service, on: client) }
            publishConfiguration(on: client)
            detectors.announce(configuration, on: client)
        } catch {
            Logger.agent.error("announcing on the broker failed: \(error)")
        }
        return client
    }

    /// The retained `{base}/status` message (`online`, or `offline` as the last will and at shutdown).
    func availability(_ text: String) -> MQTTMessage {
        MQTTMessage(topic: topics.status, string: text, qos: .atLeastOnce, retain: true, contentType: "text/plain")
    }

    /// `service`'s status may have changed: its retained status and discovery are published when there is a
    /// native connection, and the Sparkplug edge node is told.
    func statusChanged(_ service: MotionService) {
        sparkplug?.statusChanged(service, status(of: service))
        if let client = core.client {
            try? publishStatus(service, on: client)
        }
    }

    /// Publishes `service`'s retained status and its discovery.
    func publishStatus(_ service: MotionService, on client: any MessageTransport) throws {
        let status = status(of: service)
        try client.publish(Self.statusMessage(status, topic: topics.status(service)))
        try publishDiscovery(service, active: status.active, on: client)
    }

    /// The retained status message of a service.
    static func statusMessage(_ status: ServiceStatus, topic: String) -> MQTTMessage {
        MQTTMessage(topic: topic, string: status.json(), qos: .atLeastOnce, retain: true, contentType: PayloadFormat.json.contentType)
    }

    /// With Home Assistant discovery on: the retained discovery messages of `service`'s sensors while it
    /// is active, empty retained messages (which remove them) while it is stopped or disabled, or publishes
    /// CBOR (Home Assistant's templates read JSON only); for vibration also a device trigger per zone.
    private func publishDiscovery(_ service: MotionService, active: Bool, on client: any MessageTransport) throws {
        let configuration = core.configuration
        let settings = configuration.homeAssistant
        guard settings.discovery else { return }
        let active = active && configuration.settings(for: service).format == .json
        let discovery = HomeAssistantDiscovery(
            discoveryPrefix: settings.discoveryPrefix, topics: topics, model: core.engine.deviceInfo?.chip ?? configuration.device,
            version: core.version)
        let triggers = service == .vibration ? discovery.vibrationZoneTriggers() : []
        for sensor in discovery.sensors(of: service) + triggers {
            try client.publish(MQTTMessage(
                topic: sensor.topic, payload: active ? Array(sensor.payload.utf8) : [], qos: .atLeastOnce, retain: true,
                contentType: active ? PayloadFormat.json.contentType : nil))
        }
    }

    /// The status `service` would publish now.
    func status(of service: MotionService) -> ServiceStatus {
        let (serviceState, deviceError, barometerError) = core.state.withLock {
            ($0.services[service], $0.deviceError, $0.barometerError)
        }
        // The IMU's fault is not the barometer's, and the other way round.
        let unavailableReason = (service == .altitude ? barometerError : deviceError) ?? serviceState.error
            ?? (core.isAvailable(service) ? nil : "the device has no \(AgentCore.sensorName(service))")
        return ServiceStatus(
            available: unavailableReason == nil,
            active: serviceState.active,
            interval: core.effectiveInterval(serviceState.settings.sampling.interval),
            referenceFrame: service == .deviceMotion ? serviceState.settings.referenceFrame?.rawValue : nil,
            error: unavailableReason)
    }

    /// Publishes `info` and every service status again (after the device came or changed), when connected.
    func publishDeviceState() {
        if let sparkplug {
            for service in MotionService.allCases { sparkplug.statusChanged(service, status(of: service)) }
        }
        guard let client = core.liveClient, client.isConnected else { return }
        do {
            try publishInfo(on: client)
            for service in MotionService.allCases { try publishStatus(service, on: client) }
        } catch {
            Logger.agent.error("publishing the device's state failed: \(error)")
        }
    }

    /// Publishes the retained `{base}/info`.
    private func publishInfo(on client: any MessageTransport) throws {
        try client.publish(MQTTMessage(
            topic: topics.info, string: infoPayload(), qos: .atLeastOnce, retain: true, contentType: PayloadFormat.json.contentType))
    }

    /// The `{base}/info` document of now.
    func infoPayload() -> String {
        let configuration = core.configuration
        let info = core.engine.deviceInfo
        return InfoPayload(
            agent: "motion-agent", version: core.version, deviceID: configuration.resolvedDeviceID,
            device: InfoPayload.Device(
                specification: configuration.device, driver: info?.driver, chip: info?.chip,
                sampleRateHz: info?.defaultSampleRate, accelerometerBandwidthHz: info?.accelerometerBandwidth),
            services: MotionService.allCases.map { service in
                let settings = configuration.settings(for: service)
                return InfoPayload.Service(
                    service: service, topic: topics.data(service), units: InfoPayload.units(of: service),
                    mode: settings.vibration == nil ? settings.sampling.mode.rawValue : "summary", format: settings.format,
                    band: info.flatMap {
                        settings.vibration?.measurableBand(atRate: $0.defaultSampleRate, filterBandwidth: $0.accelerometerBandwidth)
                    })
            },
            started: UTCDateTime(unixTime: core.startUnixTime).iso8601()
        ).json()
    }

    /// The report of the configuration in force.
    var configurationReport: ConfigurationReport {
        core.state.withLock { state in
            // With remote configuration off, the kept documents are not in force: everything is the file's.
            let remote = state.configuration.remoteConfiguration.enabled ? state.remote : RemoteConfiguration(version: state.remote.version)
            return state.configuration.configurationReport(
                remote: remote, ts: core.wallClock.unixTime(of: state.configurationSince), error: state.remoteError)
        }
    }

    /// Publishes the retained `{base}/config`.
    func publishConfiguration(on client: any MessageTransport) {
        do {
            try client.publish(MQTTMessage(
                topic: topics.configuration, string: configurationReport.json(), qos: .atLeastOnce, retain: true,
                contentType: PayloadFormat.json.contentType))
        } catch {
            Logger.agent.error("publishing the configuration report failed: \(error)")
        }
    }
}
