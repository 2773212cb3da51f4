import MQTT

/// The options of `motion-agent`:
/// `motion-agent [--config FILE] [--broker mqtt://HOST:PORT] [--device SPEC] [--id DEVICE_ID] [--record FILE] [--check-config]`.
///
/// Options override the file's values.
public struct AgentCommandLine: Sendable, Equatable {
    /// The configuration file, or `nil` for the built-in defaults.
    public var configPath: String?
    /// `--broker`: overrides `broker.url`.
    public var brokerURL: String?
    /// `--device`: overrides `device`.
    public var device: String?
    /// `--id`: overrides `device_id`.
    public var deviceID: String?
    /// `--record`: overrides `record.file` (with `record.seconds` or its default).
    public var recordFile: String?
    /// `--check-config`: validate, print the result and exit.
    public var checkOnly = false
    /// `--help`.
    public var helpRequested = false

    /// The process exit status for a usage error (`EX_USAGE` of sysexits.h).
    public static let usageExitStatus: Int32 = 64

    /// The usage text.
    public static let usage = """
        usage: motion-agent [--config FILE] [--broker mqtt://HOST:PORT] [--device SPEC] [--id DEVICE_ID] [--record FILE] [--check-config]
          --config FILE     JSON configuration (see Config/README.md); built-in defaults without it
          --broker URL      broker address, overrides broker.url (default mqtt://127.0.0.1:1883)
          --device SPEC     IMU device, overrides device: sim, sim:rate=500,motion=demo, …
          --id DEVICE_ID    device identifier (topic level), overrides device_id (default: host name)
          --record FILE     write the IMU's raw samples to FILE (replay with --device replay:FILE), overrides record.file
          --check-config    validate the configuration, print it and exit (status 78 when invalid)
        """

    /// Parses the arguments (without the program name).
    /// - Throws: ``CommandLineError`` for an unknown option or a missing value.
    public init(arguments: [String]) throws(CommandLineError) {
        var remaining = arguments[...]
        func value(for option: String) throws(CommandLineError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw CommandLineError("\(option) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--config": configPath = try value(for: argument)
            case "--broker": brokerURL = try value(for: argument)
            case "--device": device = try value(for: argument)
            case "--id": deviceID = try value(for: argument)
            case "--record": recordFile = try value(for: argument)
            case "--check-config": checkOnly = true
            case "--help", "-h": helpRequested = true
            default: throw CommandLineError("unknown option \(argument)")
            }
        }
    }

    /// Loads the configuration file (or the defaults) and applies the options on top.
    /// - Throws: ``ConfigurationError`` naming the field (options are named as the field they override).
    public func configuration() throws(ConfigurationError) -> AgentConfiguration {
        var configuration = try configPath.map { path throws(ConfigurationError) in try AgentConfiguration.load(path: path) }
            ?? AgentConfiguration()
        if let brokerURL {
            configuration.broker.address = try AgentConfiguration.brokerAddress(brokerURL, fieldPath: "broker.url (--broker)")
        }
        if let device { configuration.device = device }
        if let deviceID { configuration.deviceID = deviceID }
        if let recordFile {
            configuration.recording = RecordingSettings(file: recordFile, seconds: configuration.recording?.seconds ?? 600)
        }
        try configuration.validate()
        return configuration
    }
}
