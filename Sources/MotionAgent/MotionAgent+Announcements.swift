import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionLog
import MotionMath
import Synchronization

// What the agent says about itself: `online`, `info` and every service status on each (re)connect, and
// the availability, status and info payloads.
extension MotionAgent {
    /// On every (re)connect: `online`, `info`, every service status, `config`, the detectors' states and
    /// discovery, and the control subscription
    /// (`{base}/+/set`, which takes `{base}/config/set` too).
    func announce() {
        guard let client = state.withLock({ $0.shuttingDown ? nil : $0.client }) else { return }
        Logger.agent.notice("connected to \(client.currentBroker ?? configuration.broker.address)")
        do {
            // Retain-as-published: a retained command is recognisable even when it arrives live.
            try client.subscribe(topics.allControlTopics, qos: .atLeastOnce, retainAsPublished: true)
            try client.publish(availability("online"))
            try client.publish(MQTTMessage(
                topic: topics.info, string: infoPayload(), qos: .atLeastOnce, retain: true, contentType: Self.json))
            for service in MotionService.allCases { try publishStatus(service, on: client) }
            publishConfiguration(on: client)
            detectors.announce(configuration, on: client)
            if configuration.healthInterval == 0 { try health.clear(on: client) }
        } catch {
            Logger.agent.error("announcing on the broker failed: \(error)")
        }
    }

    /// The retained `{base}/status` message.
    func availability(_ text: String) -> MQTTMessage {
        MQTTMessage(topic: topics.status, string: text, qos: .atLeastOnce, retain: true, contentType: "text/plain")
    }

    /// The content type of every JSON payload.
    static let json = "application/json"

    func publishStatus(_ service: MotionService, on client: any MessageTransport) throws {
        let status = status(of: service)
        try client.publish(MQTTMessage(
            topic: topics.status(service), string: status.json(), qos: .atLeastOnce, retain: true, contentType: Self.json))
        try publishDiscovery(service, active: status.active, on: client)
    }

    /// With Home Assistant discovery on: the retained discovery messages of `service`'s sensors while it
    /// is active, empty retained messages (which remove them) while it is stopped or disabled, or publishes
    /// CBOR (Home Assistant's templates read JSON only).
    func publishDiscovery(_ service: MotionService, active: Bool, on client: any MessageTransport) throws {
        let settings = configuration.homeAssistant
        guard settings.discovery else { return }
        let active = active && configuration.settings(for: service).format == .json
        let discovery = HomeAssistantDiscovery(
            discoveryPrefix: settings.discoveryPrefix, topics: topics, model: engine.deviceInfo?.chip ?? configuration.device,
            version: version)
        for sensor in discovery.sensors(of: service) {
            try client.publish(MQTTMessage(
                topic: sensor.topic, payload: active ? Array(sensor.payload.utf8) : [], qos: .atLeastOnce, retain: true,
                contentType: active ? Self.json : nil))
        }
    }

    /// The status `service` would publish now (control queue only: it asks the motion manager).
    func status(of service: MotionService) -> ServiceStatus {
        let (serviceState, deviceError, barometerError) = state.withLock {
            ($0.services[service], $0.deviceError, $0.barometerError)
        }
        // The IMU's fault is not the barometer's, and the other way round.
        let unavailableReason = (service == .altitude ? barometerError : deviceError) ?? serviceState.error
            ?? (isAvailable(service) ? nil : "the device has no \(Self.sensorName(service))")
        return ServiceStatus(
            available: unavailableReason == nil,
            active: serviceState.active,
            interval: effectiveInterval(serviceState.settings.sampling.interval),
            referenceFrame: service == .deviceMotion ? serviceState.settings.referenceFrame?.rawValue : nil,
            error: unavailableReason)
    }

    // MARK: - Helpers

    func isAvailable(_ service: MotionService) -> Bool {
        // Device motion in its 6-axis frame needs the least: an accelerometer and a gyroscope; so do the
        // steps and the activity, made from it.
        switch service {
        case .accelerometer: engine.hasSensors(for: .accelerometer)
        case .gyro: engine.hasSensors(for: .gyroscope)
        case .magnetometer: engine.hasSensors(for: .magnetometer)
        case .deviceMotion, .steps, .activity: engine.hasSensors(for: .deviceMotion(.xArbitraryZVertical))
        case .altitude: altimeter.isAvailable
        }
    }

    static func sensorName(_ service: MotionService) -> String {
        switch service {
        case .accelerometer: "accelerometer"
        case .gyro: "gyroscope"
        case .magnetometer: "magnetometer"
        case .deviceMotion, .steps, .activity: "accelerometer and gyroscope"
        case .altitude: "barometer"
        }
    }

    /// The interval in effect: the requested one, but not shorter than the device's sample period.
    func effectiveInterval(_ requested: Double) -> Double {
        guard let rate = engine.deviceInfo?.defaultSampleRate, rate > 0 else { return requested }
        return max(requested, 1 / rate)
    }

    func infoPayload() -> String {
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
                    mode: configuration.settings(for: service).sampling.mode.rawValue,
                    format: configuration.settings(for: service).format)
            },
            started: UTCDateTime(unixTime: startUnixTime).iso8601()
        ).json()
    }
}
