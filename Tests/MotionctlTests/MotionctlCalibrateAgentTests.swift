import AgentTestSupport
import Foundation
import MotionHAL
import Testing

@testable import MotionAgent

/// The agent's `calibration` setting: a file made by `motionctl calibrate`, checked with the configuration
/// and applied at start; errors name the field and the file and exit with the configuration status.
@Suite struct MotionctlCalibrateAgentTests {
    static let calibration = IMUCalibration(
        created: Date(timeIntervalSince1970: 1_796_000_000), device: "sim",
        gyroscope: .init(bias: SIMD3(0.005, -0.008, 0.003)))

    private func temporaryFile(_ contents: Data?) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID().uuidString).json").path
        if let contents { try contents.write(to: URL(fileURLWithPath: path)) }
        return path
    }

    private func parse(_ json: String) throws(ConfigurationError) -> AgentConfiguration {
        try AgentConfiguration.parse(Data(json.utf8))
    }

    @Test func aValidFileIsAccepted() throws {
        let path = try temporaryFile(Self.calibration.encoded())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try parse(#"{"calibration": "\#(path)"}"#).calibration == path)
        #expect(try parse("{}").calibration == nil)
        #expect(try AgentConfiguration.loadCalibration(path) == Self.calibration)
    }

    @Test func badFilesNameTheFieldAndTheFile() throws {
        let cases: [(json: String, reason: String)] = [
            (#"{"calibration": ""}"#, "must name a calibration file"),
            (#"{"calibration": "/nonexistent/calibration.json"}"#, "calibration file /nonexistent/calibration.json: cannot read"),
            (#"{"calibration": 5}"#, "must be a string"),
        ]
        for (json, reason) in cases {
            do {
                _ = try parse(json)
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.fieldPath == "calibration")
                #expect(error.reason.contains(reason), "\(error.reason)")
            }
        }
        let invalid = try temporaryFile(Data(#"{"format_version": 1, "created": "2026-11-30T00:00:00Z", "device": "x", "gyroscope": {"bias_rad_s": [1, 2]}}"#.utf8))
        defer { try? FileManager.default.removeItem(atPath: invalid) }
        do {
            _ = try parse(#"{"calibration": "\#(invalid)"}"#)
            Issue.record("accepted an invalid calibration file")
        } catch {
            #expect(error.description.hasPrefix("configuration error: calibration: calibration file \(invalid): field gyroscope.bias_rad_s"), "\(error)")
        }
    }

    @Test func theAgentExitsWithTheConfigurationStatus() throws {
        let configuration = try temporaryFile(Data(#"{"calibration": "/nonexistent/calibration.json"}"#.utf8))
        defer { try? FileManager.default.removeItem(atPath: configuration) }
        let run = try AgentProcess.run("motion-agent", arguments: ["--config", configuration, "--check-config"])
        #expect(run.status == 78)
        #expect(run.log.contains("calibration: calibration file /nonexistent/calibration.json"), "\(run.log)")
    }
}
