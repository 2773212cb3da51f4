import AgentTestSupport
import Foundation
import MotionContract
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

@testable import motionctl

/// `motionctl record --remote`: a board's published streams into a recording that `replay:` reads;
/// the merge itself on messages as the contract writes them.
@Suite(.serialized) struct MotionctlRecordRemoteTests {
    private static func message(_ service: MotionService, seq: UInt64, times: [Double], value: SIMD3<Double>) -> [UInt8] {
        SamplePayloadEncoder(wallClockOffset: 1_796_000_000).encode(
            times.map { VectorSample(timestamp: $0, value: value) }, service: service, seq: seq, batched: times.count > 1)
    }

    @Test("rows per gyro sample with the nearest accelerometer and magnetometer samples, in SI units; gaps counted")
    func theMergeIsByTime() {
        var merger = RemoteRecordingMerger()
        merger.receive(Self.message(.gyro, seq: 1, times: [10.00, 10.01, 10.02, 10.03], value: SIMD3(0.1, 0, 0)), of: .gyro)
        merger.receive(Self.message(.accelerometer, seq: 1, times: [10.001, 10.011, 10.021], value: SIMD3(0, 0, -1)), of: .accelerometer)
        merger.receive(Self.message(.magnetometer, seq: 4, times: [10.02], value: SIMD3(20, 0, -40)), of: .magnetometer)
        merger.receive(Self.message(.magnetometer, seq: 9, times: [10.5], value: SIMD3(20, 0, -40)), of: .magnetometer)
        merger.receive(Array("{".utf8), of: .gyro)
        #expect(merger.rows().isEmpty, "rows wait a second for their neighbours")
        let rows = merger.rows(finishing: true)
        #expect(rows.map(\.timestamp) == [10_000_000_000, 10_010_000_000, 10_020_000_000, 10_030_000_000])
        #expect(rows[0].rotationRate == SIMD3(0.1, 0, 0))
        #expect(rows[0].acceleration == SIMD3(0, 0, 9.80665), "Apple's g back to specific force, m/s²")
        #expect(rows[3].acceleration == nil, "no accelerometer sample within half an interval")
        #expect(rows.map { $0.magneticField != nil } == [false, false, true, false])
        #expect(merger.lost == [.magnetometer: 4] && merger.unreadable == 1)
    }

    @Test("a real board's streams recorded from the broker replay as a device")
    func recordsARealBoard() throws {
        let running = try RunningAgent.start(configuration: #"""
            {"services": {"accelerometer": {"rate_hz": 50}, "gyro": {"rate_hz": 50}, "magnetometer": {"rate_hz": 50}}}
            """#)
        defer { running.cleanUp() }
        #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 5, timeout: .seconds(10)))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("remote-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try AgentProcess.run(
            "motionctl", arguments: ["record", "--remote", running.deviceID, "--output", output.path, "--seconds", "2", "--broker", running.broker.url])
        #expect(run.status == 0, "\(run.log)")
        #expect(run.log.contains("messages lost: gyro 0, accelerometer 0, magnetometer 0"), "\(run.log)")
        let recording = try IMURecording.load(contentsOf: output.path)
        #expect((80...120).contains(recording.samples.count), "\(recording.samples.count) rows in 2 s at 50 Hz")
        // A row at either end of the window may miss a partner that arrived before or after it.
        let complete = recording.samples.filter { $0.acceleration?.isFinite == true && $0.magneticField?.isFinite == true }
        #expect(complete.count * 10 >= recording.samples.count * 9, "the three topics share their sample times: \(complete.count) of \(recording.samples.count)")
        for sample in complete {
            let norm = sample.acceleration!.length
            #expect((4...16).contains(norm), "specific force in m/s²: \(norm)")
        }
        #expect(throws: Never.self) { _ = try IMUDeviceSpecification.open("replay:\(output.path)") }
        let none = try AgentProcess.run(
            "motionctl", arguments: ["record", "--remote", "no-board", "--output", output.path, "--seconds", "0.5", "--broker", running.broker.url])
        #expect(none.status == 1 && none.log.contains("no gyroscope samples arrived"), "\(none.log)")
    }
}
