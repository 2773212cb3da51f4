import AgentTestSupport
import Foundation
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// Recordings that once killed `motion-agent` and `motionctl fuse` (SIGILL: a Double → UInt64
    /// conversion out of range, an infinite sample rate): both now say what is wrong and live on.
    @Suite(.timeLimit(.minutes(1))) struct HostileRecordingTests {
        static let header = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"

        /// Each file and the phrase its error must contain.
        static let files: [(name: String, csv: String, reason: String)] = [
            ("far-timestamp", header + "0,0,0,0,0,0,9.8\n2e10,0,0,0,0,0,9.8\n", "after the first sample"),
            ("repeated-timestamp", header + "1,0,0,0,0,0,9.8\n1,0,0,0,0,0,9.8\n", "not later than"),
            ("negative-then-back", header + "-1,0,0,0,0,0,9.8\n-2,0,0,0,0,0,9.8\n", "not later than"),
            ("nanosecond-rate", header + "0,0,0,0,0,0,9.8\n1e-9,0,0,0,0,0,9.8\n2e-9,0,0,0,0,0,9.8\n", "sample rate"),
        ]

        private static func write(_ csv: String, named name: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(name)-\(UUID().uuidString).csv")
            try Data(csv.utf8).write(to: url)
            return url
        }

        @Test(arguments: files.map(\.name))
        func fuseExitsWithADataErrorNamingTheLine(name: String) throws {
            let file = try #require(Self.files.first { $0.name == name })
            let input = try Self.write(file.csv, named: name)
            defer { try? FileManager.default.removeItem(at: input) }
            let output = input.deletingPathExtension().appendingPathExtension("out.csv")
            let run = try AgentProcess.run("motionctl", arguments: ["fuse", "--input", input.path, "--output", output.path])
            #expect(run.status == 65, "\(run.log)")
            #expect(run.log.contains(input.path) && run.log.contains(file.reason), "\(run.log)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }

        @Test func theAgentReportsTheReplayUnavailableAndStaysUp() throws {
            let inputs = try Self.files.map { try Self.write($0.csv, named: $0.name) }
            defer { for input in inputs { try? FileManager.default.removeItem(at: input) } }
            for (file, input) in zip(Self.files, inputs) {
                let running = try RunningAgent.start(device: "replay:\(input.path)")
                defer { running.cleanUp() }
                let status = running.subscriber.waitForMessage(on: running.topics.status(.deviceMotion), timeout: .seconds(5))
                let reason = status.flatMap { RunningAgent.object($0.message)?["error"] as? String } ?? ""
                #expect(status.map { !RunningAgent.isAvailable($0.message) } == true, "\(file.name): \(running.agent.log)")
                #expect(reason.contains(file.reason), "\(file.name): \(reason)")
                running.agent.send(SIGTERM)
                #expect(running.agent.waitForExit(timeout: .seconds(5)) == 0, "\(file.name): \(running.agent.log)")
            }
        }
    }
}
