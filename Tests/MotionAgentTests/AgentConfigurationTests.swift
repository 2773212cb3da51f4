import MotionContract
import Foundation
import MQTT
import MotionHAL
import MotionCommandLine
import Testing

@testable import MotionAgent

@Suite struct AgentConfigurationTests {
    private func parse(_ json: String) throws(ConfigurationError) -> AgentConfiguration {
        try AgentConfiguration.parse(Data(json.utf8))
    }

    private func expectError(_ json: String, field: String, reasonContains text: String) {
        do {
            _ = try parse(json)
            Issue.record("expected an error for \(field)")
        } catch {
            #expect(error.fieldPath == field)
            #expect(text.isEmpty || error.reason.contains(text), "reason: \(error.reason)")
            #expect(error.description.hasPrefix(field.isEmpty ? "configuration error: " : "configuration error: \(field): "))
        }
    }

    @Test func emptyObjectGivesTheDocumentedDefaults() throws {
        let configuration = try parse("{}")
        #expect(configuration.topicPrefix == "motion")
        #expect(configuration.device == "sim")
        #expect(configuration.broker.address == MQTTBrokerAddress(host: "127.0.0.1", port: 1883))
        #expect(configuration.broker.keepAlive == 30)
        #expect(configuration.broker.cleanSession && configuration.broker.protocolVersion == .v5)
        #expect(configuration.broker.offlineBufferMessages == 10_000 && configuration.broker.offlineBufferBytes == 8 << 20)
        #expect(configuration.healthInterval == 10)
        #expect(configuration.settings(for: .gyro).sampling == TopicSamplingSettings(interval: 0.02))
        #expect(configuration.settings(for: .accelerometer).rateHz == 50)
        #expect(configuration.settings(for: .magnetometer).rateHz == 20)
        #expect(configuration.settings(for: .deviceMotion).referenceFrame == .xMagneticNorthZVertical)
        #expect(MotionService.allCases.allSatisfy { configuration.settings(for: $0).qos == 0 })
    }

    @Test func locationOrDeclinationForTrueNorth() throws {
        #expect(try parse("{}").magneticReference == nil)
        #expect(try parse(#"{"location":{"latitude":52.52,"longitude":13.4,"altitude":34}}"#).magneticReference
            == .location(latitude: 52.52, longitude: 13.4, altitude: 34))
        #expect(try parse(#"{"location":{"latitude":-33.9,"longitude":151.2}}"#).magneticReference
            == .location(latitude: -33.9, longitude: 151.2, altitude: 0))
        #expect(try parse(#"{"declination":-3.5}"#).magneticReference == .declination(-3.5))
        expectError(#"{"location":{"latitude":91,"longitude":0}}"#, field: "location.latitude", reasonContains: "±90")
        expectError(#"{"location":{"latitude":10}}"#, field: "location.longitude", reasonContains: "required")
        expectError(#"{"location":{"latitude":10,"longitude":400}}"#, field: "location.longitude", reasonContains: "±180")
        // East longitudes also as 0…360, as CoreMotion and motionctl take them.
        #expect(try parse(#"{"location":{"latitude":10,"longitude":200}}"#).magneticReference
            == .location(latitude: 10, longitude: 200, altitude: 0))
        expectError(#"{"location":{"latitude":10,"longitude":20,"height":3}}"#, field: "location.height", reasonContains: "")
        expectError(#"{"declination":190}"#, field: "declination", reasonContains: "±180")
        expectError(#"{"declination":2,"location":{"latitude":1,"longitude":2}}"#, field: "declination", reasonContains: "not both")
    }

    @Test func shippedConfigurationFileIsValid() throws {
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Config/agent.json").path
        let configuration = try AgentConfiguration.load(path: path)
        #expect(configuration.settings(for: .gyro).rateHz == 50)
        #expect(configuration.barometer == "sim" && configuration.settings(for: .steps) == .defaults(for: .steps))
    }

    @Test func theBarometerComesFromTheFileTheOptionOrTheEnvironment() throws {
        #expect(try parse(#"{"barometer":"iio:bmp280"}"#).barometer == "iio:bmp280")
        #expect(try parse("{}").barometer == nil)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("barometer-\(UUID().uuidString).json")
        try Data(#"{"barometer":"sim:alt=100"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try AgentCommandLine(arguments: ["--config", file.path]).configuration(environment: ["MOTION_BAROMETER": "none"])
        #expect(fromFile.barometer == "sim:alt=100", "the file wins over the environment")
        let fromOption = try AgentCommandLine(arguments: ["--config", file.path, "--barometer", "sim:floors=2"]).configuration(environment: [:])
        #expect(fromOption.barometer == "sim:floors=2")
        #expect(try AgentCommandLine(arguments: []).configuration(environment: ["MOTION_BAROMETER": "sim"]).barometer == "sim")
        #expect(throws: ConfigurationError.self) {
            try AgentCommandLine(arguments: ["--barometer", "sim:rate=0"]).configuration(environment: [:])
        }
        // The new services' defaults: looked at every second, published on a change and once a minute.
        let steps = ServiceSettings.defaults(for: .steps)
        #expect(steps.sampling.interval == 1 && steps.sampling.deadband == 0 && steps.sampling.heartbeat == 60 && steps.enabled)
        #expect(ServiceSettings.defaults(for: .altitude).rateHz == 1)
    }

    @Test func everyFieldIsRead() throws {
        let configuration = try parse("""
            {"device_id":"board-7","topic_prefix":"site/a","device":"sim:rate=500",
             "broker":{"url":"mqtt://[::1]:1999","client_id":"c1","keepalive":12},
             "services":{"gyro":{"enabled":false,"rate_hz":12.5,"qos":1},
                         "device-motion":{"frame":"xArbitraryZVertical"}}}
            """)
        #expect(configuration.resolvedDeviceID == "board-7")
        #expect(configuration.topics.base == "site/a/board-7")
        #expect(configuration.device == "sim:rate=500")
        #expect(configuration.broker.address.port == 1999)
        #expect(configuration.clientID == "c1")
        #expect(configuration.broker.keepAlive == 12)
        #expect(configuration.settings(for: .gyro) == ServiceSettings(enabled: false, rateHz: 12.5, qos: 1))
        #expect(configuration.settings(for: .deviceMotion).referenceFrame == .xArbitraryZVertical)
        #expect(configuration.settings(for: .deviceMotion).rateHz == 50)
    }

    @Test func errorsNameTheField() {
        expectError("[1]", field: "", reasonContains: "JSON object")
        expectError("{", field: "", reasonContains: "not valid JSON")
        expectError(#"{"devise":"sim"}"#, field: "devise", reasonContains: "unknown field")
        expectError(#"{"device_id":"Board 7"}"#, field: "device_id", reasonContains: "board-7")
        expectError(#"{"topic_prefix":"a/#"}"#, field: "topic_prefix", reasonContains: "wildcards")
        expectError(#"{"device":""}"#, field: "device", reasonContains: "must name a device")
        expectError(#"{"broker":{"url":"http://x"}}"#, field: "broker.url", reasonContains: "unsupported scheme")
        expectError(#"{"broker":{"keepalive":2}}"#, field: "broker.keepalive", reasonContains: "5 and 65535")
        expectError(#"{"broker":{"keepalive":"30"}}"#, field: "broker.keepalive", reasonContains: "number")
        expectError(#"{"services":{"gyroscope":{}}}"#, field: "services.gyroscope", reasonContains: "unknown field")
        expectError(#"{"services":{"gyro":{"rate_hz":0}}}"#, field: "services.gyro.rate_hz", reasonContains: "1/86400…1000 Hz")
        expectError(#"{"home_assistant":{"discovery":"yes"}}"#, field: "home_assistant.discovery", reasonContains: "")
        expectError(#"{"home_assistant":{"discovery_prefix":"ha/#"}}"#, field: "home_assistant.discovery_prefix", reasonContains: "wildcards")
        expectError(#"{"home_assistant":{"prefix":"ha"}}"#, field: "home_assistant.prefix", reasonContains: "unknown")
        expectError(#"{"services":{"gyro":{"rate_hz":true}}}"#, field: "services.gyro.rate_hz", reasonContains: "number")
        expectError(#"{"services":{"gyro":{"qos":3}}}"#, field: "services.gyro.qos", reasonContains: "0, 1 or 2")
        expectError(#"{"services":{"gyro":{"qos":0.5}}}"#, field: "services.gyro.qos", reasonContains: "whole number")
        expectError(#"{"services":{"gyro":{"enabled":1}}}"#, field: "services.gyro.enabled", reasonContains: "true or false")
        expectError(#"{"services":{"gyro":{"frame":"x"}}}"#, field: "services.gyro.frame", reasonContains: "unknown field")
        expectError(#"{"services":{"device-motion":{"frame":"north"}}}"#, field: "services.device-motion.frame",
                    reasonContains: "xMagneticNorthZVertical")
    }

    @Test func brokerConnectionSettings() throws {
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID()).pem")
        try Data("not checked here".utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        // The password source is resolved when the file is checked, as at start.
        setenv("MOTION_TEST_BOARD_SECRET", "from the environment", 1)
        let passwordFile = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID())")
        try Data("hunter2\n".utf8).write(to: passwordFile)
        chmod(passwordFile.path, 0o600)
        defer { try? FileManager.default.removeItem(at: passwordFile) }
        let configuration = try parse("""
            {"broker":{"clean_session":false,"protocol":"mqtt311","username":"board","password_env":"MOTION_TEST_BOARD_SECRET",
                       "tls":{"ca_file":"\(caFile.path)"},"reconnect":{"min_delay":2,"max_delay":60},
                       "offline_buffer":{"max_messages":500,"max_bytes":65536}}}
            """)
        let broker = configuration.broker
        #expect(!broker.cleanSession && broker.protocolVersion == .v311)
        #expect(broker.username == "board" && broker.password == .environment("MOTION_TEST_BOARD_SECRET"))
        #expect(broker.tls == BrokerSettings.TLSSettings(caFile: caFile.path))
        #expect(broker.reconnectDelay == 2...60)
        #expect(broker.offlineBufferMessages == 500 && broker.offlineBufferBytes == 65_536)
        #expect(try parse(#"{"broker":{"username":"u","password_file":"\#(passwordFile.path)"}}"#).broker.password == .file(passwordFile.path))
        expectError(#"{"broker":{"password_file":"\#(passwordFile.path)"}}"#, field: "broker.username", reasonContains: "password_file")
        expectError(#"{"broker":{"username":"u","password_env":"MOTION_TEST_UNSET_VARIABLE"}}"#, field: "broker.password_env",
                    reasonContains: "not set")
        chmod(passwordFile.path, 0o644)
        expectError(#"{"broker":{"username":"u","password_file":"\#(passwordFile.path)"}}"#, field: "broker.password_file",
                    reasonContains: "readable by every user (mode 0644): chmod o-rwx")

        expectError(#"{"broker":{"protocol":"mqtt4"}}"#, field: "broker.protocol", reasonContains: "mqtt5 or mqtt311")
        expectError(#"{"broker":{"password_file":"a","password_env":"B"}}"#, field: "broker.password_file", reasonContains: "not both")
        expectError(#"{"broker":{"password":"hunter2"}}"#, field: "broker.password", reasonContains: "unknown field")
        expectError(#"{"broker":{"tls":{}}}"#, field: "broker.tls.ca_file", reasonContains: "ca_file or ca_directory")
        expectError(#"{"broker":{"tls":{"ca_file":"/nonexistent/ca.pem"}}}"#, field: "broker.tls.ca_file", reasonContains: "cannot read")
        expectError(#"{"broker":{"tls":{"ca_file":"\#(caFile.path)","key_file":"\#(caFile.path)"}}}"#,
                    field: "broker.tls.certificate_file", reasonContains: "go together")
        expectError(#"{"broker":{"reconnect":{"min_delay":0}}}"#, field: "broker.reconnect.min_delay", reasonContains: "min_delay")
        expectError(#"{"broker":{"offline_buffer":{"max_messages":-1}}}"#, field: "broker.offline_buffer.max_messages", reasonContains: "0…")
    }

    @Test func samplingSettingsPerService() throws {
        let configuration = try parse("""
            {"health_interval":5,
             "services":{"accelerometer":{"interval":0.04,"mode":"mean","batch":5,"message_expiry":30},
                         "gyro":{"deadband":0.01,"heartbeat":2}}}
            """)
        let accelerometer = configuration.settings(for: .accelerometer)
        #expect(accelerometer.sampling == TopicSamplingSettings(interval: 0.04, mode: .mean, batchSize: 5))
        #expect(accelerometer.messageExpiry == 30)
        #expect(configuration.settings(for: .gyro).sampling == TopicSamplingSettings(interval: 0.02, deadband: 0.01, heartbeat: 2))
        #expect(configuration.healthInterval == 5)

        expectError(#"{"services":{"gyro":{"rate_hz":10,"interval":0.1}}}"#, field: "services.gyro.interval", reasonContains: "not both")
        expectError(#"{"services":{"gyro":{"interval":0}}}"#, field: "services.gyro.interval", reasonContains: "0.001…86400")
        expectError(#"{"services":{"gyro":{"mode":"median"}}}"#, field: "services.gyro.mode", reasonContains: "latest or mean")
        expectError(#"{"services":{"gyro":{"batch":0}}}"#, field: "services.gyro.batch", reasonContains: "1 to 1000")
        expectError(#"{"services":{"gyro":{"deadband":-1}}}"#, field: "services.gyro.deadband", reasonContains: "at least 0")
        expectError(#"{"services":{"gyro":{"heartbeat":5}}}"#, field: "services.gyro.heartbeat", reasonContains: "only applies with a deadband")
        expectError(#"{"services":{"gyro":{"message_expiry":-3}}}"#, field: "services.gyro.message_expiry", reasonContains: "0…")
        expectError(#"{"health_interval":0.5}"#, field: "health_interval", reasonContains: "0 (off)")
    }

    @Test func commandLineOptionsOverrideTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID()).json")
        try Data(#"{"device_id":"from-file","device":"sim:rate=100"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let commandLine = try AgentCommandLine(arguments: [
            "--config", file.path, "--broker", "mqtt://127.0.0.1:2000", "--device", "sim", "--id", "cli",
        ])
        let configuration = try commandLine.configuration()
        #expect(configuration.resolvedDeviceID == "cli")
        #expect(configuration.device == "sim")
        #expect(configuration.broker.address.port == 2000)
    }

    /// Config/README.md: without `location`/`declination` and `calibration` in the file, the agent takes
    /// `MOTION_DECLINATION` / `MOTION_LOCATION` and `MOTION_CALIBRATION`, and `--check-config` checks them.
    @Test func whatTheFileLeavesOutComesFromTheEnvironment() throws {
        let trueNorth = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID()).json")
        try Data(#"{"services":{"device-motion":{"frame":"xTrueNorthZVertical"}}}"#.utf8).write(to: trueNorth)
        defer { try? FileManager.default.removeItem(at: trueNorth) }
        let commandLine = try AgentCommandLine(arguments: ["--config", trueNorth.path])
        #expect(try commandLine.configuration(environment: ["MOTION_DECLINATION": "4.5"]).magneticReference == .declination(4.5))
        #expect(try commandLine.configuration(environment: ["MOTION_LOCATION": "52.52, 13.40"]).magneticReference
            == .location(latitude: 52.52, longitude: 13.40, altitude: 0))
        #expect(try commandLine.configuration(environment: ["MOTION_DECLINATION": "1", "MOTION_LOCATION": "0,0"]).magneticReference
            == .declination(1), "the declination itself first, as the engine reads them")
        #expect(throws: ConfigurationError(fieldPath: "services.device-motion.frame", reason: "xTrueNorthZVertical needs the magnetic declination: set location or declination (or MOTION_LOCATION / MOTION_DECLINATION)")) {
            try commandLine.configuration(environment: ["MOTION_DECLINATION": ""])
        }
        #expect(throws: ConfigurationError(fieldPath: "MOTION_DECLINATION (environment)", reason: "must be a number of degrees within ±180")) {
            try commandLine.configuration(environment: ["MOTION_DECLINATION": "east"])
        }
        #expect(throws: ConfigurationError.self) { try commandLine.configuration(environment: ["MOTION_LOCATION": "95,0"]) }

        let withDeclination = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID()).json")
        try Data(#"{"declination": -2}"#.utf8).write(to: withDeclination)
        defer { try? FileManager.default.removeItem(at: withDeclination) }
        let fileFirst = try AgentCommandLine(arguments: ["--config", withDeclination.path])
        #expect(try fileFirst.configuration(environment: ["MOTION_DECLINATION": "7"]).magneticReference == .declination(-2), "the file wins")
        #expect(throws: ConfigurationError.self, "a missing calibration file named by MOTION_CALIBRATION is refused like the field") {
            try fileFirst.configuration(environment: ["MOTION_CALIBRATION": "/nonexistent/calibration.json"])
        }
    }

    @Test func aClusterIsAListOfBrokerURLs() throws {
        let cluster = try AgentConfiguration.parse(Array(#"{"broker":{"urls":["mqtt://node-a:1883","mqtt://[::1]:1884"]}}"#.utf8))
        #expect(cluster.broker.address == MQTTBrokerAddress(host: "node-a", port: 1883))
        #expect(cluster.broker.failoverAddresses == [MQTTBrokerAddress(host: "::1", port: 1884)])
        let client = try cluster.clientConfiguration(will: nil)
        #expect(client.brokers.map(\.port) == [1883, 1884])
        let refused: [(String, String)] = [
            (#"{"broker":{"url":"mqtt://a:1","urls":["mqtt://b:1"]}}"#, "broker.urls"),
            (#"{"broker":{"urls":[]}}"#, "broker.urls"),
            (#"{"broker":{"urls":"mqtt://a:1"}}"#, "broker.urls"),
            (#"{"broker":{"urls":["mqtt://a:1", 7]}}"#, "broker.urls[1]"),
            (#"{"broker":{"urls":["mqtt://a:1", "http://b:2"]}}"#, "broker.urls[1]"),
            (#"{"broker":{"urls":["mqtt://a:1", "mqtt://a:1"]}}"#, "broker.urls[1]"),
        ]
        for (json, field) in refused {
            #expect { try AgentConfiguration.parse(Array(json.utf8)) } throws: { ($0 as? ConfigurationError)?.fieldPath == field }
        }
    }

    @Test func commandLineErrors() throws {
        #expect(throws: CommandLineError("unknown option --verbose")) { try AgentCommandLine(arguments: ["--verbose"]) }
        #expect(throws: CommandLineError("--config needs a value")) { try AgentCommandLine(arguments: ["--config"]) }
        let badID = try AgentCommandLine(arguments: ["--id", "Not Valid"])
        #expect(throws: ConfigurationError.self) { try badID.configuration() }
        let badBroker = try AgentCommandLine(arguments: ["--broker", "mqtt://host:notaport"])
        do {
            _ = try badBroker.configuration()
            Issue.record("expected an error")
        } catch {
            #expect(error.fieldPath == "broker.url (--broker)")
        }
    }

    @Test func deviceIdentifiersFollowTheContract() {
        #expect(DeviceIdentifier.sanitized("Pi-4.Lab_01") == "pi-4-lab_01")
        #expect(DeviceIdentifier.sanitized("Ünïcode box") == "-n-code-box")
        #expect(DeviceIdentifier.isValid("pi-4"))
        #expect(!DeviceIdentifier.isValid("Pi"))
        #expect(!DeviceIdentifier.isValid(""))
        #expect(DeviceIdentifier.isValid(DeviceIdentifier.fromHostName()))
    }
}

/// The device's mounting and the field recording in the configuration and on the command line.
@Suite struct AgentDeviceConfigurationTests {
    private func parse(_ json: String) throws(ConfigurationError) -> AgentConfiguration {
        try AgentConfiguration.parse(Data(json.utf8))
    }

    @Test func mountMatrixAndRecordingAreRead() throws {
        let configuration = try parse(
            #"{"mount_matrix":"0, 1, 0; -1, 0, 0; 0, 0, 1","record":{"file":"/tmp/field.csv","seconds":30}}"#)
        let expected = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(configuration.mountMatrix == expected)
        #expect(configuration.recording == RecordingSettings(file: "/tmp/field.csv", seconds: 30))
        let defaults = try parse(#"{"record":{"file":"/tmp/field.csv"}}"#)
        #expect(defaults.mountMatrix == nil && defaults.recording?.seconds == 600)
        // --record overrides the file and keeps the configured duration.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).json")
        try Data(#"{"record":{"file":"/tmp/a.csv","seconds":5}}"#.utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let commandLine = try AgentCommandLine(arguments: ["--config", path.path, "--record", "/tmp/b.csv"])
        #expect(try commandLine.configuration().recording == RecordingSettings(file: "/tmp/b.csv", seconds: 5))
        #expect(try AgentCommandLine(arguments: ["--record", "/tmp/c.csv"]).configuration().recording?.seconds == 600)
        #expect(throws: CommandLineError("--record needs a value")) { try AgentCommandLine(arguments: ["--record"]) }
    }

    @Test func badValuesNameTheField() {
        let cases: [(String, String, String)] = [
            (#"{"mount_matrix":"1, 0, 0; 0, 1, 0"}"#, "mount_matrix", "needs 3 rows"),
            (#"{"mount_matrix":"2, 0, 0; 0, 1, 0; 0, 0, 1"}"#, "mount_matrix", "not a rotation"),
            (#"{"mount_matrix":[1, 0, 0]}"#, "mount_matrix", "string"),
            (#"{"record":{}}"#, "record.file", "is required"),
            (#"{"record":{"file":""}}"#, "record.file", "must name a file"),
            (#"{"record":{"file":"/tmp/x.csv","seconds":0}}"#, "record.seconds", "above 0"),
            (#"{"record":{"file":"/tmp/x.csv","minutes":3}}"#, "record.minutes", "unknown field"),
            (#"{"remote_config":{"state_file":""}}"#, "remote_config.state_file", "must name a file"),
            (#"{"remote_config":{"enabled":"yes"}}"#, "remote_config.enabled", "true or false"),
            (#"{"remote_config":{"file":"x"}}"#, "remote_config.file", "unknown field"),
            (#"{"services":{"gyro":{"format":"xml"}}}"#, "services.gyro.format", #"must be "json", "cbor", "senml+json" or "senml+cbor""#),
        ]
        for (json, field, reason) in cases {
            #expect {
                _ = try parse(json)
            } throws: { error in
                guard let error = error as? ConfigurationError else { return false }
                return error.fieldPath == field && error.reason.contains(reason)
            }
        }
    }

    /// Issue 29, F12: a state file or buffer the agent cannot write now is a warning, not exit 78.
    @Test func unwritableStorageIsAWarningNotAnError() throws {
        let configuration = try parse(#"{"remote_config":{"state_file":"/no/such/dir/state.json"},"broker":{"offline_buffer":{"path":"/no/such/dir/b.db"}}}"#)
        #expect(configuration.storageWarnings == [
            "broker.offline_buffer.path: cannot keep the offline buffer in /no/such/dir/b.db (no directory /no/such/dir): it will be kept in memory only",
            "remote_config.state_file: cannot keep the state in /no/such/dir/state.json (no directory /no/such/dir): remote documents will be kept in memory only",
        ])
    }
}
