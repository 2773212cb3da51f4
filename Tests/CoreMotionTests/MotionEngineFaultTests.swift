import CoreMotion
import Foundation
import MotionHAL
import MotionTestSupport
import Testing

extension CMMotionManagerDeviceTests {
    /// Faults, stalls, start retries and the Linux diagnostics, on the process-wide device (nested so that
    /// the parent's `.serialized` keeps it from running beside the other tests of the device).
    @Suite struct MotionEngineFaultTests {
        /// What a handler saw, in order: a sample's timestamp or an error.
        enum Call: Sendable {
            case data(TimeInterval)
            case error(NSError)

            var error: NSError? {
                if case .error(let error) = self { error } else { nil }
            }
        }

        @Test func simulatedFaultReachesEveryHandlerOnceThenDataResumes() throws {
            let device = try IMUDeviceSpecification.open("sim:motion=stationary,fault_after=0.3,fault_duration=0.5")
            CMLinuxMotionDevice.use(device)
            let faultsBefore = CMLinuxMotionDevice.diagnostics.faultsSeen
            let manager = CMMotionManager()
            let queue = OperationQueue()
            let calls = Recorder<Call>()
            manager.gyroUpdateInterval = 0.05
            manager.startGyroUpdates(to: queue) { data, error in
                if let error { calls.append(.error(error as NSError)) }
                if let data { calls.append(.data(data.timestamp)) }
            }
            let batched = CMBatchedSensorManager()
            batched.linuxBatchInterval = 0
            let batchedErrors = Recorder<NSError>()
            let batchedSamples = Recorder<TimeInterval>()
            batched.startAccelerometerUpdates { batch, error in
                if let error { batchedErrors.append(error as NSError) }
                for sample in batch ?? [] { batchedSamples.append(sample.timestamp) }
            }
            defer {
                manager.stopGyroUpdates()
                batched.stopAccelerometerUpdates()
            }

            // During the outage (0.3 … 0.8 s after start) the diagnostics show the fault.
            #expect(waitUntil { calls.all.contains { $0.error != nil } })
            let during = CMLinuxMotionDevice.diagnostics
            #expect(during.lastFault == "read failed: simulated fault")
            #expect(during.faultsSeen == faultsBefore + 1)
            #expect(during.driver == "sim" && during.configuredSampleRate == 200 && during.isRunning)

            // After the outage data resumes (three updates to each handler, a sample past the gap to the
            // batched one) and the fault clears.
            func dataAfterTheError() -> Int {
                let received = calls.all
                guard let errorPosition = received.firstIndex(where: { $0.error != nil }) else { return 0 }
                return received[(errorPosition + 1)...].filter { $0.error == nil }.count
            }
            func batchedGapSeen() -> Bool {
                let timestamps = batchedSamples.all
                return zip(timestamps, timestamps.dropFirst()).contains { $1 - $0 > 0.4 }
            }
            #expect(waitUntil(timeout: 10) {
                CMLinuxMotionDevice.diagnostics.lastFault == nil && dataAfterTheError() >= 3 && batchedGapSeen()
            })
            let after = CMLinuxMotionDevice.diagnostics
            #expect(after.lastFault == nil)
            #expect(after.faultsSeen == faultsBefore + 1)
            queue.waitUntilAllOperationsAreFinished()

            let received = calls.all
            let errors = received.compactMap(\.error)
            #expect(errors.count == 1, "one error per fault episode, not per sample")
            let error = try #require(errors.first)
            #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorUnknown.rawValue))
            let errorPosition = try #require(received.firstIndex { $0.error != nil })
            #expect(errorPosition > 0, "data before the fault")
            let dataAfter = received[(errorPosition + 1)...].filter { $0.error == nil }
            #expect(dataAfter.count >= 3, "data resumes after the outage: \(dataAfter.count) updates")
            #expect(batchedErrors.count == 1)
            // The batched handler saw every sample around the outage once; the outage itself lost ~0.5 s.
            let timestamps = batchedSamples.all
            let gaps = zip(timestamps, timestamps.dropFirst()).map { $1 - $0 }
            #expect(gaps.allSatisfy { $0 > 0 })
            #expect(gaps.filter { $0 > 0.0051 }.count == 1, "one gap: the outage")
            #expect(abs((gaps.max() ?? 0) - 0.5) < 0.0051)
        }

        @Test func aStalledDeviceIsReportedOnceAndRecovers() throws {
            let device = ScriptedIMU(sampleRate: 200)
            CMLinuxMotionDevice.use(device)
            let faultsBefore = CMLinuxMotionDevice.diagnostics.faultsSeen
            let manager = CMMotionManager()
            let queue = OperationQueue()
            let calls = Recorder<Call>()
            manager.accelerometerUpdateInterval = 0.005
            manager.startAccelerometerUpdates(to: queue) { data, error in
                if let error { calls.append(.error(error as NSError)) }
                if let data { calls.append(.data(data.timestamp)) }
            }
            defer { manager.stopAccelerometerUpdates() }
            // 0.3 s of deliveries every 10 ms, then silence.
            var next: UInt64 = 1_000_000_000
            for _ in 0..<30 {
                device.emit(.samples(device.restingSamples(count: 2, from: next)))
                next += 10_000_000
                Thread.sleep(forTimeInterval: 0.01)
            }
            let silenceStart = Date()
            // Stall threshold: 5 × ~10 ms + 0.5 s ≈ 0.55 s (checked every 0.25 s).
            #expect(waitUntil { calls.all.contains { $0.error != nil } })
            let detectedAfter = Date().timeIntervalSince(silenceStart)
            #expect(detectedAfter > 0.5 && detectedAfter < 1.5, "stall detected after \(detectedAfter) s")
            let diagnostics = CMLinuxMotionDevice.diagnostics
            #expect(diagnostics.lastFault?.hasPrefix("read failed: no samples for") == true, "\(diagnostics.lastFault ?? "nil")")
            #expect(diagnostics.faultsSeen == faultsBefore + 1)
            #expect(diagnostics.achievedSampleRate < 200 / 2, "the silence lowers the achieved rate")
            // (A longer silence is the same episode: MotionEngineSupervisionTests, on a manual clock.)
            // Samples again: the fault clears and data resumes.
            device.emit(.samples(device.restingSamples(count: 4, from: next)))
            queue.waitUntilAllOperationsAreFinished()
            #expect(CMLinuxMotionDevice.diagnostics.lastFault == nil)
            let received = calls.all
            let error = try #require(received.compactMap(\.error).first)
            #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorUnknown.rawValue))
            if case .data = try #require(received.last) {} else { Issue.record("data after the error") }
        }

        @Test func aFailedStartIsRetriedWithBackOffAndReportedOnce() throws {
            let device = ScriptedIMU(sampleRate: 200, failingStarts: 2)
            CMLinuxMotionDevice.use(device)
            let manager = CMBatchedSensorManager()
            manager.linuxBatchInterval = 0
            let errors = Recorder<NSError>()
            let samples = Recorder<TimeInterval>()
            manager.startAccelerometerUpdates { batch, error in
                if let error { errors.append(error as NSError) }
                for sample in batch ?? [] { samples.append(sample.timestamp) }
            }
            defer { manager.stopAccelerometerUpdates() }
            #expect(manager.isAccelerometerActive, "the service stays active while the device is retried")
            #expect(CMLinuxMotionDevice.diagnostics.lastFault?.contains("scripted start failure") == true)
            // Attempts at 0, 0.5 and 1.5 s.
            #expect(waitUntil(timeout: 4) { device.isRunning })
            let attempts = device.startAttemptTimes
            #expect(attempts.count == 3)
            if attempts.count == 3 {
                let delays = [attempts[1] - attempts[0], attempts[2] - attempts[1]]
                #expect(abs(delays[0] - 0.5) < 0.15 && abs(delays[1] - 1.0) < 0.15, "retry delays \(delays) s")
            }
            device.emit(.samples(device.restingSamples(count: 3)))
            #expect(waitUntil { samples.count == 3 })
            #expect(errors.count == 1, "the failed starts are one episode")
            let error = try #require(errors.all.first)
            #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorNotAvailable.rawValue))
            #expect(CMLinuxMotionDevice.diagnostics.lastFault == nil)
        }

        @Test func diagnosticsReportRateAndFusionOfTheRunningDevice() throws {
            let device = SimulatedIMU(configuration: .init(sampleRate: 200, motion: .stationary(attitude: .identity), seed: 2))
            CMLinuxMotionDevice.use(device)
            let idle = CMLinuxMotionDevice.diagnostics
            #expect(!idle.isRunning && idle.achievedSampleRate == 0 && idle.fusion.isEmpty)
            #expect(idle.configuredSampleRate == 200 && idle.driver == "sim")
            let manager = CMMotionManager()
            manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
            defer { manager.stopDeviceMotionUpdates() }
            let receivedBefore = idle.samplesReceived
            // 1 s of samples at 200 Hz (the achieved rate, from arrival times, keeps the claim about time).
            #expect(waitUntil(timeout: 10) { CMLinuxMotionDevice.diagnostics.samplesReceived - receivedBefore >= 200 })
            let running = CMLinuxMotionDevice.diagnostics
            #expect(running.isRunning && running.lastFault == nil)
            #expect(abs(running.achievedSampleRate - 200) < 30, "achieved \(running.achievedSampleRate) Hz")
            let received = running.samplesReceived - receivedBefore
            #expect((200..<300).contains(received), "\(received) samples just after the count reached 200: each counted once")
            let fusion = try #require(running.fusion.first)
            #expect(running.fusion.count == 1 && fusion.referenceFrame == .xMagneticNorthZVertical)
            #expect(fusion.isInitialized)
        }
    }
}
