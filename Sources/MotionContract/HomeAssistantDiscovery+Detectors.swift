// Home Assistant discovery of the motion detectors (contract 1.4): a device trigger per event type, on
// `{base}/events`, and entities for the retained `{base}/state/{name}` topics.
extension HomeAssistantDiscovery {
    /// The device triggers, one per event type:
    /// `{prefix}/device_automation/{device id}/{type}/config`, firing when a `{base}/events` message has
    /// that `type` (Home Assistant shows it as "{subtype} {type}": "free fall detected").
    public func eventTriggers() -> [(MotionEventPayload.EventType, Sensor)] {
        MotionEventPayload.EventType.allCases.map { type in
            var writer = JSONWriter()
            writer.field("automation_type", "trigger")
            writer.field("topic", topics.events)
            writer.field("value_template", "{{ value_json.type }}")
            writer.field("payload", type.rawValue)
            writer.field("type", "detected")
            writer.field("subtype", type.rawValue.replacing("_", with: " "))
            writer.field("qos", 1)
            writeDevice(into: &writer, origin: false)
            return (type, Sensor(topic: "\(discoveryPrefix)/device_automation/\(deviceID)/\(type.rawValue)/config", payload: writer.finished()))
        }
    }

    /// The device triggers of the vibration service, one per zone:
    /// `{prefix}/device_automation/{device id}/vibration_zone_{a…d}/config`, firing on the `{base}/vibration`
    /// message whose interval moved the machine into that zone (the one with a `previousZone`; Home
    /// Assistant shows "vibration zone C entered").
    public func vibrationZoneTriggers() -> [Sensor] {
        VibrationPayload.zones.map { zone in
            var writer = JSONWriter()
            writer.field("automation_type", "trigger")
            writer.field("topic", topics.data(.vibration))
            writer.field("value_template", "{{ value_json.zone if value_json.previousZone is defined else '' }}")
            writer.field("payload", zone)
            writer.field("type", "entered")
            writer.field("subtype", "vibration zone \(zone)")
            writeDevice(into: &writer, origin: false)
            return Sensor(topic: "\(discoveryPrefix)/device_automation/\(deviceID)/vibration_zone_\(zone.lowercased())/config", payload: writer.finished())
        }
    }

    /// The entities of the states: binary sensors for moving (device class `moving`), tilted and vibration
    /// (`vibration`); a vibration level sensor (g); enum sensors for the orientation and the activity. Each
    /// carries its state message's fields as attributes and is available while the device is online.
    public func stateEntities() -> [(MotionStateName, Sensor)] {
        [
            (.moving, binarySensor(.moving, name: "Moving", field: "moving", deviceClass: "moving")),
            (.tilt, binarySensor(.tilt, name: "Tilted", field: "tilted", deviceClass: nil)),
            (.vibration, binarySensor(.vibration, name: "Vibration", field: "running", deviceClass: "vibration")),
            (.vibration, entity("sensor", .vibration, objectID: "vibration_level", name: "Vibration level") { writer in
                writer.field("value_template", "{{ value_json.level }}")
                writer.field("unit_of_measurement", "g")
                writer.field("state_class", "measurement")
            }),
            (.orientation, enumSensor(.orientation, name: "Orientation", field: "orientation", options: Self.orientations)),
            (.activity, enumSensor(.activity, name: "Activity", field: "activity", options: Self.activities)),
        ]
    }

    /// The orientation names `{base}/state/orientation` carries.
    public static let orientations = DeviceOrientation.allCases.map(\.rawValue)
    /// The activity names `{base}/state/activity` carries.
    public static let activities = MotionActivityKind.allCases.map(\.rawValue)

    private func binarySensor(_ state: MotionStateName, name: String, field: String, deviceClass: String?) -> Sensor {
        entity("binary_sensor", state, objectID: state.topicName, name: name) { writer in
            writer.field("value_template", "{{ 'ON' if value_json.\(field) else 'OFF' }}")
            if let deviceClass { writer.field("device_class", deviceClass) }
        }
    }

    private func enumSensor(_ state: MotionStateName, name: String, field: String, options: [String]) -> Sensor {
        entity("sensor", state, objectID: state.topicName, name: name) { writer in
            writer.field("value_template", "{{ value_json.\(field) }}")
            writer.field("device_class", "enum")
            writer.array("options", strings: options)
        }
    }

    private func entity(
        _ component: String, _ state: MotionStateName, objectID: String, name: String, _ body: (inout JSONWriter) -> Void
    ) -> Sensor {
        var writer = JSONWriter()
        writer.field("name", name)
        writer.field("unique_id", "motionbridge_\(deviceID)_\(objectID)")
        writer.field("state_topic", topics.state(state))
        body(&writer)
        writer.field("json_attributes_topic", topics.state(state))
        writer.field("availability_topic", topics.status)
        writer.field("payload_available", "online")
        writer.field("payload_not_available", "offline")
        writeDevice(into: &writer)
        return Sensor(topic: "\(discoveryPrefix)/\(component)/\(deviceID)/\(objectID)/config", payload: writer.finished())
    }
}
