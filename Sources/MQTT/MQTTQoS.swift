/// MQTT quality of service of a publication or subscription.
///
/// The raw value is the number libmosquitto and the MQTT wire protocol use.
public enum MQTTQoS: Int32, Sendable, CaseIterable {
    /// QoS 0: sent once, never acknowledged; lost if the connection is down.
    case atMostOnce = 0
    /// QoS 1: acknowledged by PUBACK, re-sent until acknowledged; may arrive more than once.
    case atLeastOnce = 1
    /// QoS 2: four-packet handshake, delivered exactly once.
    case exactlyOnce = 2
}
