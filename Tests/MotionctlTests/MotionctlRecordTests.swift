import AgentTestSupport
import Foundation
import MotionHAL
import Testing

/// `motionctl record`: what it writes reads back as the samples the device delivered.
@Suite struct MotionctlRecordTests {
    private func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).csv").path
    }

    @Test func aRecordedReplayReadsBackAsTheOriginal() throws {
        let output = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try AgentProcess.run(
            "motionctl", arguments: ["record", "--device", "replay:\(MotionctlFusionTests.broadExcerpt),fast", "--output", output, "--seconds", "1.5"])
        #expect(run.status == 0, "\(run.log)")
        #expect(run.log.contains("recorded 3429 samples"))
        let original = try IMURecording.load(contentsOf: MotionctlFusionTests.broadExcerpt)
        let recorded = try IMURecording.load(contentsOf: output)
        #expect(recorded.samples.count == original.samples.count)
        #expect(abs(recorded.sampleRate - original.sampleRate) < 1e-6)
        for (copy, source) in zip(recorded.samples, original.samples) {
            #expect(copy.timestamp == source.timestamp)
            for (a, b) in [(copy.acceleration, source.acceleration), (copy.rotationRate, source.rotationRate), (copy.magneticField, source.magneticField)] {
                let difference = (a ?? .zero) - (b ?? .zero)
                #expect((difference * difference).max() < 1e-16, "\(String(describing: a)) vs \(String(describing: b))")
            }
        }
    }

    @Test func recordsTheSimulatorAtItsRate() throws {
        let output = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try AgentProcess.run(
            "motionctl", arguments: ["record", "--device", "sim:rate=200,motion=stationary", "--output", output, "--seconds", "0.5"])
        #expect(run.status == 0, "\(run.log)")
        let recorded = try IMURecording.load(contentsOf: output)
        #expect((90...105).contains(recorded.samples.count), "\(recorded.samples.count) samples in 0.5 s at 200 Hz")
        #expect(abs(recorded.sampleRate - 200) < 0.5)
        let first = try #require(recorded.samples.first)
        #expect(abs((first.acceleration?.z ?? 0) - 9.81) < 0.2 && first.magneticField != nil)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("# MotionBridge recording; device sim:rate=200"))
    }

    @Test func badDevicesAreRefusedWithDistinctStatuses() throws {
        let output = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let unknown = try AgentProcess.run("motionctl", arguments: ["record", "--device", "gps", "--output", output, "--seconds", "1"])
        #expect(unknown.status == 64 && unknown.log.contains("--device"))
        let missing = try AgentProcess.run(
            "motionctl", arguments: ["record", "--device", "replay:/nonexistent.csv", "--output", output, "--seconds", "1"])
        #expect(missing.status == 69 && missing.log.contains("/nonexistent.csv"))
        let noDuration = try AgentProcess.run("motionctl", arguments: ["record", "--device", "sim", "--output", output, "--seconds", "-2"])
        #expect(noDuration.status == 64)
    }
}
