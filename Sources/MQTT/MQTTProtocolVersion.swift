import CMosquitto

/// The MQTT protocol version a client speaks to the broker.
public enum MQTTProtocolVersion: Sendable, Equatable {
    /// MQTT 5.0: reason codes, properties (response topic, correlation data, ...).
    case v5
    /// MQTT 3.1.1, for brokers that do not speak MQTT 5.
    case v311

    /// The value of `MOSQ_OPT_PROTOCOL_VERSION`.
    var mosquittoValue: Int32 {
        switch self {
        case .v5: MQTT_PROTOCOL_V5
        case .v311: MQTT_PROTOCOL_V311
        }
    }
}
