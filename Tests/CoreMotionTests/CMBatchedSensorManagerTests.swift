@testable import CoreMotion
import Foundation
import MotionHAL
import MotionTestSupport
import Testing

extension CMMotionManagerDeviceTests {
    /// The batched manager, on the process-wide device (nested so that the parent's `.serialized` keeps it
    /// from running beside the other tests of the device).
    @Suite struct CMBatchedSensorManagerTests {
        static let g = 9.80665

        /// Everything a batch handler received, in order.
        final class BatchLog<Sample: CMLogItem>: @unchecked Sendable {
            // Only touched on the manager's serial queue (appends) and after the queue drained (reads).
            private let lock = NSLock()
            private var batches: [[Sample]] = []
            private var errors: [NSError] = []

            func record(_ batch: [Sample]?, _ error: (any Error)?) {
                lock.withLock {
                    if let batch { batches.append(batch) }
                    if let error { errors.append(error as NSError) }
                }
            }

            var allBatches: [[Sample]] { lock.withLock { batches } }
            var allErrors: [NSError] { lock.withLock { errors } }
            var samples: [Sample] { allBatches.flatMap { $0 } }
        }

        @Test(arguments: [0.0, 0.25])
        func liveBatchesHoldEverySampleOnceInOrder(batchInterval: Double) throws {
            let configuration = SimulatedIMU.Configuration(sampleRate: 200, motion: .demo, seed: 11)
            let device = SimulatedIMU(configuration: configuration)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            #expect(CMBatchedSensorManager.isAccelerometerSupported && CMBatchedSensorManager.isDeviceMotionSupported)
            #expect(manager.accelerometerDataFrequency == 200 && manager.deviceMotionDataFrequency == 200)
            #expect(manager.linuxBatchInterval == 1, "Apple's cadence by default")
            manager.linuxBatchInterval = batchInterval
            let log = BatchLog<CMAccelerometerData>()
            manager.startAccelerometerUpdates { batch, error in log.record(batch, error) }
            #expect(manager.isAccelerometerActive)
            #expect(waitUntil(timeout: 10) { log.samples.count >= 200 })
            manager.stopAccelerometerUpdates()
            #expect(!manager.isAccelerometerActive)

            let batches = log.allBatches
            let samples = batches.flatMap { $0 }
            #expect(log.allErrors.isEmpty)
            // 1 s at 200 Hz: at least 200 samples, timestamps exactly 5 ms apart (no gap, no duplicate).
            #expect(samples.count >= 200, "\(samples.count) samples")
            let spacings = zip(samples, samples.dropFirst()).map { $1.timestamp - $0.timestamp }
            #expect(spacings.allSatisfy { abs($0 - 0.005) < 1e-7 }, "spacings \(Set(spacings.map { ($0 * 1e6).rounded() }))")
            // Each sample is the simulator's exact reading for its index (acceleration = −specific force / g).
            let first = try #require(samples.first)
            let start = UInt64((first.timestamp * 1e9).rounded())
            for (index, sample) in samples.enumerated() {
                let truth = try #require(device.sample(index: index, sampleRate: 200, startTimestamp: start).acceleration)
                let expected = -truth / Self.g
                let difference = SIMD3(sample.acceleration.x, sample.acceleration.y, sample.acceleration.z) - expected
                #expect(max(abs(difference.x), abs(difference.y), abs(difference.z)) < 1e-12, "sample \(index)")
            }
            if batchInterval == 0 {
                // One batch per device delivery (every 10 ms: about 2 samples each).
                #expect(batches.count >= 80 && batches.allSatisfy { $0.count <= 6 }, "\(batches.map(\.count))")
            } else {
                // 0.25 s batches: 50 samples each, at least four for the 200 samples waited for (more may come
                // before the stop).
                #expect(batches.count >= 4 && batches.count == samples.count / 50, "\(batches.count) batches")
                #expect(batches.allSatisfy { $0.count == 50 }, "\(batches.map(\.count))")
            }
            // The pull property may hold a batch whose handler call `stop` cancelled: never older than the last handled.
            let pulled = try #require(manager.accelerometerBatch?.last?.timestamp)
            let handled = try #require(samples.last?.timestamp)
            #expect(pulled >= handled && abs(((pulled - handled) / 0.005).rounded() * 0.005 - (pulled - handled)) < 1e-7)
        }

        @Test func scriptedDeliveriesOfAnySizeMakeExactQuarterSecondBatches() {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            manager.linuxBatchInterval = 0.25
            let log = BatchLog<CMAccelerometerData>()
            manager.startAccelerometerUpdates { batch, error in log.record(batch, error) }
            // 1 s of samples in deliveries of 7 (not a divisor of 50).
            let samples = device.restingSamples(count: 200)
            for start in stride(from: 0, to: 200, by: 7) {
                device.emit(.samples(Array(samples[start..<min(start + 7, 200)])))
            }
            waitForQueue(of: manager)
            manager.stopAccelerometerUpdates()
            #expect(log.allBatches.map(\.count) == [50, 50, 50, 50])
            let expected = samples.map { Double($0.timestamp) / 1e9 }
            #expect(log.samples.map(\.timestamp) == expected)
        }

        @Test func deviceMotionBatchesAtRestGiveGravityDown() throws {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            manager.linuxBatchInterval = 0
            let log = BatchLog<CMDeviceMotion>()
            manager.startDeviceMotionUpdates { batch, error in log.record(batch, error) }
            #expect(manager.isDeviceMotionActive)
            let samples = device.restingSamples(count: 100)
            for start in stride(from: 0, to: 100, by: 10) { device.emit(.samples(Array(samples[start..<start + 10]))) }
            waitForQueue(of: manager)
            manager.stopDeviceMotionUpdates()
            // Fusion output for every sample: 10 batches of 10.
            #expect(log.allBatches.map(\.count) == Array(repeating: 10, count: 10))
            for motion in log.samples {
                #expect(abs(motion.gravity.x) < 1e-6 && abs(motion.gravity.y) < 1e-6 && abs(motion.gravity.z + 1) < 1e-6)
                #expect(abs(motion.userAcceleration.z) < 1e-3)
            }
            #expect(manager.deviceMotionBatch?.count == 10)
        }

        @Test func deviceMotionInAChosenFrameAndUnavailableFrames() throws {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            manager.linuxBatchInterval = 0
            let trueNorth = BatchLog<CMDeviceMotion>()
            manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical) { batch, error in trueNorth.record(batch, error) }
            #expect(!manager.isDeviceMotionActive)
            let log = BatchLog<CMDeviceMotion>()
            manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical) { batch, error in log.record(batch, error) }
            device.emit(.samples(device.restingSamples(count: 20)))
            waitForQueue(of: manager)
            manager.stopDeviceMotionUpdates()
            #expect(trueNorth.allErrors.map(\.code) == [Int(CMErrorTrueNorthNotAvailable.rawValue)])
            let motion = try #require(log.samples.last)
            // Face up, top edge (y) to magnetic north: heading 0°.
            #expect(min(motion.heading, 360 - motion.heading) < 1, "heading \(motion.heading)")
        }

        @Test func linuxGyroAndMagnetometerBatchesCarryTheRawReadings() throws {
            let configuration = SimulatedIMU.Configuration(
                sampleRate: 200, motion: .rotation(axis: SIMD3(0, 0, 1), rate: 1), seed: 4)
            let samples = SimulatedIMU(configuration: configuration).samples(count: 60, startTimestamp: 2_000_000_000)
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            manager.linuxBatchInterval = 0.1
            let gyro = BatchLog<CMGyroData>(), magnetometer = BatchLog<CMMagnetometerData>()
            manager.startLinuxGyroUpdates { batch, error in gyro.record(batch, error) }
            manager.startLinuxMagnetometerUpdates { batch, error in magnetometer.record(batch, error) }
            #expect(manager.isLinuxGyroActive && manager.isLinuxMagnetometerActive)
            for start in stride(from: 0, to: 60, by: 4) { device.emit(.samples(Array(samples[start..<start + 4]))) }
            waitForQueue(of: manager)
            manager.stopLinuxGyroUpdates()
            manager.stopLinuxMagnetometerUpdates()
            #expect(!manager.isLinuxGyroActive && !manager.isLinuxMagnetometerActive)
            #expect(!device.isRunning)
            // 0.1 s batches: 20 samples each, three of them, values exactly the device's (rad/s, µT).
            #expect(gyro.allBatches.map(\.count) == [20, 20, 20])
            #expect(magnetometer.allBatches.map(\.count) == [20, 20, 20])
            for (data, sample) in zip(gyro.samples, samples) {
                let rate = try #require(sample.rotationRate)
                #expect(data.rotationRate.x == rate.x && data.rotationRate.y == rate.y && data.rotationRate.z == rate.z)
            }
            for (data, sample) in zip(magnetometer.samples, samples) {
                let field = try #require(sample.magneticField)
                #expect(data.magneticField.x == field.x && data.magneticField.z == field.z)
                #expect(data.timestamp == Double(sample.timestamp) / 1e9)
            }
        }

        @Test func aSampleIntervalKeepsOneSamplePerIntervalOnTheDecimatedSchedule() throws {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let every = CMBatchedSensorManager(), decimated = CMBatchedSensorManager()
            every.linuxBatchInterval = 0
            decimated.linuxBatchInterval = 0
            decimated.linuxSampleInterval = 0.05  // every 10th sample at 200 Hz
            let all = BatchLog<CMAccelerometerData>(), kept = BatchLog<CMAccelerometerData>()
            every.startAccelerometerUpdates { batch, error in all.record(batch, error) }
            decimated.startAccelerometerUpdates { batch, error in kept.record(batch, error) }
            let samples = device.restingSamples(count: 100)
            for start in stride(from: 0, to: 100, by: 4) { device.emit(.samples(Array(samples[start..<start + 4]))) }
            waitForQueue(of: every)
            waitForQueue(of: decimated)
            #expect(all.samples.count == 100, "0 keeps every sample, as Apple's batches")
            // The first sample, then one at or after each due time 50 ms apart: samples 0, 10, 20, ...
            let timestamps = samples.map { Double($0.timestamp) / 1e9 }
            #expect(kept.samples.map(\.timestamp) == stride(from: 0, to: 100, by: 10).map { timestamps[$0] })
            // Batches still follow the device's deliveries: a delivery without a due sample closes none.
            #expect(kept.allBatches.allSatisfy { $0.count == 1 })
            decimated.linuxSampleInterval = .nan
            #expect(decimated.linuxSampleInterval == 0, "NaN counts as 0")
            device.emit(.samples(device.restingSamples(count: 8, from: samples.last!.timestamp + 5_000_000)))
            waitForQueue(of: decimated)
            #expect(kept.samples.count == 18, "back to every sample once the interval is 0")
            every.stopAccelerometerUpdates()
            decimated.stopAccelerometerUpdates()
        }

        @Test func asyncSequenceYieldsBatchesAndEndsOnStop() async throws {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            manager.linuxBatchInterval = 0
            let updates = manager.accelerometerUpdates()
            #expect(manager.isAccelerometerActive && device.isRunning)
            let samples = device.restingSamples(count: 30)
            for start in stride(from: 0, to: 30, by: 10) { device.emit(.samples(Array(samples[start..<start + 10]))) }
            var iterator = updates.makeAsyncIterator()
            var received: [TimeInterval] = []
            for _ in 0..<3 { received += try #require(try await iterator.next()).map(\.timestamp) }
            #expect(received == samples.map { Double($0.timestamp) / 1e9 })
            manager.stopAccelerometerUpdates()
            #expect(try await iterator.next() == nil, "stopping ends the sequence")
            #expect(!device.isRunning)
        }

        @Test func asyncSequenceThrowsOnAFaultAndLeavingTheLoopStopsUpdates() async throws {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            manager.linuxBatchInterval = 0
            let updates = manager.deviceMotionUpdates()
            device.emit(.samples(device.restingSamples(count: 5)))
            device.emit(.fault(.readFailed("bus timeout")))
            var batches = 0
            do {
                for try await batch in updates { batches += batch.count }
                Issue.record("the sequence ended without the fault")
            } catch let error as NSError {
                #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorUnknown.rawValue))
            }
            #expect(batches == 5)
            #expect(waitUntil { !manager.isDeviceMotionActive && !device.isRunning })

            // Breaking out of the loop stops the updates.
            let second = manager.accelerometerUpdates()
            device.emit(.samples(device.restingSamples(count: 4, from: 9_000_000_000)))
            for try await batch in second {
                #expect(batch.count == 4)
                break
            }
            #expect(waitUntil { !manager.isAccelerometerActive && !device.isRunning })
        }

        @Test func batchedAndClassicManagersShareOneDeviceStart() {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let classic = CMMotionManager()
            let batched = CMBatchedSensorManager()
            batched.linuxBatchInterval = 0
            classic.gyroUpdateInterval = 0.005  // every sample, so both see the same latest one
            classic.startGyroUpdates()
            batched.startAccelerometerUpdates()
            #expect(device.isRunning && device.startCount == 1)
            device.emit(.samples(device.restingSamples(count: 8)))
            #expect(waitUntil { batched.accelerometerBatch?.count == 8 && classic.gyroData != nil })
            #expect(classic.gyroData?.timestamp == batched.accelerometerBatch?.last?.timestamp)
            classic.stopGyroUpdates()
            #expect(device.isRunning, "the batched accelerometer still runs")
            batched.stopAccelerometerUpdates()
            #expect(!device.isRunning && device.startCount == 1)
        }

        /// Waits until every handler call queued so far on the manager's serial queue has run (the hub queues
        /// them synchronously inside `emit`).
        func waitForQueue(of manager: CMBatchedSensorManager) {
            manager.storage.queue.sync {}
        }
    }
}
