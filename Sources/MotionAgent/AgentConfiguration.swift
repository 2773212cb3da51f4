#if canImport(Glibc)
import Glibc
#endif
import MotionContract
import MQTT
import MotionEngine
import MotionHAL

/// Everything `motion-agent` needs to run, read from a JSON file (see `Config/README.md`).
public struct AgentConfiguration: Sendable, Equatable {
    /// The device identifier, the second topic level; `nil` means the host name, sanitised.
    public var deviceID: String?
    /// The first topic level, `motion` by default.
    public var topicPrefix: String
    /// The IMU to read, as a device specification (`sim`, `sim:rate=500`, …).
    public var device: String
    /// The barometer for the `altitude` service and the pedometer's floors, as a barometer specification
    /// (`sim`, `iio:bmp280`, `i2c:/dev/i2c-1@0x76`, `none`); `nil`: none (the altitude service is
    /// unavailable).
    public var barometer: String?
    /// Where the magnetic declination for true north comes from; `nil`: none (``AgentCommandLine`` fills
    /// it from `MOTION_DECLINATION` / `MOTION_LOCATION` when the file has neither).
    public var magneticReference: MagneticReference?
    /// The calibration file (made by `motionctl calibrate`) applied to the IMU's samples at start; `nil`:
    /// none (``AgentCommandLine`` fills it from `MOTION_CALIBRATION` when the file has none).
    public var calibration: String?
    /// How the IMU sits on the board (`mount_matrix`, IIO's text form): its axes → the board's; `nil`: as
    /// the driver delivers them.
    public var mountMatrix: MountMatrix?
    /// The field recording of raw samples, or `nil` for none.
    public var recording: RecordingSettings?
    /// The broker to publish to and how to connect.
    public var broker: BrokerSettings
    /// Per-service publishing settings.
    public var services: [MotionService: ServiceSettings]
    /// Seconds between `{base}/health` reports; 0 turns them off.
    public var healthInterval: Double
    /// Home Assistant MQTT discovery.
    public var homeAssistant = HomeAssistantSettings()
    /// Remote configuration on `{base}/config/set` and its state file.
    public var remoteConfiguration = RemoteConfigurationSettings()
    /// The on-board motion detectors: `{base}/events` and `{base}/state/…`.
    public var detectors = DetectorSettings()
    /// How SenML packs name the device.
    public var senml = SenMLSettings()
    /// The Sparkplug B edge node, or `nil` for none.
    public var sparkplug: SparkplugSettings?
    /// The file this configuration was read from (``load(path:validating:)``); `nil` for one made otherwise.
    public var sourceFile: String?

    /// Creates a configuration; every parameter has the documented default.
    public init(
        deviceID: String? = nil,
        topicPrefix: String = "motion",
        device: String = "sim",
        broker: BrokerSettings = BrokerSettings(),
        services: [MotionService: ServiceSettings] = Dictionary(
            uniqueKeysWithValues: MotionService.allCases.map { ($0, ServiceSettings.defaults(for: $0)) }),
        healthInterval: Double = 10
    ) {
        self.deviceID = deviceID
        self.topicPrefix = topicPrefix
        self.device = device
        self.broker = broker
        self.services = services
        self.healthInterval = healthInterval
    }

    /// The device identifier in use: the configured one or the host name.
    public var resolvedDeviceID: String { deviceID ?? DeviceIdentifier.fromHostName() }

    /// The MQTT client identifier in use: the configured one or `motion-agent-{device_id}`.
    public var clientID: String { broker.clientID ?? "motion-agent-\(resolvedDeviceID)" }

    /// The topics of this device.
    public var topics: TopicLayout { TopicLayout(prefix: topicPrefix, deviceID: resolvedDeviceID) }

    /// SenML's base name in force (``SenMLSettings/resolvedBaseName(deviceID:hardwareAddress:)``): the
    /// configured one or one made from the board's hardware address; `nil` when neither is there.
    public var senmlBaseName: String? {
        senml.resolvedBaseName(deviceID: resolvedDeviceID, hardwareAddress: NetworkHardwareAddress.primary())
    }

    /// The settings of `service` (its defaults when the file did not mention it).
    public func settings(for service: MotionService) -> ServiceSettings {
        services[service] ?? .defaults(for: service)
    }

    /// Reads and validates the configuration file at `path`.
    /// - Parameter validating: `false` leaves ``validate()`` to the caller, who completes the file first
    ///   (``AgentCommandLine``: options and environment); every field is still read and type-checked.
    /// - Throws: ``ConfigurationError`` naming the field and the reason.
    public static func load(path: String, validating: Bool = true) throws(ConfigurationError) -> AgentConfiguration {
        // `--config /dev/zero` or a runaway file is refused before it is read into memory.
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, maximumSize: maximumFileSize)
        } catch {
            throw ConfigurationError(fieldPath: "", reason: "cannot read configuration file \(path): \(error)")
        }
        var configuration = try parse(bytes, validating: false)
        configuration.sourceFile = path
        if validating { try configuration.validate() }
        return configuration
    }

    /// Every top-level field of the configuration file.
    static let fileFields: Set<String> = [
        "device_id", "topic_prefix", "device", "barometer", "mount_matrix", "location", "declination", "calibration", "record",
        "broker", "services", "health_interval", "home_assistant", "remote_config", "detectors", "senml",
        "sparkplug",
    ]

    /// The largest configuration file read, bytes (the documented one is under 2 KiB).
    public static let maximumFileSize = 1 << 20

    /// Parses and validates a configuration document.
    /// - Throws: ``ConfigurationError`` naming the field and the reason.
    /// - Parameters:
    ///   - document: the JSON text's bytes (UTF-8).
    ///   - validating: `false` leaves ``validate()`` to the caller (see ``load(path:validating:)``).
    public static func parse(_ document: some Collection<UInt8>, validating: Bool = true) throws(ConfigurationError) -> AgentConfiguration {
        let root = try ConfigurationReader(bytes: [UInt8](document))
        try root.rejectUnknownKeys(fileFields)
        var configuration = AgentConfiguration()
        if let deviceID = try root.string("device_id") {
            configuration.deviceID = deviceID
        }
        if let prefix = try root.string("topic_prefix") {
            configuration.topicPrefix = prefix
        }
        if let device = try root.string("device") {
            configuration.device = device
        }
        configuration.barometer = try root.string("barometer")
        configuration.magneticReference = try MagneticReference.parse(from: root)
        configuration.calibration = try root.string("calibration")
        configuration.recording = try RecordingSettings.parse(from: root)
        configuration.remoteConfiguration = try RemoteConfigurationSettings.parse(from: root)
        if let broker = try root.object("broker") {
            configuration.broker = try BrokerSettings.parse(broker)
        }
        configuration.homeAssistant = try HomeAssistantSettings.parse(from: root)
        configuration.senml = try SenMLSettings.parse(from: root)
        configuration.sparkplug = try SparkplugSettings.parse(from: root)
        try configuration.applyRuntimeFields(of: root)
        if validating { try configuration.validate() }
        return configuration
    }

    /// Sets the run-time fields `root` gives (`services`, `health_interval`, `mount_matrix`, `detectors`:
    /// what a remote document may change too) on top of the current values; a service or detector entry
    /// changes only the settings it names.
    /// - Throws: ``ConfigurationError`` naming the field (ranges are checked by ``validateRuntime()``).
    mutating func applyRuntimeFields(of root: ConfigurationReader) throws(ConfigurationError) {
        if let text = try root.string("mount_matrix") {
            do {
                mountMatrix = try MountMatrix(parsing: text)
            } catch {
                throw ConfigurationError(fieldPath: root.fieldPath("mount_matrix"), reason: error.description)
            }
        }
        healthInterval = try root.number("health_interval") ?? healthInterval
        if let entries = try root.object("services") {
            try entries.rejectUnknownKeys(Set(MotionService.allCases.map(\.topicName)))
            for service in MotionService.allCases {
                guard let entry = try entries.object(service.topicName) else { continue }
                services[service] = try ServiceSettings.parse(service, from: entry, base: settings(for: service))
            }
        }
        if let entry = try root.object("detectors") {
            detectors = try detectors.updated(from: entry)
        }
    }

    /// Reads the calibration file at `path`.
    /// - Throws: ``ConfigurationError`` for field `calibration`, naming the file and the bad field in it.
    public static func loadCalibration(_ path: String) throws(ConfigurationError) -> IMUCalibration {
        guard !path.isEmpty else {
            throw ConfigurationError(fieldPath: "calibration", reason: "must name a calibration file (made by motionctl calibrate)")
        }
        do {
            return try IMUCalibration.load(contentsOf: path)
        } catch {
            throw ConfigurationError(fieldPath: "calibration", reason: error.description)
        }
    }

    /// Checks everything a start would refuse with ``ConfigurationError/exitStatus``, without side effects,
    /// so that `--check-config`, a start and a reload judge a file alike: the values options may also
    /// have set (device ID, prefix, device string, keepalive, services), the calibration file (read), the
    /// recording's file (that it could be created), that every file written is apart from every other file
    /// named (``validateFileUses()``) and the broker settings with their password source.
    /// - Throws: ``ConfigurationError`` naming the field and the reason.
    public func validate() throws(ConfigurationError) {
        if let deviceID, !DeviceIdentifier.isValid(deviceID) {
            throw ConfigurationError(
                fieldPath: "device_id",
                reason: "\"\(deviceID)\" must be non-empty and use only a-z, 0-9, _ and - "
                    + "(for example \"\(DeviceIdentifier.sanitized(deviceID))\")")
        }
        if !TopicLayout.isTopicPrefix(topicPrefix) {
            throw ConfigurationError(
                fieldPath: "topic_prefix", reason: "must be a non-empty topic without wildcards or outer slashes")
        }
        if device.isEmpty {
            throw ConfigurationError(fieldPath: "device", reason: "must name a device, for example \"sim\"")
        }
        do {
            _ = try IMUDeviceSpecification.parse(device)
        } catch {
            throw ConfigurationError(fieldPath: "device", reason: error.description)
        }
        if let barometer {
            do {
                _ = try BarometerSpecification(parsing: barometer)
            } catch {
                throw ConfigurationError(fieldPath: "barometer", reason: error.description)
            }
        }
        try magneticReference?.validate()
        if let calibration {
            _ = try Self.loadCalibration(calibration)
        }
        try recording?.validate()
        try remoteConfiguration.validate()
        try sparkplug?.validate()
        if let sparkplug, !sparkplug.nativeContract, settings(for: .vibration).enabled {
            // The vibration service's summaries and spectra are the native contract's alone: it would run for nobody.
            throw ConfigurationError(
                fieldPath: "services.vibration.enabled", reason: "the vibration service publishes on the native contract only (sparkplug.native_contract is false)")
        }
        if !(5...65_535).contains(broker.keepAlive) {
            throw ConfigurationError(fieldPath: "broker.keepalive", reason: "must be between 5 and 65535 seconds")
        }
        try validateRuntime()
        try validateFileUses()
        _ = try clientConfiguration(will: nil)
    }

    /// Checks the run-time part alone (the services, the health interval, that a true-north frame has a
    /// declination, the detectors' thresholds): what a remote document is judged by.
    /// - Throws: ``ConfigurationError`` naming the field and the reason.
    public func validateRuntime() throws(ConfigurationError) {
        for (service, settings) in services {
            try settings.validate(fieldPath: "services.\(service.topicName)")
        }
        if let service = MotionService.allCases.first(where: { settings(for: $0).format.isSenML }), senmlBaseName == nil {
            throw ConfigurationError(
                fieldPath: "services.\(service.topicName).format",
                reason: "SenML needs a name for the device: no network interface has a permanent, universally administered "
                    + "hardware address to make urn:dev:mac:… from; give senml.base_name")
        }
        if magneticReference == nil,
           let service = services.keys.sorted(by: { $0.topicName < $1.topicName })
               .first(where: { services[$0]?.referenceFrame == .xTrueNorthZVertical })
        {
            throw ConfigurationError(
                fieldPath: "services.\(service.topicName).frame",
                reason: "xTrueNorthZVertical needs the magnetic declination: set location or declination "
                    + "(or MOTION_LOCATION / MOTION_DECLINATION)")
        }
        if !(healthInterval == 0 || (1...86_400).contains(healthInterval)) {
            throw ConfigurationError(fieldPath: "health_interval", reason: "must be 0 (off) or 1…86400 seconds")
        }
        try detectors.validate()
    }

    /// The MQTT client configuration of these settings, checked as the client will check it. The durable
    /// offline buffer's rows belong to this device at these brokers (`motion/ID at HOST:PORT`): another
    /// device started on the same file, or this one pointed at another broker, leaves them there.
    /// - Parameters:
    ///   - will: the last will, or `nil`.
    ///   - environment: the process environment (where a password may come from).
    /// - Throws: ``ConfigurationError`` for the broker field that cannot be used.
    public func clientConfiguration(
        will: MQTTMessage?, environment: [String: String] = MotionEngineEnvironment.processVariables()
    ) throws(ConfigurationError) -> MQTTClientConfiguration {
        var configuration = try broker.clientConfiguration(clientID: clientID, will: will, environment: environment)
        // The agent's clients never wait for a publication's event (shutdown flushes through the client).
        configuration.reportsPublications = false
        let brokers = configuration.brokers.map { "\($0.host):\($0.port)" }.joined(separator: ", ")
        configuration.durableOfflineBuffer?.owner = "\(topics.base) at \(brokers)"
        return configuration
    }
}
