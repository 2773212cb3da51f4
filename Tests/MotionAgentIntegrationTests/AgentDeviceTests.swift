import AgentTestSupport
import Foundation
import MQTT
import MotionHAL
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// The agent and its device: a device missing at start, the field recording, the mount matrix.
    @Suite(.timeLimit(.minutes(1))) struct AgentDeviceTests {
        @Test func aDeviceMissingAtStartIsOpenedOnceItAppears() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let recording = directory.appendingPathComponent("later.csv")
            let running = try RunningAgent.start(device: "replay:\(recording.path),loop")
            defer { running.cleanUp() }
            let topics = running.topics

            // At first: online, every service unavailable with the reason.
            let missing = try #require(running.subscriber.waitForMessage(on: topics.status(.accelerometer)), "\(running.agent.log)")
            let reason = RunningAgent.object(missing.message)?["error"] as? String
            #expect(!RunningAgent.isAvailable(missing.message) && reason?.contains("later.csv") == true, "\(reason ?? "")")

            // The recording appears: within the back-off (1, 2, 4 s) the agent opens it and publishes.
            try FileManager.default.copyItem(at: Repository.broadExcerpt, to: recording)
            #expect(running.subscriber.waitForMessage(on: topics.status(.accelerometer), timeout: .seconds(10)) {
                RunningAgent.isAvailable($0)
            } != nil, "\(running.agent.log)")
            #expect(running.subscriber.waitForCount(on: topics.data(.accelerometer), count: 5), "\(running.agent.log)")
            let info = running.subscriber.messages(on: topics.info).last.flatMap(RunningAgent.object)
            #expect((info?["device"] as? [String: Any])?["driver"] as? String == "replay")
            #expect(running.agent.log.contains("opened"))
            running.agent.send(SIGTERM)
            #expect(running.agent.waitForExit(timeout: .seconds(5)) == 0)
        }

        @Test func recordsTheRawSamplesInTheBoardsAxesForReplay() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("field-\(UUID().uuidString).csv")
            defer { try? FileManager.default.removeItem(at: file) }
            // The simulator lies face up; the board has it mounted upside down (turned 180° about x).
            let running = try RunningAgent.start(
                configuration: #"{"mount_matrix":"1, 0, 0; 0, -1, 0; 0, 0, -1","record":{"file":"\#(file.path)","seconds":60}}"#,
                device: "sim:motion=stationary")
            defer { running.cleanUp() }
            let topics = running.topics
            #expect(running.subscriber.waitForCount(on: topics.data(.accelerometer), count: 10), "\(running.agent.log)")
            // Apple's sign: upside down reads +1 g on z.
            let z = running.objects(on: topics.data(.accelerometer)).compactMap { ($0["acceleration"] as? [String: Any])?["z"] as? NSNumber }
            #expect(z.last.map { abs($0.doubleValue - 1) < 0.05 } == true, "z \(z.suffix(3))")
            // The recorder flushes every second of samples: wait until the file holds a second of them.
            #expect(eventually(within: .seconds(10)) {
                ((try? IMURecording.load(contentsOf: file.path))?.samples.count ?? 0) >= 200
            }, "\(running.agent.log)")
            running.agent.send(SIGTERM)
            #expect(running.agent.waitForExit(timeout: .seconds(5)) == 0)

            // The recording replays: the board's axes, at the simulator's 200 Hz, SI units.
            let recorded = try IMURecording.load(contentsOf: file.path)
            #expect(recorded.samples.count > 100, "\(recorded.samples.count) samples")
            #expect(abs(recorded.sampleRate - 200) < 1)
            let meanZ = recorded.samples.compactMap { $0.acceleration?.z }.reduce(0, +) / Double(recorded.samples.count)
            let meanFieldY = recorded.samples.compactMap { $0.magneticField?.y }.reduce(0, +) / Double(recorded.samples.count)
            #expect(abs(meanZ + 9.81) < 0.05 && abs(meanFieldY + 19.5) < 0.2, "mean z \(meanZ), field y \(meanFieldY)")
            #expect(running.agent.log.contains("recorded \(recorded.samples.count) samples to \(file.path)"), "\(running.agent.log)")
        }

        @Test func aRecordingThatCannotBeWrittenIsAConfigurationError() throws {
            let run = try AgentProcess.run(
                "motion-agent", arguments: ["--broker", "mqtt://127.0.0.1:1", "--record", "/nonexistent/dir/field.csv"],
                timeout: .seconds(10))
            #expect(run.status == ConfigurationError.exitStatus)
            #expect(run.log.contains("record.file") && run.log.contains("/nonexistent/dir/field.csv"), "\(run.log)")
        }
    }
}
