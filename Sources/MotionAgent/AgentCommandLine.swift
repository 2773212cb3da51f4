import MQTT
import MotionCommandLine
import MotionEngine

/// The options of `motion-agent`:
/// `motion-agent [--config FILE] [--broker mqtt://HOST:PORT] [--device SPEC] [--barometer SPEC] [--id DEVICE_ID] [--record FILE] [--check-config]`.
///
/// Options override the file's values.
public struct AgentCommandLine: Sendable, Equatable {
    /// The configuration file, or `nil` for the built-in defaults.
    public var configPath: String?
    /// `--broker`: overrides `broker.url` (and `broker.urls`).
    public var brokerURL: String?
    /// `--device`: overrides `device`.
    public var device: String?
    /// `--barometer`: overrides `barometer`.
    public var barometer: String?
    /// `--id`: overrides `device_id`.
    public var deviceID: String?
    /// `--record`: overrides `record.file` (with `record.seconds` or its default).
    public var recordFile: String?
    /// `--check-config`: validate, print the result and exit.
    public var checkOnly = false
    /// `--help`.
    public var helpRequested = false

    /// The process exit status for a usage error (`EX_USAGE` of sysexits.h).
    public static let usageExitStatus = CommandLineError.exitStatus

    /// The usage text.
    public static let usage = """
        usage: motion-agent [--config FILE] [--broker mqtt://HOST:PORT] [--device SPEC] [--barometer SPEC] [--id DEVICE_ID] [--record FILE] [--check-config]
          --config FILE     JSON configuration (see Config/README.md); built-in defaults without it
          --broker URL      broker address, overrides broker.url (default mqtt://127.0.0.1:1883)
          --device SPEC     IMU device, overrides device: sim, sim:rate=500,motion=demo, …
          --barometer SPEC  barometer for the altitude service, overrides barometer: sim, iio:bmp280, i2c:/dev/i2c-1@0x76, none
          --id DEVICE_ID    device identifier (topic level), overrides device_id (default: host name)
          --record FILE     write the IMU's raw samples to FILE (replay with --device replay:FILE), overrides record.file
          --check-config    validate the configuration, print it and exit (status 78 when invalid)
        """

    /// Parses the arguments (without the program name).
    /// - Throws: ``CommandLineError`` for an unknown option or a missing value.
    public init(arguments: [String]) throws(CommandLineError) {
        let scanner = try ArgumentScanner(
            arguments, valued: ["--config", "--broker", "--device", "--barometer", "--id", "--record"], switches: ["--check-config"])
        try scanner.expectPositional(atMost: 0)
        configPath = scanner["--config"]
        brokerURL = scanner["--broker"]
        device = scanner["--device"]
        barometer = scanner["--barometer"]
        deviceID = scanner["--id"]
        recordFile = scanner["--record"]
        checkOnly = scanner.has("--check-config")
        helpRequested = scanner.helpRequested
    }

    /// Loads the configuration file (or the defaults), applies the options on top, and takes what the file
    /// leaves out from the environment as documented (Config/README.md): the magnetic reference from
    /// `MOTION_DECLINATION` / `MOTION_LOCATION`, the calibration file from `MOTION_CALIBRATION`, the
    /// barometer from `MOTION_BAROMETER` (as CoreMotion's `CMAltimeter` reads it); so that
    /// `--check-config` checks exactly what a start uses.
    /// - Parameter environment: the process's variables by default.
    /// - Throws: ``ConfigurationError`` naming the field (options are named as the field they override,
    ///   variables by their name).
    public func configuration(
        environment: [String: String] = MotionEngineEnvironment.processVariables()
    ) throws(ConfigurationError) -> AgentConfiguration {
        var configuration = try configPath.map { path throws(ConfigurationError) in try AgentConfiguration.load(path: path, validating: false) }
            ?? AgentConfiguration()
        if let brokerURL {
            configuration.broker.address = try BrokerSettings.address(brokerURL, fieldPath: "broker.url (--broker)")
            configuration.broker.failoverAddresses = []  // the option names the one broker to use
        }
        if let device { configuration.device = device }
        if let barometer { configuration.barometer = barometer }
        if let deviceID { configuration.deviceID = deviceID }
        if let recordFile {
            configuration.recording = RecordingSettings(file: recordFile, seconds: configuration.recording?.seconds ?? 600)
        }
        if configuration.magneticReference == nil {
            configuration.magneticReference = try MagneticReference.fromEnvironment(environment)
        }
        if configuration.calibration == nil, let path = environment["MOTION_CALIBRATION"], !path.isEmpty {
            configuration.calibration = path
        }
        if configuration.barometer == nil, let barometer = environment["MOTION_BAROMETER"], !barometer.isEmpty {
            configuration.barometer = barometer
        }
        try configuration.validate()
        return configuration
    }
}
