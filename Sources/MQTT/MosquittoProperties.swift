import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts between ``MQTTMessage``'s MQTT 5 fields and libmosquitto property lists.
enum MosquittoProperties {
    /// A newly allocated property list for the MQTT 5 fields of `message`, or `nil` when it has none.
    /// The caller owns the list and frees it with `mosquitto_property_free_all` (libmosquitto's
    /// publish calls copy it; `mosquitto_will_set_v5` takes it only when it succeeds).
    /// - Throws: ``MQTTError`` when a value does not fit (correlation data over 65,535 bytes) or
    ///   libmosquitto refuses it.
    static func make(for message: MQTTMessage) throws(MQTTError) -> OpaquePointer? {
        guard message.hasProperties else { return nil }
        var list: OpaquePointer?
        func check(_ result: Int32, _ name: String) throws(MQTTError) {
            guard MosquittoResult(result).isSuccess else {
                mosquitto_property_free_all(&list)
                throw MQTTError(code: result, operation: "set MQTT 5 property \(name) on \(message.topic)")
            }
        }
        if let contentType = message.contentType {
            try check(mosquitto_property_add_string(&list, Int32(MQTT_PROP_CONTENT_TYPE.rawValue), contentType), "content type")
        }
        if let expiry = message.messageExpiryInterval {
            try check(
                mosquitto_property_add_int32(&list, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), expiry),
                "message expiry interval")
        }
        if let responseTopic = message.responseTopic {
            try check(
                mosquitto_property_add_string(&list, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), responseTopic),
                "response topic")
        }
        if let correlationData = message.correlationData {
            guard correlationData.count <= Int(UInt16.max) else {
                mosquitto_property_free_all(&list)
                throw MQTTError(
                    code: MosquittoResult.invalid.code, operation: "publish to \(message.topic)",
                    detail: "correlation data is \(correlationData.count) bytes, at most 65535 are allowed")
            }
            let result = correlationData.withUnsafeBytes { bytes in
                mosquitto_property_add_binary(
                    &list, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), bytes.baseAddress, UInt16(bytes.count))
            }
            try check(result, "correlation data")
        }
        return list
    }

    /// Copies the MQTT 5 fields found in a received property list into `message`.
    static func read(_ list: OpaquePointer?, into message: inout MQTTMessage) {
        guard let list else { return }
        var text: UnsafeMutablePointer<CChar>?
        if mosquitto_property_read_string(list, Int32(MQTT_PROP_CONTENT_TYPE.rawValue), &text, false) != nil, let text {
            message.contentType = String(cString: text)
            free(text)
        }
        text = nil
        if mosquitto_property_read_string(list, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), &text, false) != nil, let text {
            message.responseTopic = String(cString: text)
            free(text)
        }
        var expiry: UInt32 = 0
        if mosquitto_property_read_int32(list, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), &expiry, false) != nil {
            message.messageExpiryInterval = expiry
        }
        var bytes: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        if mosquitto_property_read_binary(list, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &bytes, &length, false) != nil {
            message.correlationData = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
            free(bytes)
        }
    }
}
