import AgentTestSupport
import MotionContract
import Foundation
import Testing

@testable import MotionAgent

/// Malformed configuration files, each refused with one clear message that names the field path and exit
/// status 78 — by `--check-config` exactly as by a start, which once said "configuration OK" for files the
/// agent then refused.
@Suite struct ConfigurationRefusalTests {
    /// Files some cases point at: a private password file, one every user can read, a key every user can
    /// read, a directory that exists.
    static let directory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refusals-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, mode) in [("private-password", 0o600), ("shared-password", 0o644), ("shared-key.pem", 0o644), ("ca.pem", 0o644)] {
            let path = directory.appendingPathComponent(name).path
            _ = FileManager.default.createFile(atPath: path, contents: Data("secret\n".utf8))
            chmod(path, mode_t(mode))
        }
        // A FIFO (opening it for reading would wait for a writer) and a link to the password file.
        mkfifo(directory.appendingPathComponent("fifo").path, 0o600)
        // A calibration file whose gyroscope part has a misspelt key (issue 31: it was read as no bias).
        let misspelt = #"{"format_version":1,"created":"2026-12-04T00:00:00Z","device":"sim","gyroscope":{"bias_rads":[0.01,0,0]}}"#
        _ = FileManager.default.createFile(
            atPath: directory.appendingPathComponent("misspelt-calibration.json").path, contents: Data(misspelt.utf8))
        try? FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("link-to-password").path,
            withDestinationPath: directory.appendingPathComponent("private-password").path)
        return directory
    }()

    /// (document, the field path the message must name, a phrase of the reason). `$DIR` is ``directory``.
    static let cases: [(json: String, field: String, reason: String)] = [
        (#"{"device":"sim""#, "", "not valid JSON"),
        (#"{"device":"sim",}"#, "", "not valid JSON"),
        (#"{"device":"sim","device":"sim:rate=10"}"#, "", "duplicate object key"),
        (#"{"device":"sim"} trailing"#, "", "not valid JSON"),
        (#"// comment\n{}"#, "", "not valid JSON"),
        ("[]", "", "must be a JSON object"),
        ("", "", "empty"),
        (#"{"devise":"sim"}"#, "devise", "unknown field"),
        (#"{"device":5}"#, "device", "must be a string"),
        (#"{"device":""}"#, "device", "must name a device"),
        (#"{"device":"sim:rate=0"}"#, "device", "outside 1...8000 Hz"),
        (#"{"device":"bogus"}"#, "device", "unknown driver"),
        (#"{"barometer":5}"#, "barometer", "must be a string"),
        (#"{"barometer":"altimeter"}"#, "barometer", "invalid barometer specification"),
        (#"{"barometer":"sim:rate=0"}"#, "barometer", "rate"),
        (#"{"services":{"steps":{"interval":0}}}"#, "services.steps.interval", "0.001"),
        (#"{"services":{"altitude":{"frame":"xArbitraryZVertical"}}}"#, "services.altitude.frame", "unknown field"),
        (#"{"device":"sim:colour=red"}"#, "device", "unknown option 'colour'"),
        (#"{"device":"sim:fault_after=1e300"}"#, "device", "fault_after"),
        (#"{"device":"i2c:/dev/i2c-1@0x99"}"#, "device", "7-bit address"),
        (#"{"device_id":"Bad Id"}"#, "device_id", "a-z, 0-9"),
        (#"{"topic_prefix":"a/#"}"#, "topic_prefix", "without wildcards"),
        (#"{"health_interval":0.5}"#, "health_interval", "0 (off) or 1…86400"),
        (#"{"health_interval":1e400}"#, "", "not valid JSON"),
        (#"{"mount_matrix":"1, 0, 0"}"#, "mount_matrix", ""),
        (#"{"location":{"latitude":91,"longitude":0}}"#, "location.latitude", "±90"),
        (#"{"location":{"latitude":1,"longitude":2},"declination":3}"#, "declination", "not both"),
        (#"{"calibration":"/nonexistent/calibration.json"}"#, "calibration", "/nonexistent/calibration.json"),
        (#"{"calibration":"$DIR/misspelt-calibration.json"}"#, "calibration", "field gyroscope.bias_rads: is not a known key"),
        (#"{"record":{"file":"/nonexistent/dir/field.csv"}}"#, "record.file", "no directory /nonexistent/dir"),
        (#"{"record":{"file":"$DIR"}}"#, "record.file", "not a writable regular file"),
        (#"{"record":{"file":"$DIR/field.csv","seconds":1e300}}"#, "record.seconds", "a week"),
        (#"{"services":{"gyroscope":{}}}"#, "services.gyroscope", "unknown field"),
        (#"{"services":{"gyro":{"rate_hz":0}}}"#, "services.gyro.rate_hz", "1/86400…1000 Hz"),
        (#"{"services":{"gyro":{"rate_hz":10,"interval":0.1}}}"#, "services.gyro.interval", "not both"),
        (#"{"services":{"gyro":{"qos":3}}}"#, "services.gyro.qos", "0, 1 or 2"),
        (#"{"services":{"gyro":{"qos":1.5}}}"#, "services.gyro.qos", "whole number"),
        (#"{"services":{"accelerometer":{"batch":0}}}"#, "services.accelerometer.batch", "whole number"),
        (#"{"services":{"accelerometer":{"heartbeat":5}}}"#, "services.accelerometer.heartbeat", "deadband"),
        (#"{"services":{"accelerometer":{"mode":"median"}}}"#, "services.accelerometer.mode", ""),
        (#"{"services":{"gyro":{"message_expiry":-1}}}"#, "services.gyro.message_expiry", "0…4294967295"),
        (#"{"detectors":{"knock":{}}}"#, "detectors.knock", "unknown field"),
        (#"{"detectors":{"tilt":{"angle":10}}}"#, "detectors.tilt.angle", "unknown field"),
        (#"{"detectors":{"tilt":{"threshold":500}}}"#, "detectors.tilt.threshold", "1…179 °"),
        (#"{"detectors":{"tilt":{"threshold":10,"hysteresis":12}}}"#, "detectors.tilt.hysteresis", "smaller than"),
        (#"{"detectors":{"shake":{"reversals":2.5}}}"#, "detectors.shake.reversals", "whole number"),
        (#"{"detectors":{"free_fall":{"enabled":"yes"}}}"#, "detectors.free_fall.enabled", "true or false"),
        (#"{"detectors":{"qos":3}}"#, "detectors.qos", "0, 1 or 2"),
        (#"{"detectors":{"format":"xml"}}"#, "detectors.format", "\"json\" or \"cbor\""),
        (#"{"detectors":{"vibration":{"bands":[[100,20]]}}}"#, "detectors.vibration.bands[0]", "0 < low < high"),
        (#"{"detectors":{"vibration":{"bands":[20,100]}}}"#, "detectors.vibration.bands[0]", "[low, high] pairs"),
        (#"{"detectors":{"vibration":{"bands":[]}}}"#, "detectors.vibration.bands", "[low, high] pairs"),
        (#"{"detectors":{"tilt":{"reference":"now"}}}"#, "detectors.tilt.reference", "\"start\" or a gravity direction"),
        (#"{"detectors":{"tilt":{"reference":[0,0]}}}"#, "detectors.tilt.reference", "\"start\" or a gravity direction"),
        (#"{"detectors":{"tilt":{"reference":[0,0,0.01]}}}"#, "detectors.tilt.reference", "at least 0.1"),
        (#"{"services":{"device-motion":{"frame":"xNorth"}}}"#, "services.device-motion.frame", "unknown frame"),
        (#"{"services":{"device-motion":{"frame":"xTrueNorthZVertical"}}}"#, "services.device-motion.frame", "declination"),
        (#"{"broker":{"keepalive":2}}"#, "broker.keepalive", "5 and 65535"),
        (#"{"broker":{"url":"http://example.org"}}"#, "broker.url", ""),
        (#"{"broker":{"protocol":"mqtt4"}}"#, "broker.protocol", "mqtt5 or mqtt311"),
        (#"{"broker":{"password":"hunter2"}}"#, "broker.password", "unknown field"),
        (#"{"broker":{"password_file":"$DIR/private-password"}}"#, "broker.username", "required"),
        (#"{"broker":{"username":"u","password_file":"/nonexistent/password"}}"#, "broker.password_file", "No such file"),
        (#"{"broker":{"username":"u","password_file":"$DIR/shared-password"}}"#, "broker.password_file", "chmod o-rwx"),
        (#"{"broker":{"username":"u","password_env":"MOTION_TEST_UNSET_VARIABLE"}}"#, "broker.password_env", "not set"),
        (#"{"broker":{"tls":{}}}"#, "broker.tls.ca_file", "ca_file or ca_directory"),
        (#"{"broker":{"tls":{"ca_file":"/nonexistent/ca.pem"}}}"#, "broker.tls.ca_file", "cannot read"),
        (#"{"broker":{"tls":{"ca_file":"$DIR/ca.pem","certificate_file":"$DIR/ca.pem","key_file":"$DIR/shared-key.pem"}}}"#,
         "broker.tls.key_file", "chmod o-rwx"),
        (#"{"broker":{"reconnect":{"min_delay":0}}}"#, "broker.reconnect.min_delay", "min_delay"),
        (#"{"broker":{"offline_buffer":{"max_messages":-1}}}"#, "broker.offline_buffer.max_messages", "0…"),
        // Issue 29, F7: a FIFO as password file hung --check-config and the start forever.
        (#"{"broker":{"username":"u","password_file":"$DIR/fifo"}}"#, "broker.password_file", "not a regular file"),
        (#"{"broker":{"tls":{"ca_file":"$DIR/fifo"}}}"#, "broker.tls.ca_file", "not a regular file"),
        // F8: a rate below once a day gave an interval of 1e300 s (the interval itself is held to 86400 s).
        (#"{"services":{"gyro":{"rate_hz":1e-300}}}"#, "services.gyro.rate_hz", "1/86400…1000 Hz"),
        (#"{"services":{"gyro":{"rate_hz":1e-320}}}"#, "services.gyro.rate_hz", "1/86400…1000 Hz"),
        (#"{"services":{"gyro":{"rate_hz":1001}}}"#, "services.gyro.rate_hz", "1/86400…1000 Hz"),
        // F6: a file the agent writes is a file it reads, or another it writes (by name, link or companion).
        (#"{"remote_config":{"state_file":"$DIR/private-password"},"broker":{"username":"u","password_file":"$DIR/private-password"}}"#,
         "remote_config.state_file", "is also broker.password_file"),
        (#"{"remote_config":{"state_file":"$DIR/link-to-password"},"broker":{"username":"u","password_file":"$DIR/private-password"}}"#,
         "remote_config.state_file", "the agent would overwrite a file it reads"),
        (#"{"remote_config":{"state_file":"$DIR/buffer.db"},"broker":{"offline_buffer":{"path":"$DIR/buffer.db"}}}"#,
         "remote_config.state_file", "each needs a file of its own"),
        (#"{"remote_config":{"state_file":"$DIR/buffer.db-wal"},"broker":{"offline_buffer":{"path":"$DIR/buffer.db"}}}"#,
         "remote_config.state_file", "is also broker.offline_buffer.path"),
        (#"{"record":{"file":"$DIR/ca.pem"},"broker":{"tls":{"ca_file":"$DIR/ca.pem"}}}"#, "record.file", "is also broker.tls.ca_file"),
        (#"{"broker":{"username":"u","password_file":"$DIR/private-password","offline_buffer":{"path":"$DIR/../\#(directory.lastPathComponent)/private-password"}}}"#,
         "broker.offline_buffer.path", "is also broker.password_file"),
    ]

    private static func write(_ json: String) throws -> String {
        let path = directory.appendingPathComponent("config-\(UUID().uuidString).json").path
        try Data(json.replacingOccurrences(of: "$DIR", with: directory.path).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: cases.indices)
    func checkAndStartRefuseTheFileAlike(index: Int) throws {
        let (json, field, reason) = Self.cases[index]
        let path = try Self.write(json)
        defer { unlink(path) }
        let prefix = field.isEmpty ? "motion-agent: configuration error: " : "motion-agent: configuration error: \(field): "
        let check = try AgentProcess.run("motion-agent", arguments: ["--config", path, "--check-config"], timeout: .seconds(10))
        let start = try AgentProcess.run("motion-agent", arguments: ["--config", path, "--broker", "mqtt://127.0.0.1:1"], timeout: .seconds(10))
        for (mode, run) in [("--check-config", check), ("start", start)] {
            #expect(run.status == ConfigurationError.exitStatus, "\(mode) of \(json): \(run.log)")
            let lines = run.log.split(separator: "\n")
            #expect(lines.count == 1, "\(mode): one clear message, not \(lines.count) lines: \(run.log)")
            #expect(run.log.hasPrefix(prefix) && (reason.isEmpty || run.log.contains(reason)), "\(mode) of \(json): \(run.log)")
        }
        #expect(check.log == start.log, "the same message from both")
    }

    @Test func aFileThatPassesTheCheckStarts() throws {
        let path = try Self.write(#"{"device":"sim:rate=100","record":{"file":"$DIR/ok.csv","seconds":5}}"#)
        defer { unlink(path) }
        let check = try AgentProcess.run("motion-agent", arguments: ["--config", path, "--check-config"])
        #expect(check.status == 0 && check.output.hasPrefix("configuration OK"), "\(check.log)")
        #expect(!FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent("ok.csv").path), "the check creates nothing")
        let agent = try AgentProcess(arguments: ["--config", path, "--broker", "mqtt://127.0.0.1:1"])
        #expect(agent.waitForExit(timeout: .seconds(1)) == nil, "still running: \(agent.log)")
        // Nobody listens on port 1: the log says so (it once said "failed: Success: Connection refused").
        #expect(agent.log.contains("Connection refused") && !agent.log.contains("Success"), "\(agent.log)")
        agent.send(SIGTERM)
        #expect(agent.waitForExit(timeout: .seconds(5)) == 0)
    }

    @Test func filesThatAreNotConfigurationsAreRefusedUnread() throws {
        for (path, reason) in [("/dev/zero", "not a regular file"), ("/nonexistent.json", "No such file")] {
            let run = try AgentProcess.run("motion-agent", arguments: ["--config", path, "--check-config"], timeout: .seconds(5))
            #expect(run.status == ConfigurationError.exitStatus && run.log.contains(reason), "\(run.log)")
        }
        let large = try Self.write("{}" + String(repeating: " ", count: AgentConfiguration.maximumFileSize))
        defer { unlink(large) }
        let run = try AgentProcess.run("motion-agent", arguments: ["--config", large, "--check-config"])
        #expect(run.status == ConfigurationError.exitStatus && run.log.contains("larger than 1024 KiB"), "\(run.log)")
    }
}
