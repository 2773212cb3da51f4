import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an ``MQTTClientConfiguration`` becomes libmosquitto options: those set once on a new handle, and
/// the CONNECT properties sent with each MQTT 5 connection attempt.
enum MosquittoHandleOptions {
    /// Sets the configuration on a new handle: protocol version first (MQTT 5 calls fail without it),
    /// then thread-safety over TLS, TCP_NODELAY, send maximum, credentials, TLS and the last will.
    /// - Throws: ``MQTTError`` naming the option libmosquitto refused.
    static func apply(_ configuration: MQTTClientConfiguration, to handle: OpaquePointer) throws(MQTTError) {
        func check(_ result: Int32, _ operation: String) throws(MQTTError) {
            guard MosquittoResult(result).isSuccess else {
                throw MQTTError(code: result, operation: operation, systemErrno: errno)
            }
        }
        // The protocol version must be chosen before anything else, or v5 calls fail.
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, configuration.protocolVersion.mosquittoValue),
            "select MQTT protocol version")
        if configuration.tls != nil {
            // Over TLS only the network thread may touch the socket: publishing threads just queue.
            try check(mosquitto_threaded_set(handle, true), "enable thread-safe mode")
        }
        if configuration.tcpNoDelay {
            try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "set TCP_NODELAY")
        }
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_SEND_MAXIMUM, Int32(configuration.sendMaximum)), "set send maximum")
        if let username = configuration.username {
            try check(mosquitto_username_pw_set(handle, username, configuration.password?.secret), "set user name and password")
        }
        if let tls = configuration.tls {
            let result = mosquitto_tls_set(handle, tls.caFile, tls.caDirectory, tls.certificateFile, tls.keyFile, nil)
            guard MosquittoResult(result).isSuccess else {
                let files = [tls.caFile, tls.caDirectory, tls.certificateFile, tls.keyFile].compactMap { $0 }
                throw MQTTError(
                    code: result, operation: "configure TLS", systemErrno: errno,
                    detail: "check that these exist and are readable: \(files.joined(separator: ", "))")
            }
            if let version = tls.tlsVersion {
                try check(mosquitto_tls_opts_set(handle, 1, version, nil), "set TLS version \(version)")
            }
            try check(mosquitto_tls_insecure_set(handle, tls.insecureSkipHostnameCheck), "set TLS host name check")
        }
        if let will = configuration.will {
            try setWill(will, protocolVersion: configuration.protocolVersion, on: handle)
        }
    }

    /// Sets the last will the next CONNECT carries (MQTT 5 properties only with `.v5`).
    /// - Throws: ``MQTTError`` when libmosquitto refuses it.
    static func setWill(_ will: MQTTMessage, protocolVersion: MQTTProtocolVersion, on handle: OpaquePointer) throws(MQTTError) {
        var willProperties = protocolVersion == .v5 ? try MosquittoProperties.make(for: will) : nil
        let result = will.payload.withUnsafeBytes { payload in
            mosquitto_will_set_v5(
                handle, will.topic, Int32(payload.count), payload.baseAddress, will.qos.rawValue, will.retain,
                willProperties)
        }
        // mosquitto_will_set_v5 owns the properties only when it succeeds.
        if !MosquittoResult(result).isSuccess { mosquitto_property_free_all(&willProperties) }
        guard MosquittoResult(result).isSuccess else {
            throw MQTTError(code: result, operation: "set last will on \(will.topic)", systemErrno: errno)
        }
    }

    /// The CONNECT properties of an MQTT 5 connection (`nil` for MQTT 3.1.1, or when there are none): the
    /// session expiry interval of a persistent session (without it an MQTT 5 broker ends the session when
    /// the connection closes, whatever `cleanSession` says), and the maximum packet size this client
    /// accepts, so that the broker drops larger messages instead of sending them.
    static func connectProperties(_ configuration: MQTTClientConfiguration) -> OpaquePointer? {
        guard configuration.protocolVersion == .v5 else { return nil }
        var properties: OpaquePointer?
        var result = MosquittoResult.success.code
        if let expiry = configuration.effectiveSessionExpiryInterval, expiry > 0 {
            result = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), expiry)
        }
        if let maximum = configuration.maximumIncomingPacketSize, MosquittoResult(result).isSuccess {
            result = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), maximum)
        }
        guard MosquittoResult(result).isSuccess else {
            mosquitto_property_free_all(&properties)
            return nil
        }
        return properties
    }
}
