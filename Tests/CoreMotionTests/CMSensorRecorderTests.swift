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
            #expect(waitUntil(timeout: 10) { CMSensorRecorder.service()?.isRecording(.accelerometer) == false }, "the recording ends on its own")
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
            (try? store.samples(of: .accelerometer, after: .after(0), to: Date().timeIntervalSince1970 + 10, limit: 100_000).samples) ?? []
        }

        let first = SensorRecordingService(store: try SensorRecordingStore(path: path), source: engine, barometer: MotionAltimeter(device: nil))
        #expect(first.record(.accelerometer, forDuration: 60))
        #expect(waitUntil(timeout: 10) { count(first.store).count >= 50 })
        first.stop()  // the process ends
        let before = count(first.store)

        let store = try SensorRecordingStore(path: path)
        let second = SensorRecordingService(store: store, source: engine, barometer: MotionAltimeter(device: nil))
        #expect(!second.isRecording(.accelerometer))
        second.resume()
        #expect(second.isRecording(.accelerometer), "the recording asked for 60 s is still due")
        #expect(waitUntil(timeout: 10) { count(store).count >= before.count + 50 })
        second.stop()
        let after = count(store)
        #expect(after.prefix(before.count).elementsEqual(before), "the first process's samples are kept")
        #expect((after.last?.batch ?? 0) > (before.last?.batch ?? 0))
        #expect(!second.record(.accelerometer, forDuration: 0) && !second.record(.accelerometer, forDuration: -1))
    }
}

/// The Linux recordings of the gyroscope and the barometer, on services of their own (a private engine and
/// altimeter over simulators).
@Suite struct SensorRecordingOtherSensorsTests {
    static func temporaryStore() throws -> (String, SensorRecordingStore) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString).sqlite").path
        return (path, try SensorRecordingStore(path: path))
    }

    @Test func theGyroscopeIsRecordedAt50HzAsRotationRateData() throws {
        let (path, store) = try Self.temporaryStore()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let engine = MotionEngine(environment: MotionEngineEnvironment())
        engine.setDevice(SimulatedIMU(configuration: .init(sampleRate: 200, motion: .rotation(axis: SIMD3(0, 0, 1), rate: 0.5), seed: 8)))
        let service = SensorRecordingService(store: store, source: engine, barometer: MotionAltimeter(device: nil))
        #expect(service.isAvailable(.rotationRate) && !service.isAvailable(.pressure))
        let start = Date()
        #expect(service.record(.rotationRate, forDuration: 1.5))
        #expect(waitUntil(timeout: 10) { !service.isRecording(.rotationRate) })
        // (A Sequence through the apps' own conformance, IOSStyleRecorderClients.swift.)
        let list = CMSensorDataList(query: .init(store: store, sensor: .rotationRate, from: start.timeIntervalSince1970 - 1, to: Date().timeIntervalSince1970))
        let samples = try list.map { try #require($0 as? CMRecordedRotationRateData) }
        #expect((70...77).contains(samples.count), "1.5 s at 50 Hz: \(samples.count)")
        #expect(samples.allSatisfy { abs($0.rotationRate.z - 0.5) < 0.05 }, "0.5 rad/s about z")
        #expect(zip(samples, samples.dropFirst()).allSatisfy { abs($1.startDate.timeIntervalSince($0.startDate) - 0.02) < 0.002 })
        #expect(!service.record(.pressure, forDuration: 5), "no barometer")
    }

    @Test func theBarometerIsRecordedAsPressureData() throws {
        let (path, store) = try Self.temporaryStore()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let barometer = MotionAltimeter(device: try BarometerSpecification(parsing: "sim:rate=10").makeDevice())
        let service = SensorRecordingService(store: store, source: MotionEngine(environment: MotionEngineEnvironment()), barometer: barometer)
        #expect(service.isAvailable(.pressure))
        let start = Date()
        #expect(service.record(.pressure, forDuration: 2.2))
        #expect(waitUntil(timeout: 10) { !service.isRecording(.pressure) })
        let list = CMSensorDataList(query: .init(store: store, sensor: .pressure, from: start.timeIntervalSince1970 - 1, to: Date().timeIntervalSince1970))
        let samples = try list.map { try #require($0 as? CMRecordedPressureData) }
        #expect((18...24).contains(samples.count), "2.2 s at 10 Hz: \(samples.count)")
        let kilopascals = samples.map { $0.pressure.converted(to: .kilopascals).value }
        #expect(kilopascals.allSatisfy { (90...110).contains($0) }, "\(kilopascals.prefix(3))")
        #expect(Set(samples.map(\.identifier)).count >= 2, "one batch a second")
    }
}
