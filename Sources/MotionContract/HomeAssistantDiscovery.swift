/// Home Assistant's MQTT discovery for one device (https://www.home-assistant.io/integrations/mqtt/,
/// "MQTT Discovery"): a retained config message per sensor on
/// `{discovery prefix}/sensor/{device id}/{object id}/config`, so that the device appears in Home
/// Assistant with its sensors, units and availability. An empty retained message on the same topic
/// removes a sensor. Each sensor reads the contract's topics with a value template (either form of a
/// data message), and is available while the device is online and its service available and active.
public struct HomeAssistantDiscovery: Sendable, Equatable {
    /// One discovery message (a sensor, a binary sensor, a device trigger): its topic and config payload.
    public struct Sensor: Sendable, Equatable {
        /// `{prefix}/{component}/{device id}/{object id}/config`.
        public let topic: String
        /// The config payload (JSON).
        public let payload: String
    }

    /// Home Assistant's discovery prefix (`homeassistant`).
    public let discoveryPrefix: String
    /// The device's topics.
    public let topics: TopicLayout
    /// What Home Assistant shows as the device's model (the IMU).
    public let model: String
    /// The agent's version.
    public let version: String

    /// Creates the discovery of a device.
    public init(discoveryPrefix: String, topics: TopicLayout, model: String, version: String) {
        self.discoveryPrefix = discoveryPrefix
        self.topics = topics
        self.model = model
        self.version = version
    }

    /// The device id, as Home Assistant's node id.
    public var deviceID: String { String(topics.base.split(separator: "/").last ?? "") }

    /// The sensors of `service`: its values (three axes; for device motion roll, pitch and heading; steps,
    /// distance and cadence; the activity; relative altitude and pressure) and its measured message rate
    /// (from `health`); for vibration the velocity RMS, the zone and the running speed.
    public func sensors(of service: MotionService) -> [Sensor] {
        let latest = "{% set m = value_json.samples[-1] if value_json.samples is defined else value_json %}"
        var sensors: [Sensor] = []
        switch service {
        case .accelerometer, .gyro, .magnetometer:
            let (field, unit, label) = switch service {
                case .accelerometer: ("acceleration", "g", "Acceleration")
                case .gyro: ("rotationRate", "rad/s", "Rotation rate")
                default: ("magneticField", "µT", "Magnetic field")
                }
            for axis in ["x", "y", "z"] {
                sensors.append(sensor(
                    service, objectID: "\(service.topicName)_\(axis)", name: "\(label) \(axis)", stateTopic: topics.data(service),
                    template: "\(latest){{ m.\(field).\(axis) }}", unit: unit))
            }
        case .deviceMotion:
            let degrees = "57.29577951308232"
            sensors.append(sensor(
                service, objectID: "roll", name: "Roll", stateTopic: topics.data(service),
                template: "\(latest){{ (m.attitude.roll * \(degrees)) | round(2) }}", unit: "°"))
            sensors.append(sensor(
                service, objectID: "pitch", name: "Pitch", stateTopic: topics.data(service),
                template: "\(latest){{ (m.attitude.pitch * \(degrees)) | round(2) }}", unit: "°"))
            sensors.append(sensor(
                service, objectID: "heading", name: "Heading", stateTopic: topics.data(service),
                template: "\(latest){{ m.heading | round(1) if m.heading >= 0 else None }}", unit: "°"))
        case .steps:
            // Totals since the service started: a restart is a reset, which `total_increasing` expects.
            sensors.append(sensor(
                service, objectID: "steps", name: "Steps", stateTopic: topics.data(service), template: "\(latest){{ m.steps }}",
                unit: "steps", stateClass: "total_increasing"))
            sensors.append(sensor(
                service, objectID: "distance", name: "Distance walked", stateTopic: topics.data(service),
                template: "\(latest){{ m.distance | round(1) }}", unit: "m", deviceClass: "distance", stateClass: "total_increasing"))
            sensors.append(sensor(
                service, objectID: "cadence", name: "Cadence", stateTopic: topics.data(service),
                template: "\(latest){{ ((m.cadence | default(0)) * 60) | round(0) }}", unit: "steps/min"))
        case .activity:
            sensors.append(sensor(
                service, objectID: "current_activity", name: "Current activity", stateTopic: topics.data(service), template: "\(latest){{ m.activity }}",
                unit: nil, stateClass: nil))
        case .altitude:
            sensors.append(sensor(
                service, objectID: "relative_altitude", name: "Relative altitude", stateTopic: topics.data(service),
                template: "\(latest){{ m.relativeAltitude | round(2) }}", unit: "m", deviceClass: "distance"))
            sensors.append(sensor(
                service, objectID: "pressure", name: "Pressure", stateTopic: topics.data(service),
                template: "\(latest){{ m.pressure | round(3) }}", unit: "kPa", deviceClass: "atmospheric_pressure"))
        case .vibration:
            sensors.append(sensor(
                service, objectID: "vibration_velocity", name: "Vibration velocity", stateTopic: topics.data(service),
                template: "{{ value_json.velocityRMS | round(2) }}", unit: "mm/s", deviceClass: "speed"))
            sensors.append(sensor(
                service, objectID: "vibration_zone", name: "Vibration zone", stateTopic: topics.data(service),
                template: "{{ value_json.zone }}", unit: nil, deviceClass: "enum", stateClass: nil, options: VibrationPayload.zones))
            sensors.append(sensor(
                service, objectID: "running_speed", name: "Running speed", stateTopic: topics.data(service),
                template: "{{ value_json.runningSpeed.rpm | round(0) if value_json.runningSpeed is defined else None }}", unit: "rpm"))
        }
        sensors.append(sensor(
            service, objectID: "\(service.topicName)_rate", name: "\(service.topicName) rate", stateTopic: topics.health,
            template: "{{ value_json.services['\(service.topicName)'].rate_hz | default(0) }}", unit: "Hz",
            deviceClass: "frequency", diagnostic: true))
        return sensors
    }

    private func sensor(
        _ service: MotionService, objectID: String, name: String, stateTopic: String, template: String, unit: String?,
        deviceClass: String? = nil, stateClass: String? = "measurement", options: [String]? = nil, diagnostic: Bool = false
    ) -> Sensor {
        var writer = JSONWriter()
        writer.field("name", name)
        writer.field("unique_id", "motionbridge_\(deviceID)_\(objectID)")
        writer.field("state_topic", stateTopic)
        writer.field("value_template", template)
        if let unit { writer.field("unit_of_measurement", unit) }
        if let stateClass { writer.field("state_class", stateClass) }
        if let deviceClass { writer.field("device_class", deviceClass) }
        if let options { writer.array("options", strings: options) }
        if diagnostic { writer.field("entity_category", "diagnostic") }
        writer.array("availability", objects: [topics.status, topics.status(service)]) { topic, entry in
            entry.field("topic", topic)
            if topic == topics.status {
                entry.field("payload_available", "online")
                entry.field("payload_not_available", "offline")
            } else {
                entry.field("value_template", "{{ 'online' if value_json.available and value_json.active else 'offline' }}")
            }
        }
        writer.field("availability_mode", "all")
        writeDevice(into: &writer)
        return Sensor(topic: "\(discoveryPrefix)/sensor/\(deviceID)/\(objectID)/config", payload: writer.finished())
    }

    /// The `device` object every discovery message carries (one Home Assistant device per MotionBridge
    /// device) and, for entities, the `origin` object (a device trigger's schema has no `origin`).
    func writeDevice(into writer: inout JSONWriter, origin writesOrigin: Bool = true) {
        writer.object("device") { device in
            device.array("identifiers", strings: ["motionbridge_\(deviceID)"])
            device.field("name", deviceID)
            device.field("manufacturer", "MotionBridge")
            device.field("model", model)
            device.field("sw_version", version)
        }
        guard writesOrigin else { return }
        writer.object("origin") { origin in
            origin.field("name", "MotionBridge motion-agent")
            origin.field("sw_version", version)
        }
    }
}
