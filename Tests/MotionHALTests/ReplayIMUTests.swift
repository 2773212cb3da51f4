import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// The replay device: the recorded values exactly, at the recorded pace, looping on request.
@Suite struct ReplayIMUTests {
    static let broadExcerpt = Repository.broadExcerpt.path

    /// Collects the samples a device delivers.
    final class Collector: Sendable {
        private let samples = Mutex<[IMUSample]>([])
        var all: [IMUSample] { samples.withLock { $0 } }
        var handler: @Sendable (IMUDeviceEvent) -> Void {
            { event in if case .samples(let batch) = event { self.samples.withLock { $0 += batch } } }
        }
    }

    @Test func playsTheRecordingBackExactlyAtItsPace() throws {
        let time = TestTime.manual()
        let device = try ReplayIMU(path: Self.broadExcerpt, time: time.device)
        #expect(device.info.driver == "replay" && device.info.chip == "01_slow_rotation_12s.csv")
        #expect(device.info.sensors == [.accelerometer, .gyroscope, .magnetometer])
        #expect(abs(device.info.defaultSampleRate - 285.714) < 0.01)
        #expect(throws: IMUDeviceError.self) { try device.start(sampleRate: 200) { _ in } }
        let collector = Collector()
        let started = time.now
        try device.start(sampleRate: device.info.defaultSampleRate, handler: collector.handler)
        time.pass(0.5)
        device.stop()
        let delivered = collector.all
        let recording = try IMURecording.load(contentsOf: Self.broadExcerpt)
        // Every sample recorded in the first 0.5 s, none ahead of the clock.
        let due = recording.samples.filter { $0.timestamp - recording.samples[0].timestamp <= 500_000_000 }.count
        #expect(delivered.count == due, "\(delivered.count) in 0.5 s, \(due) recorded")
        for (played, recorded) in zip(delivered, recording.samples) {
            #expect(played.acceleration == recorded.acceleration && played.rotationRate == recorded.rotationRate)
            #expect(played.magneticField == recorded.magneticField)
        }
        // Timestamps: the run's start plus the recorded offsets.
        let offset = delivered[0].timestamp
        #expect(offset >= started && offset - started == recording.samples[0].timestamp)
        for (played, recorded) in zip(delivered, recording.samples) {
            #expect(played.timestamp - offset == recorded.timestamp)
        }
        // Stopped: nothing more arrives.
        let count = collector.all.count
        time.pass(0.05)
        #expect(collector.all.count == count)
    }

    @Test func asFastAsPossibleDeliversTheWholeRecordingQuickly() throws {
        let device = try IMUDeviceSpecification.open("replay:\(Self.broadExcerpt),fast")
        let recording = try IMURecording.load(contentsOf: Self.broadExcerpt)
        let collector = Collector()
        let started = MonotonicClock.now()
        try device.start(sampleRate: device.info.defaultSampleRate, handler: collector.handler)
        _ = eventually(within: .seconds(5)) { collector.all.count >= recording.samples.count }
        let elapsed = Double(MonotonicClock.now() - started) / 1e9
        device.stop()
        let delivered = collector.all
        #expect(delivered.count == recording.samples.count)
        #expect(elapsed < 2, "12 s of recording took \(elapsed) s")
        let offset = delivered[0].timestamp
        for (played, recorded) in zip(delivered, recording.samples) {
            #expect(played.timestamp - offset == recorded.timestamp && played.rotationRate == recorded.rotationRate)
        }
    }

    @Test func loopsWithTheSampleSpacingKept() throws {
        let csv = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n0,0.1,0,0,0,0,9.8\n0.01,0.2,0,0,0,0,9.8\n0.02,0.3,0,0,0,0,9.8\n"
        let recording = try IMURecording.parse(csv: Array(csv.utf8), source: "three.csv")
        let time = TestTime.manual()
        let device = ReplayIMU(recording: recording, name: "three.csv", loop: true, time: time.device)
        let collector = Collector()
        try device.start(sampleRate: 100, handler: collector.handler)
        time.pass(0.2)
        device.stop()
        let delivered = collector.all
        #expect(delivered.count == 21, "\(delivered.count) samples in 0.2 s of a 30 ms loop at 100 Hz")
        #expect(delivered.prefix(6).map { $0.rotationRate?.x } == [0.1, 0.2, 0.3, 0.1, 0.2, 0.3])
        for (earlier, later) in zip(delivered, delivered.dropFirst()) {
            #expect(later.timestamp - earlier.timestamp == 10_000_000)
        }
    }
}
