import AgentTestSupport
import Foundation
import MotionTestSupport
import PrivateBroker
import Testing

/// Deploy/systemd/motion-agent.service: systemd's own checks of the unit (`systemd-analyze verify`) and
/// its hardening score (`systemd-analyze security`, offline), with the unit's program replaced by the
/// build's agent, since the package's /usr/bin/motion-agent is not installed here.
@Suite struct SystemdUnitTests {
    static let unit = Repository.schemas.deletingLastPathComponent().appendingPathComponent("Deploy/systemd/motion-agent.service")

    /// The unit as a file `motion-agent.service` in a directory of its own, ExecStart pointing at `agent`.
    private func unitCopy(agent: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = try String(contentsOf: Self.unit, encoding: .utf8).replacingOccurrences(of: "/usr/bin/motion-agent", with: agent)
        let copy = directory.appendingPathComponent("motion-agent.service")
        try Data(text.utf8).write(to: copy)
        return copy
    }

    @Test func theUnitPassesSystemdAnalyzeVerifyAndScoresOK() throws {
        let copy = try unitCopy(agent: AgentProcess.productsDirectory.appendingPathComponent("motion-agent").path)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let text = try String(contentsOf: copy, encoding: .utf8)
        for setting in [
            "Type=notify", "WatchdogSec=", "Restart=on-failure", "StartLimitBurst=", "ProtectSystem=strict", "ProtectHome=yes",
            "PrivateTmp=yes", "NoNewPrivileges=yes", "DevicePolicy=closed", "DeviceAllow=char-iio rw", "DeviceAllow=char-i2c rw",
            "\nCapabilityBoundingSet=\n", "User=motion-agent", "RestartPreventExitStatus=78",
        ] {
            #expect(text.contains(setting), "the unit sets \(setting)")
        }
        // The man pages come with the package; here only the unit itself is checked.
        let verify = try CommandLineTool.run("/usr/bin/systemd-analyze", ["verify", "--man=no", copy.path], timeout: .seconds(30))
        #expect(verify.status == 0 && verify.output.isEmpty, "systemd-analyze verify: \(verify.output)")
        let security = try CommandLineTool.run("/usr/bin/systemd-analyze", ["security", "--offline=true", "--no-pager", copy.path], timeout: .seconds(30))
        let line = try #require(security.output.split(separator: "\n").first { $0.contains("Overall exposure level") }.map(String.init), "\(security.output)")
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        // 0 is fully locked down, 10 fully exposed; systemd calls below 2 "OK".
        #expect(score < 2, "exposure \(score): \(line)")
        print("systemd-analyze security: \(line)")
    }
}
