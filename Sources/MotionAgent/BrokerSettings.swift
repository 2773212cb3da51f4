#if canImport(Glibc)
import Glibc
#endif
import MotionContract
import MQTT
import MotionEngine

/// How the agent connects to its broker (the `broker` object of the configuration file).
public struct BrokerSettings: Sendable, Equatable {
    /// Where the broker listens (the first of `broker.urls`).
    public var address: MQTTBrokerAddress
    /// The other nodes of a clustered broker (the rest of `broker.urls`), tried in turn when the current
    /// one cannot be reached or drops the connection; empty for one broker.
    public var failoverAddresses: [MQTTBrokerAddress] = []
    /// The MQTT client identifier; `nil` means `motion-agent-{device_id}`.
    public var clientID: String?
    /// MQTT keepalive, s (5…65535).
    public var keepAlive: Int
    /// `true` for a clean session; `false` keeps subscriptions and QoS ≥ 1 messages across reconnects.
    public var cleanSession: Bool
    /// The protocol tried first; MQTT 5 falls back to 3.1.1 by itself when the broker refuses it.
    public var protocolVersion: MQTTProtocolVersion
    /// The user name, if the broker wants one.
    public var username: String?
    /// Where the password comes from; never the password itself (it must not sit in a config file or a log).
    public var password: PasswordSource?
    /// TLS settings; `nil` for plain TCP.
    public var tls: TLSSettings?
    /// The first and the largest delay between reconnection attempts, s.
    public var reconnectDelay: ClosedRange<Int>
    /// The most QoS ≥ 1 messages kept while disconnected (0: keep none).
    public var offlineBufferMessages: Int
    /// The most bytes of QoS ≥ 1 payload kept while disconnected (0: keep none).
    public var offlineBufferBytes: Int
    /// Keeps the offline buffer on disk too (`offline_buffer.path`, `offline_buffer.commit_interval`), so
    /// that it survives a restart, a SIGKILL or a power cut; `nil`: in memory only.
    public var durableOfflineBuffer: MQTTDurableOfflineBuffer?

    /// The largest packet the agent accepts from the broker, bytes (128 KiB): a command is at most
    /// ``ControlCommand/maximumPayloadSize`` bytes, and this leaves room for any reasonable response topic
    /// and correlation data. Announced to an MQTT 5 broker, which drops larger messages; over MQTT 3.1.1 the
    /// client drops them unread.
    public static let maximumIncomingPacketSize: UInt32 = 131_072

    /// The environment variable that, when set, overrides the configured password source.
    public static let passwordEnvironmentVariable = "MOTION_AGENT_PASSWORD"

    /// Creates settings; every parameter has the documented default.
    public init(
        address: MQTTBrokerAddress = MQTTBrokerAddress(host: "127.0.0.1", port: 1883),
        clientID: String? = nil,
        keepAlive: Int = 30,
        cleanSession: Bool = true,
        protocolVersion: MQTTProtocolVersion = .v5,
        username: String? = nil,
        password: PasswordSource? = nil,
        tls: TLSSettings? = nil,
        reconnectDelay: ClosedRange<Int> = 1...30,
        offlineBufferMessages: Int = 10_000,
        offlineBufferBytes: Int = 8 << 20,
        durableOfflineBuffer: MQTTDurableOfflineBuffer? = nil
    ) {
        self.address = address
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.cleanSession = cleanSession
        self.protocolVersion = protocolVersion
        self.username = username
        self.password = password
        self.tls = tls
        self.reconnectDelay = reconnectDelay
        self.offlineBufferMessages = offlineBufferMessages
        self.offlineBufferBytes = offlineBufferBytes
        self.durableOfflineBuffer = durableOfflineBuffer
    }

    /// Where a password is read from.
    public enum PasswordSource: Sendable, Equatable {
        /// The first line of a file.
        case file(String)
        /// An environment variable.
        case environment(String)
    }

    /// TLS files (PEM) and checks.
    public struct TLSSettings: Sendable, Equatable {
        /// The CA certificate file that signed the broker's certificate.
        public var caFile: String?
        /// A directory of CA certificates (hashed names, `c_rehash`).
        public var caDirectory: String?
        /// The client certificate, for brokers that require one.
        public var certificateFile: String?
        /// The client certificate's private key.
        public var keyFile: String?
        /// Skip the check that the broker's certificate names the host (testing only).
        public var insecureSkipHostnameCheck: Bool

        /// Creates TLS settings.
        public init(
            caFile: String? = nil, caDirectory: String? = nil, certificateFile: String? = nil,
            keyFile: String? = nil, insecureSkipHostnameCheck: Bool = false
        ) {
            self.caFile = caFile
            self.caDirectory = caDirectory
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.insecureSkipHostnameCheck = insecureSkipHostnameCheck
        }
    }

    /// The MQTT client configuration for these settings, with the password read from its source (the
    /// ``passwordEnvironmentVariable`` first, when set).
    /// - Parameters:
    ///   - clientID: the client identifier to use.
    ///   - will: the last will.
    ///   - environment: the process environment (a parameter so tests can pass their own).
    /// - Throws: ``ConfigurationError`` naming the password field when the password cannot be read, or
    ///   `broker` with the MQTT client's reason when it would refuse the configuration.
    public func clientConfiguration(
        clientID: String, will: MQTTMessage?, environment: [String: String] = MotionEngineEnvironment.processVariables()
    ) throws(ConfigurationError) -> MQTTClientConfiguration {
        var configuration = MQTTClientConfiguration(
            broker: address,
            clientID: clientID,
            keepAlive: keepAlive,
            cleanSession: cleanSession,
            will: will,
            protocolVersion: protocolVersion,
            reconnectDelay: reconnectDelay,
            username: username,
            password: try resolvedPassword(environment: environment),
            tls: tls.map {
                MQTTTLSConfiguration(
                    caFile: $0.caFile, caDirectory: $0.caDirectory, certificateFile: $0.certificateFile,
                    keyFile: $0.keyFile, insecureSkipHostnameCheck: $0.insecureSkipHostnameCheck)
            },
            offlineBuffer: offlineBufferMessages == 0 || offlineBufferBytes == 0
                ? .disabled
                : MQTTOfflineBufferLimits(maximumMessages: offlineBufferMessages, maximumBytes: offlineBufferBytes),
            maximumIncomingPacketSize: Self.maximumIncomingPacketSize,
            durableOfflineBuffer: durableOfflineBuffer)
        configuration.failoverBrokers = failoverAddresses
        do {
            try configuration.validate()
        } catch {
            throw ConfigurationError(fieldPath: "broker", reason: error.description)
        }
        return configuration
    }

    private func resolvedPassword(environment: [String: String]) throws(ConfigurationError) -> MQTTPassword? {
        if let secret = environment[Self.passwordEnvironmentVariable] {
            return MQTTPassword(secret)
        }
        switch password {
        case nil:
            return nil
        case .file(let path):
            do {
                return try MQTTPassword(contentsOfFile: path)
            } catch {
                throw ConfigurationError(fieldPath: "broker.password_file", reason: error.description)
            }
        case .environment(let name):
            guard let secret = environment[name], !secret.isEmpty else {
                throw ConfigurationError(fieldPath: "broker.password_env", reason: "environment variable \(name) is not set or empty")
            }
            return MQTTPassword(secret)
        }
    }

    /// Parses a broker URL, naming `fieldPath` in the error.
    public static func address(_ url: String, fieldPath: String) throws(ConfigurationError) -> MQTTBrokerAddress {
        do {
            return try MQTTBrokerAddress(url: url)
        } catch {
            throw ConfigurationError(fieldPath: fieldPath, reason: "\(error)")
        }
    }

    /// Reads the `broker` object.
    static func parse(_ object: ConfigurationReader) throws(ConfigurationError) -> BrokerSettings {
        try object.rejectUnknownKeys([
            "url", "urls", "client_id", "keepalive", "clean_session", "protocol", "username", "password_file",
            "password_env", "tls", "reconnect", "offline_buffer",
        ])
        var settings = BrokerSettings()
        let url = try object.string("url")
        if let url {
            settings.address = try BrokerSettings.address(url, fieldPath: object.fieldPath("url"))
        }
        if let urls = try object.strings("urls") {
            guard url == nil else {
                throw ConfigurationError(fieldPath: object.fieldPath("urls"), reason: "give url or urls, not both")
            }
            var addresses: [MQTTBrokerAddress] = []
            for (index, url) in urls.enumerated() {
                let address = try BrokerSettings.address(url, fieldPath: "\(object.fieldPath("urls"))[\(index)]")
                guard !addresses.contains(address) else {
                    throw ConfigurationError(fieldPath: "\(object.fieldPath("urls"))[\(index)]", reason: "\(url) is listed twice")
                }
                addresses.append(address)
            }
            settings.address = addresses[0]
            settings.failoverAddresses = Array(addresses.dropFirst())
        }
        settings.clientID = try object.string("client_id")
        settings.keepAlive = try object.integer("keepalive") ?? settings.keepAlive
        settings.cleanSession = try object.bool("clean_session") ?? settings.cleanSession
        switch try object.string("protocol") {
        case nil, "mqtt5": break
        case "mqtt311": settings.protocolVersion = .v311
        case let other?:
            throw ConfigurationError(fieldPath: object.fieldPath("protocol"), reason: "\"\(other)\" is not mqtt5 or mqtt311")
        }
        settings.username = try object.string("username")
        let passwordFile = try object.string("password_file")
        let passwordVariable = try object.string("password_env")
        if passwordFile != nil && passwordVariable != nil {
            throw ConfigurationError(fieldPath: object.fieldPath("password_file"), reason: "give password_file or password_env, not both")
        }
        settings.password = passwordFile.map(PasswordSource.file) ?? passwordVariable.map(PasswordSource.environment)
        if settings.password != nil, settings.username == nil {
            throw ConfigurationError(
                fieldPath: object.fieldPath("username"), reason: "is required with \(passwordFile != nil ? "password_file" : "password_env")")
        }
        if let tls = try object.object("tls") {
            try tls.rejectUnknownKeys(["ca_file", "ca_directory", "certificate_file", "key_file", "insecure_skip_hostname_check"])
            settings.tls = TLSSettings(
                caFile: try tls.string("ca_file"), caDirectory: try tls.string("ca_directory"),
                certificateFile: try tls.string("certificate_file"), keyFile: try tls.string("key_file"),
                insecureSkipHostnameCheck: try tls.bool("insecure_skip_hostname_check") ?? false)
        }
        if let reconnect = try object.object("reconnect") {
            try reconnect.rejectUnknownKeys(["min_delay", "max_delay"])
            let minimum = try reconnect.integer("min_delay") ?? settings.reconnectDelay.lowerBound
            let maximum = try reconnect.integer("max_delay") ?? max(minimum, settings.reconnectDelay.upperBound)
            guard minimum >= 1, maximum >= minimum, maximum <= 3_600 else {
                throw ConfigurationError(
                    fieldPath: reconnect.fieldPath("min_delay"), reason: "need 1 <= min_delay <= max_delay <= 3600 seconds")
            }
            settings.reconnectDelay = minimum...maximum
        }
        if let buffer = try object.object("offline_buffer") {
            try buffer.rejectUnknownKeys(["max_messages", "max_bytes", "path", "commit_interval"])
            settings.offlineBufferMessages = try buffer.integer("max_messages") ?? settings.offlineBufferMessages
            settings.offlineBufferBytes = try buffer.integer("max_bytes") ?? settings.offlineBufferBytes
            if settings.offlineBufferMessages < 0 || settings.offlineBufferMessages > 10_000_000 {
                throw ConfigurationError(fieldPath: buffer.fieldPath("max_messages"), reason: "must be 0…10000000")
            }
            if settings.offlineBufferBytes < 0 || settings.offlineBufferBytes > 1 << 30 {
                throw ConfigurationError(fieldPath: buffer.fieldPath("max_bytes"), reason: "must be 0…1073741824")
            }
            let commitInterval = try buffer.number("commit_interval")
            if let path = try buffer.string("path") {
                // Whether the file can be used is not a configuration error: the buffer then stays in memory
                // (``AgentConfiguration/storageWarnings`` says so before a start).
                guard !path.isEmpty else { throw ConfigurationError(fieldPath: buffer.fieldPath("path"), reason: "must name a file") }
                let interval = commitInterval ?? MQTTDurableOfflineBuffer(path: path).commitInterval
                guard MQTTDurableOfflineBuffer.commitIntervalRange.contains(interval) else {
                    throw ConfigurationError(fieldPath: buffer.fieldPath("commit_interval"), reason: "must be 0…5 seconds")
                }
                settings.durableOfflineBuffer = MQTTDurableOfflineBuffer(path: path, commitInterval: interval)
            } else if commitInterval != nil {
                throw ConfigurationError(fieldPath: buffer.fieldPath("commit_interval"), reason: "only applies with offline_buffer.path")
            }
        }
        try settings.validateTLSFiles(fieldPath: object.fieldPath("tls"))
        return settings
    }

    /// Checks that the TLS files named exist and are readable, naming the field of the first that is not.
    func validateTLSFiles(fieldPath: String) throws(ConfigurationError) {
        guard let tls else { return }
        if tls.caFile == nil && tls.caDirectory == nil {
            throw ConfigurationError(fieldPath: "\(fieldPath).ca_file", reason: "TLS needs ca_file or ca_directory")
        }
        if (tls.certificateFile == nil) != (tls.keyFile == nil) {
            throw ConfigurationError(fieldPath: "\(fieldPath).certificate_file", reason: "certificate_file and key_file go together")
        }
        for (name, path) in [("ca_file", tls.caFile), ("ca_directory", tls.caDirectory),
                             ("certificate_file", tls.certificateFile), ("key_file", tls.keyFile)] {
            guard let path else { continue }
            if access(path, R_OK) != 0 {
                throw ConfigurationError(fieldPath: "\(fieldPath).\(name)", reason: "cannot read \(path)")
            }
            // A FIFO would hang the TLS handshake in the library, on the network thread.
            var status = stat()
            let kind = stat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
            if kind != (name == "ca_directory" ? S_IFDIR : S_IFREG) {
                throw ConfigurationError(fieldPath: "\(fieldPath).\(name)", reason: "\(path) is not a \(name == "ca_directory" ? "directory" : "regular file")")
            }
        }
        if let keyFile = tls.keyFile, let problem = SecretFilePermissions.problem(with: keyFile) {
            throw ConfigurationError(fieldPath: "\(fieldPath).key_file", reason: problem)
        }
    }
}
