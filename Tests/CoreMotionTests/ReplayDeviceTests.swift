import CoreMotion
import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// One reading a handler received: its timestamp (s since boot) and values.
struct TimedReading: Sendable {
    let timestamp: TimeInterval
    let value: SIMD3<Double>
}

/// A BROAD recording replayed through `replay:PATH` reaches CoreMotion as exactly the recorded values, in
/// Apple's units and signs (acceleration in g with the sign flipped, rad/s, µT).
extension CMMotionManagerDeviceTests {
    static let broadExcerpt = Repository.broadExcerpt.path

    @Test func aReplayedRecordingFeedsCoreMotionTheRecordedValues() throws {
        try CMLinuxMotionDevice.use(specification: "replay:\(Self.broadExcerpt)")
        let recording = try IMURecording.load(contentsOf: Self.broadExcerpt)
        let manager = CMMotionManager()
        #expect(manager.isAccelerometerAvailable && manager.isGyroAvailable && manager.isMagnetometerAvailable)
        let queue = OperationQueue()
        let accelerations = Recorder<TimedReading>(), rates = Recorder<TimedReading>(), fields = Recorder<TimedReading>()
        manager.accelerometerUpdateInterval = 0.01
        manager.gyroUpdateInterval = 0.01
        manager.magnetometerUpdateInterval = 0.01
        manager.startAccelerometerUpdates(to: queue) { data, _ in
            guard let data else { return }
            let a = data.acceleration
            accelerations.append(TimedReading(timestamp: data.timestamp, value: SIMD3(a.x, a.y, a.z)))
        }
        manager.startGyroUpdates(to: queue) { data, _ in
            guard let data else { return }
            let r = data.rotationRate
            rates.append(TimedReading(timestamp: data.timestamp, value: SIMD3(r.x, r.y, r.z)))
        }
        manager.startMagnetometerUpdates(to: queue) { data, _ in
            guard let data else { return }
            let m = data.magneticField
            fields.append(TimedReading(timestamp: data.timestamp, value: SIMD3(m.x, m.y, m.z)))
        }
        #expect(waitUntil(timeout: 10) { accelerations.count >= 30 && rates.count >= 30 && fields.count >= 30 })
        manager.stopAccelerometerUpdates()
        manager.stopGyroUpdates()
        manager.stopMagnetometerUpdates()
        queue.waitUntilAllOperationsAreFinished()

        // The first replayed sample is the recording's first; later ones are found by their time offset.
        func recorded(at timestamp: TimeInterval, from start: TimeInterval) -> IMUSample {
            recording.samples[Int(((timestamp - start) * recording.sampleRate).rounded())]
        }
        let start = try #require(accelerations.all.first).timestamp
        #expect(accelerations.count >= 30 && rates.count >= 30 && fields.count >= 30)
        for data in accelerations.all {
            let force = try #require(recorded(at: data.timestamp, from: start).acceleration)
            let difference = data.value + force / 9.80665  // Apple's acceleration: −specific force in g
            #expect((difference * difference).max() < 1e-24, "\(data.value) vs \(force)")
        }
        for data in rates.all {
            #expect(data.value == recorded(at: data.timestamp, from: start).rotationRate)
        }
        for data in fields.all {
            #expect(data.value == recorded(at: data.timestamp, from: start).magneticField)
        }
        // At rest face up for the first 3 s: about −1 g on z.
        #expect(abs(try #require(accelerations.all.first).value.z + 1) < 0.05)
    }
}

extension CMMotionManagerDeviceTests {
    /// `CMLinuxMotionDevice.startRecording`: the device's raw samples to a file that replays as the original.
    @Suite struct LinuxRecordingTests {
        @Test func aRecordingOfAReplayReadsBackAsTheOriginal() throws {
            let original = try IMURecording.load(contentsOf: CMMotionManagerDeviceTests.broadExcerpt)
            CMLinuxMotionDevice.use(try IMUDeviceSpecification.open("replay:\(CMMotionManagerDeviceTests.broadExcerpt),fast"))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("coremotion-\(UUID().uuidString).csv")
            defer { try? FileManager.default.removeItem(at: file) }
            try CMLinuxMotionDevice.startRecording(toFile: file.path, duration: 5)
            let manager = CMMotionManager()
            manager.startAccelerometerUpdates()
            defer { manager.stopAccelerometerUpdates() }
            // 5 s of samples (1429 at 285.7 Hz), then the recording ends by itself.
            // (Once the file holds 1429 samples the recording is complete: later samples are past its end.)
            #expect(waitUntil(timeout: 10) { (try? IMURecording.load(contentsOf: file.path).samples.count) ?? 0 >= 1429 })
            let written = try CMLinuxMotionDevice.stopRecording()
            #expect(written == 1429, "\(written) samples")
            let recorded = try IMURecording.load(contentsOf: file.path)
            #expect(recorded.samples.count == written)
            for (copy, sample) in zip(recorded.samples, original.samples) {
                #expect(copy.timestamp == sample.timestamp)
                #expect(maxDifference(copy.rotationRate!, sample.rotationRate!) < 1e-8)
                #expect(maxDifference(copy.acceleration!, sample.acceleration!) < 1e-8)
                #expect(maxDifference(copy.magneticField!, sample.magneticField!) < 1e-7)
            }
            #expect(try CMLinuxMotionDevice.stopRecording() == 0, "nothing left to stop")
        }

        @Test func aFileThatCannotBeCreatedIsAnError() throws {
            CMLinuxMotionDevice.use(try IMUDeviceSpecification.open("sim"))
            #expect(throws: IMURecordingError.self) {
                try CMLinuxMotionDevice.startRecording(toFile: "/nonexistent/dir/x.csv")
            }
        }
    }
}

/// Largest absolute component of `a − b`.
private func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let difference = a - b
    return max(abs(difference.x), abs(difference.y), abs(difference.z))
}
