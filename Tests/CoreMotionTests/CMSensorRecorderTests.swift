@testable import CoreMotion
import Foundation
import MotionEngine
import MotionHAL
import Testing

extension CMMotionManagerDeviceTests {
    /// ``CMSensorRecorder`` on the process-wide device, through an app's logger (nested so that the parent's
    /// `.serialized` keeps it from running beside the other tests of the device).
    @Suite struct CMSensorRecorderTests {
        @Test func anAppRecordsAt50HzAndReadsTheSamplesBack() throws {
            _ = CMMotionManagerDeviceTests.useStationarySimulator()
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            try CMSensorRecorder.useLinuxStore(atPath: path)
            #expect(CMSensorRecorder.linuxStorePath == path)

            let logger = AccelerometerLogger()
            #expect(logger.isAvailable)
            let start = Date()
            logger.startLogging(forSeconds: 2)
            // Committed once a second; 2 s at 50 Hz is about 100 samples.
            #expect(waitUntil(timeout: 10) { logger.samples(from: start.addingTimeInterval(-1), to: Date()).count >= 95 })
            #expect(waitUntil(timeout: 10) { CMSensorRecorder.service()?.isRecording == false }, "the recording ends on its own")
            let samples = logger.samples(from: start.addingTimeInterval(-1), to: Date())
            #expect((95...105).contains(samples.count), "\(samples.count) samples in 2 s")
            let spacings = zip(samples, samples.dropFirst()).map { $1.date.timeIntervalSince($0.date) }
            #expect(spacings.allSatisfy { abs($0 - 0.02) < 0.002 }, "50 Hz: \(Set(spacings.map { ($0 * 1000).rounded() })) ms")
            #expect(samples.allSatisfy { abs($0.magnitude - 9.81 / 9.80665) < 0.02 }, "1 g at rest")
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.batch <= $1.batch }, "batches increase")
            #expect(Set(samples.map(\.batch)).count >= 2, "one batch a second")
            #expect(samples.allSatisfy { $0.date <= start.addingTimeInterval(2.05) }, "nothing after the recording's end")
            #expect(logger.canQuery(from: start, to: start.addingTimeInterval(12 * 3600)))
            #expect(!logger.canQuery(from: start, to: start.addingTimeInterval(12 * 3600 + 1)))
            #expect(!logger.canQuery(from: start, to: start))
        }
    }
}

/// The recording outliving its process: a second service on the same store (as the next process) resumes a
/// recording that is still due.
@Suite struct SensorRecordingServiceTests {
    @Test func aRecordingStillDueIsResumedByTheNextProcess() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let engine = MotionEngine(environment: MotionEngineEnvironment())
        engine.setDevice(SimulatedIMU(configuration: .init(sampleRate: 100, motion: .stationary(attitude: .identity), seed: 3)))
        func count(_ store: SensorRecordingStore) -> [RecordedSample] {
            (try? store.samples(from: 0, to: Date().timeIntervalSince1970 + 10, afterRow: 0, limit: 100_000).samples) ?? []
        }

        let first = SensorRecordingService(store: try SensorRecordingStore(path: path), source: engine)
        #expect(first.record(forDuration: 60))
        #expect(waitUntil(timeout: 10) { count(first.store).count >= 50 })
        first.stop()  // the process ends
        let before = count(first.store)

        let store = try SensorRecordingStore(path: path)
        let second = SensorRecordingService(store: store, source: engine)
        #expect(!second.isRecording)
        second.resume()
        #expect(second.isRecording, "the recording asked for 60 s is still due")
        #expect(waitUntil(timeout: 10) { count(store).count >= before.count + 50 })
        second.stop()
        let after = count(store)
        #expect(after.prefix(before.count).elementsEqual(before), "the first process's samples are kept")
        #expect((after.last?.batch ?? 0) > (before.last?.batch ?? 0))
        #expect(!second.record(forDuration: 0) && !second.record(forDuration: -1))
    }
}
