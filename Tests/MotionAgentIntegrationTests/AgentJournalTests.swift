import AgentTestSupport
import Foundation
import MotionTestSupport
import Testing

/// The real executable's lines on the systemd journal's stream.
@Suite struct AgentJournalTests {
    /// The real executable with its standard error on a file that `JOURNAL_STREAM` names, as systemd
    /// connects it: the configuration error (exit 78) arrives at error priority, and with another
    /// `JOURNAL_STREAM` (a redirected descriptor) the plain line as before.
    @Test func theAgentWritesPrioritiesOnlyToTheJournalStream() throws {
        let directory = FileManager.default.temporaryDirectory
        let config = directory.appendingPathComponent("bad-\(UUID().uuidString).json").path
        try Data(#"{"health_interval": -1}"#.utf8).write(to: URL(fileURLWithPath: config))
        defer { unlink(config) }
        func run(journalStreamOf matching: Bool) throws -> (status: Int32, log: String) {
            let logPath = directory.appendingPathComponent("journal-\(UUID().uuidString).log").path
            #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
            defer { unlink(logPath) }
            var status = stat()
            #expect(stat(logPath, &status) == 0)
            let agent = try ChildProcess(
                AgentProcess.productsDirectory.appendingPathComponent("motion-agent").path, ["--config", config, "--check-config"],
                environment: ProcessInfo.processInfo.environment.merging(
                    ["JOURNAL_STREAM": "\(status.st_dev):\(matching ? status.st_ino : status.st_ino + 1)"]) { $1 },
                standardOutput: .file("/dev/null", appending: true), standardError: .file(logPath, appending: true))
            let exitStatus = try #require(agent.waitForExit(timeout: .seconds(20)))
            return (exitStatus, try String(contentsOfFile: logPath, encoding: .utf8))
        }
        let journal = try run(journalStreamOf: true)
        #expect(journal.status == 78)
        #expect(journal.log.hasPrefix("<3>motion-agent: configuration error: health_interval"), "\(journal.log)")
        let elsewhere = try run(journalStreamOf: false)
        #expect(elsewhere.status == 78)
        #expect(elsewhere.log.hasPrefix("motion-agent: configuration error: health_interval"), "\(elsewhere.log)")
    }
}
