import CoreMotion
import Foundation
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

// The tests of the iPhone-style clients in IOSStyleClients.swift.

// MARK: - Tests

extension CMMotionManagerDeviceTests {
    /// Gravity of a device lying still face up: (0, 0, -1) g.
    private static func expectFaceUpGravity(
        _ gravity: CMAcceleration, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(abs(gravity.x) < 0.01 && abs(gravity.y) < 0.01, sourceLocation: sourceLocation)
        #expect(abs(gravity.z + 1) < 0.001, "gravity.z \(gravity.z)", sourceLocation: sourceLocation)
    }

    @Test func asyncStreamDeliversOrderedSamplesAndStopsWhenTheLoopEnds() async throws {
        _ = Self.useStationarySimulator()
        let manager = CMMotionManager()
        #expect(!manager.isDeviceMotionActive)
        var timestamps: [TimeInterval] = []
        var activeWhileIterating = true
        // The stream is only referenced by the loop's iterator: leaving the loop ends it.
        for await motion in manager.deviceMotionStream(interval: 0.02) {
            Self.expectFaceUpGravity(motion.gravity)
            #expect(abs(motion.userAcceleration.z) < 0.02)
            activeWhileIterating = activeWhileIterating && manager.isDeviceMotionActive
            timestamps.append(motion.timestamp)
            if timestamps.count == 25 { break }
        }
        #expect(!manager.isDeviceMotionActive, "onTermination stopped the updates")
        #expect(activeWhileIterating)
        #expect(timestamps.count == 25)
        #expect(manager.deviceMotionUpdateInterval == 0.02)
        // In order, 0.02 s apart (one 200 Hz sample period of tolerance).
        for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
            #expect(abs(later - earlier - 0.02) <= 0.0051, "\(later - earlier) s between samples")
        }
    }

    @Test func gameMotionManagerSubclassSteersByTiltAndRecenters() throws {
        // Held still, top edge raised 0.1 rad (pitch) and right edge lowered 0.2 rad (roll).
        let attitude =
            Quaternion(axis: SIMD3(1, 0, 0), angle: 0.1) * Quaternion(axis: SIMD3(0, 1, 0), angle: 0.2)
        _ = Self.useStationarySimulator(attitude)
        let game = GameMotionManager()
        #expect(game.deviceMotionUpdateInterval == 1.0 / 60)
        #expect(game.accelerometerUpdateInterval == 1.0 / 30)
        #expect(game.isTiltControlAvailable)
        #expect(!game.recenter(), "nothing to recenter on before the first sample")

        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let inputs = Recorder<GameMotionManager.TiltInput>()
        game.startTiltControl(on: queue) { inputs.append($0) }
        #expect(game.isDeviceMotionActive && game.attitudeReferenceFrame == .xArbitraryZVertical)
        #expect(waitUntil { inputs.count >= 30 })
        // Steering = roll / 0.5 rad, throttle = pitch / 0.5 rad.
        let tilted = inputs.all.suffix(10)
        #expect(tilted.count == 10)
        for input in tilted {
            #expect(abs(input.steering - 0.4) < 0.03, "steering \(input.steering)")
            #expect(abs(input.throttle - 0.2) < 0.03, "throttle \(input.throttle)")
        }
        for (earlier, later) in zip(tilted, tilted.dropFirst()) {
            #expect(abs(later.timestamp - earlier.timestamp - 1.0 / 60) <= 0.0051)
        }
        let polled = try #require(game.currentInput)
        #expect(abs(polled.steering - 0.4) < 0.03 && abs(polled.throttle - 0.2) < 0.03)

        // The player recenters: holding the phone like this is now neutral.
        #expect(game.recenter())
        let countAtRecenter = inputs.count
        #expect(waitUntil { inputs.count >= countAtRecenter + 15 })
        for input in inputs.all.suffix(10) {
            #expect(abs(input.steering) < 0.03 && abs(input.throttle) < 0.03, "\(input)")
        }
        game.stopTiltControl()
        #expect(!game.isDeviceMotionActive)
    }

    @Test func pullModeGameLoopIntegratesYawAtTheSpinRate() throws {
        // Face up, spinning counter-clockwise (seen from above) at 0.5 rad/s.
        let spin = SimulatedMotion.rotation(axis: SIMD3(0, 0, 1), rate: 0.5)
        CMLinuxMotionDevice.use(SimulatedIMU(configuration: .init(sampleRate: 200, motion: spin, seed: 11)))
        let manager = CMMotionManager()
        manager.deviceMotionUpdateInterval = 1.0 / 120
        manager.startDeviceMotionUpdates()
        defer { manager.stopDeviceMotionUpdates() }
        // The game's loading screen: wait for the first sample.
        #expect(waitUntil { manager.deviceMotion != nil })

        var yaw = YawAccumulator()
        var timestamps: [TimeInterval] = []
        var rates: [Double] = []
        var frameTimes: [TimeInterval] = []
        FixedStepGameLoop(framesPerSecond: 60).run(frames: 61) { _, time in
            guard let motion = manager.deviceMotion else { return }
            yaw.add(motion.attitude.yaw)
            timestamps.append(motion.timestamp)
            rates.append(motion.rotationRate.z)
            frameTimes.append(time)
        }
        #expect(timestamps.count == 61, "every frame had a sample")
        let first = try #require(timestamps.first), last = try #require(timestamps.last)
        let sampleTime = last - first
        let frameTime = try #require(frameTimes.last) - (try #require(frameTimes.first))
        // The frames span about a second; the samples they read span the same time.
        #expect(frameTime > 0.95 && frameTime < 1.5, "\(frameTime) s of frames")
        #expect(abs(sampleTime - frameTime) < 0.1, "samples span \(sampleTime) s, frames \(frameTime) s")
        // Yaw turned = rate × elapsed sample time (gyro bias 0.003 rad/s, not yet estimated).
        #expect(abs(yaw.total - 0.5 * sampleTime) < 0.02, "yaw \(yaw.total) rad in \(sampleTime) s")
        let meanRate = rates.reduce(0, +) / Double(rates.count)
        #expect(abs(meanRate - 0.5) < 0.01, "rotation rate z \(meanRate) rad/s")
        // The latest sample never goes back in time, and moves on between (nearly) all frames.
        let steps = zip(timestamps, timestamps.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 >= 0 })
        let advancing = steps.filter { $0 > 0 }.count
        #expect(advancing >= steps.count * 3 / 4, "the sample moved on in \(advancing) of \(steps.count) frames")
    }

    @Test func compassNegotiatesMagneticNorthOnANineAxisDevice() throws {
        // Face up, turned 30° counter-clockwise from "top edge to magnetic north".
        _ = Self.useStationarySimulator(Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 6))
        let available = CMMotionManager.availableAttitudeReferenceFrames()
        #expect(available == [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical])
        #expect(HeadingTracker.bestFrame() == .xMagneticNorthZVertical)

        let tracker = HeadingTracker()
        let readings = Recorder<HeadingTracker.Reading>()
        #expect(tracker.start(on: OperationQueue()) { readings.append($0) })
        defer { tracker.stop() }
        #expect(tracker.referenceFrame == .xMagneticNorthZVertical)
        #expect(tracker.manager.attitudeReferenceFrame == .xMagneticNorthZVertical)
        #expect(waitUntil { readings.count >= 10 })
        for reading in readings.all.suffix(5) {
            // The top edge points 30° west of north: heading 330°; x (east turned 30° to the north) makes yaw
            // -90° + 30° from the north axis.
            let heading = try #require(reading.heading, "a north-referenced frame has a heading")
            #expect(abs(heading - 330) < 2, "heading \(heading)°")
            #expect(abs(reading.yaw + .pi / 3) < 0.035, "yaw \(reading.yaw)")
            Self.expectFaceUpGravity(reading.gravity)
        }
    }

    @Test func compassNegotiatesDownWithoutAMagnetometer() throws {
        // A 6-axis IMU: the simulator's readings of a device held still with its right edge 0.3 rad down,
        // replayed by a device that has no magnetometer.
        let attitude = Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3)
        let simulator = SimulatedIMU(
            configuration: .init(sampleRate: 200, motion: .stationary(attitude: attitude), seed: 5))
        let samples = simulator.samples(count: 200, startTimestamp: 2_000_000_000)
        let device = ScriptedIMU(sensors: [.accelerometer, .gyroscope])
        CMLinuxMotionDevice.use(device)

        #expect(CMMotionManager.availableAttitudeReferenceFrames() == .xArbitraryZVertical)
        #expect(HeadingTracker.bestFrame() == .xArbitraryZVertical)
        // The middle fallback, for a device offering the corrected frame but not north.
        let corrected = HeadingTracker.bestFrame(among: [.xArbitraryZVertical, .xArbitraryCorrectedZVertical])
        #expect(corrected == .xArbitraryCorrectedZVertical)

        let tracker = HeadingTracker()
        #expect(!tracker.manager.isMagnetometerAvailable && tracker.manager.isDeviceMotionAvailable)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let readings = Recorder<HeadingTracker.Reading>()
        #expect(tracker.start(on: queue) { readings.append($0) })
        #expect(tracker.referenceFrame == .xArbitraryZVertical)
        #expect(tracker.manager.attitudeReferenceFrame == .xArbitraryZVertical)

        // An app that skips the negotiation and insists on north gets an error instead of data.
        let insisting = CMMotionManager()
        let errors = Recorder<NSError>(), data = Recorder<Int>()
        insisting.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { motion, error in
            if motion != nil { data.append(1) }
            if let error { errors.append(error as NSError) }
        }

        for start in stride(from: 0, to: samples.count, by: 20) {
            device.emit(.samples(Array(samples[start..<start + 20])))
        }
        queue.waitUntilAllOperationsAreFinished()
        tracker.stop()
        insisting.stopDeviceMotionUpdates()

        // Samples at 0 … 0.995 s, one reading every 1/30 s: 30 readings, without heading, with the tilt's
        // gravity and roll.
        let received = readings.all
        #expect(abs(received.count - 30) <= 1, "\(received.count) readings")
        let expected = attitude.conjugate.rotate(SIMD3(0, 0, -1))
        for reading in received.suffix(10) {
            #expect(reading.heading == nil)
            #expect(abs(reading.roll - 0.3) < 0.02, "roll \(reading.roll)")
            #expect(abs(reading.gravity.x - expected.x) < 0.01 && abs(reading.gravity.z - expected.z) < 0.01)
        }
        #expect(data.count == 0)
        let error = try #require(errors.all.first)
        #expect(errors.count == 1 && error.domain == CMErrorDomain)
        #expect(error.code == Int(CMErrorNotAvailable.rawValue))
    }

    /// Handlers on `OperationQueue.main`, started from a non-main-actor context.
    ///
    /// On iOS a test would start the updates and spin `RunLoop.main.run(until:)` on the main thread. That
    /// cannot be done in this test process: Swift Testing runs the test on the cooperative pool, never on the
    /// process's first thread, which the runner's async `main` has parked in libdispatch's `dispatchMain()`
    /// (the thread sleeps for good, while the main queue — the main actor's executor — is drained by dispatch
    /// worker threads); and corelibs Foundation's `RunLoop.run(mode:before:)` returns false at once unless
    /// called on the run loop's own thread, so `RunLoop.main.run(until:)` from the test does nothing (it is
    /// also unavailable from `async` code). So the test suspends with `Task.sleep` and lets the main queue run
    /// the handlers, as the `@MainActor` model test does.
    @Test func mainQueueHandlersStartedOffTheMainActorUpdateAMainActorModel() async throws {
        // Standing upright in portrait: gravity along -y.
        let attitude = Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2)
        _ = Self.useStationarySimulator(attitude)
        let model = LevelViewModel()
        let service = LevelSensorService()
        service.start(updating: model, interval: 0.05)
        #expect(service.isRunning)
        let deadline = Date().addingTimeInterval(3)
        while await model.timestamps.count < 10, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        service.stop()
        #expect(!service.isRunning)
        let (timestamps, acceleration, allOnMainQueue) = await MainActor.run {
            (model.timestamps, model.acceleration, model.allOnMainQueue)
        }
        #expect(timestamps.count >= 10)
        #expect(allOnMainQueue)
        // Specific force 9.81 m/s² up, in g of 9.80665 m/s², in the device's axes.
        let expected = attitude.conjugate.rotate(SIMD3(0, 0, -9.81 / Self.g))
        #expect(abs(acceleration.x - expected.x) < 0.01, "x \(acceleration.x)")
        #expect(abs(acceleration.y - expected.y) < 0.01, "y \(acceleration.y)")
        #expect(abs(acceleration.z - expected.z) < 0.01, "z \(acceleration.z)")
        for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
            #expect(abs(later - earlier - 0.05) <= 0.0051, "\(later - earlier) s between updates")
        }
        // No handler runs after the stop.
        try await Task.sleep(for: .milliseconds(150))
        #expect(await model.timestamps.count == timestamps.count)
    }
}
