import Foundation
import MotionContract
import MotionHAL
import Testing

@testable import MotionAgent

/// The desired state as a pure value: documents merged, checked with the file's field paths, their
/// sources, the report's hash, and the state file written whole or not at all.
@Suite struct RemoteConfigurationTests {
    private func accept(_ documents: String...) throws(ConfigurationError) -> RemoteConfiguration {
        var state = RemoteConfiguration()
        for document in documents { state = try state.accepting(Array(document.utf8)) }
        return state
    }

    @Test func documentsMergeCountAndHandSettingsBackToTheFile() throws {
        let state = try accept(
            #"{"services":{"gyro":{"rate_hz":10,"mode":"mean"}}}"#, #"{"health_interval":30}"#, #"{"services":{"gyro":{"mode":null}}}"#)
        #expect(state.version == 3)
        #expect(state.overlay == ["services": .object(["gyro": .object(["rate_hz": .integer(10)])]), "health_interval": .integer(30)])
        #expect(state.sources["services.gyro"] == .remote && state.sources["health_interval"] == .remote)
        #expect(state.sources["services.accelerometer"] == .file && state.sources["mount_matrix"] == .file)
        let cleared = try state.accepting(Array(#"{"services":{"gyro":{"rate_hz":null}}}"#.utf8))
        #expect(cleared.overlay == ["health_interval": .integer(30)], "an emptied service is the file's again")
        #expect(cleared.sources["services.gyro"] == .file)
    }

    @Test func aRateReplacesAnIntervalAndTheReverse() throws {
        let file = try AgentConfiguration.parse(Array(#"{"services":{"gyro":{"interval":0.5}}}"#.utf8))
        let state = try accept(#"{"services":{"gyro":{"interval":0.25}}}"#, #"{"services":{"gyro":{"rate_hz":20}}}"#)
        #expect(state.overlay["services"]?.objectMembers?["gyro"] == .object(["rate_hz": .integer(20)]))
        #expect(try file.applying(remote: state.overlay).settings(for: .gyro).sampling.interval == 0.05)
    }

    @Test func aDocumentChangesOnlyTheSettingsItNames() throws {
        let file = try AgentConfiguration.parse(Array(#"{"services":{"gyro":{"rate_hz":100,"qos":1,"deadband":0.01,"heartbeat":5}}}"#.utf8))
        let state = try accept(#"{"services":{"gyro":{"mode":"mean"}}}"#)
        let gyro = try file.applying(remote: state.overlay).settings(for: .gyro)
        #expect(gyro.sampling.mode == .mean && gyro.qos == 1 && gyro.sampling.interval == 0.01)
        #expect(gyro.sampling.deadband == 0.01 && gyro.sampling.heartbeat == 5)
    }

    @Test(arguments: [
        (#"{"services":{"gyro":{"qos":3}}}"#, "services.gyro.qos"),
        (#"{"services":{"gyro":{"rate_hz":0}}}"#, "services.gyro.rate_hz"),
        (#"{"services":{"gyro":{"batch":5000}}}"#, "services.gyro.batch"),
        (#"{"services":{"gyro":{"speed":1}}}"#, "services.gyro.speed"),
        (#"{"services":{"compass":{}}}"#, "services.compass"),
        (#"{"services":{"device-motion":{"frame":"xTrueNorthZVertical"}}}"#, "services.device-motion.frame"),
        (#"{"health_interval":0.5}"#, "health_interval"),
        (#"{"mount_matrix":"1, 0, 0; 0, 1, 0"}"#, "mount_matrix"),
        (#"{"broker":{"url":"mqtt://elsewhere:1883"}}"#, "broker"),
        (#"{"device":"i2c:/dev/i2c-1@0x68"}"#, "device"),
        (#"{"colour":"red"}"#, "colour"),
    ])
    func aBadDocumentIsRefusedWithTheFilesFieldPath(document: String, fieldPath: String) {
        let file = AgentConfiguration()
        #expect {
            _ = try file.applying(remote: try RemoteConfiguration().accepting(Array(document.utf8)).overlay)
        } throws: { ($0 as? ConfigurationError)?.fieldPath == fieldPath }
    }

    @Test func aDocumentThatIsNotAnObjectIsRefused() {
        for document in ["", "not json", "[1]", #"{"a":1,}"#] {
            #expect(throws: ConfigurationError.self) { try RemoteConfiguration().accepting(Array(document.utf8)) }
        }
    }

    @Test func theReportWritesEverySettingAndItsHashFollowsTheContent() throws {
        let file = AgentConfiguration()
        let state = try accept(#"{"services":{"gyro":{"rate_hz":10}},"mount_matrix":"0, 1, 0; -1, 0, 0; 0, 0, 1"}"#)
        let remote = try file.applying(remote: state.overlay)
        let report = remote.configurationReport(remote: state, ts: 0, error: nil)
        #expect(report.settings["mount_matrix"] == .string("0, 1, 0; -1, 0, 0; 0, 0, 1"))
        let gyro = report.settings["services"]?.objectMembers?["gyro"]?.objectMembers
        #expect(gyro?["interval"] == .real(0.1) && gyro?["enabled"] == .bool(true) && gyro?["qos"] == .integer(0))
        #expect(report.sources["services.gyro"] == .remote && report.version == 1)
        let plain = file.configurationReport(remote: RemoteConfiguration(), ts: 0, error: nil)
        #expect(plain.hash != report.hash && plain.hash.count == 64)
        #expect(plain.hash == AgentConfiguration().configurationReport(remote: RemoteConfiguration(), ts: 5, error: nil).hash)
        // The hash is SHA-256 of the canonical settings: anyone can check it.
        #expect(AgentConfiguration.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
