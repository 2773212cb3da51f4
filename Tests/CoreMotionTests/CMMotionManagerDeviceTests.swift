import CoreMotion
import Foundation
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

/// One value from a handler call: the sample's values and where the handler ran.
struct GyroCall: Sendable {
    let z: Double
    let timestamp: TimeInterval
    let ranOnGivenQueue: Bool
}

/// Everything that uses the process-wide device, one test at a time; each test selects its own device.
@Suite(.serialized) struct CMMotionManagerDeviceTests {
    static let g = 9.80665

    /// A simulator that lies still at `attitude` (body → ENU), with its default noise and gyroscope bias.
    static func useStationarySimulator(_ attitude: Quaternion = .identity) -> SimulatedIMU {
        let device = SimulatedIMU(
            configuration: .init(sampleRate: 200, motion: .stationary(attitude: attitude), seed: 7))
        CMLinuxMotionDevice.use(device)
        return device
    }

    @Test func restingFaceUpReadsMinusOneGAndGravityDown() throws {
        _ = Self.useStationarySimulator()
        let manager = CMMotionManager()
        manager.startAccelerometerUpdates()
        manager.startDeviceMotionUpdates()
        defer {
            manager.stopAccelerometerUpdates()
            manager.stopDeviceMotionUpdates()
        }
        #expect(waitUntil { manager.accelerometerData != nil && manager.deviceMotion != nil })
        let acceleration = try #require(manager.accelerometerData).acceleration
        // Specific force +9.81 m/s² up → Apple's -1 g on z (noise 0.02 m/s² ≈ 0.002 g).
        #expect(abs(acceleration.x) < 0.01 && abs(acceleration.y) < 0.01)
        #expect(abs(acceleration.z - -9.81 / Self.g) < 0.01)
        let motion = try #require(manager.deviceMotion)
        #expect(abs(motion.gravity.x) < 0.01 && abs(motion.gravity.y) < 0.01 && abs(motion.gravity.z + 1) < 0.001)
        #expect(abs(motion.userAcceleration.x) < 0.02 && abs(motion.userAcceleration.y) < 0.02)
        #expect(abs(motion.userAcceleration.z) < 0.02)
        #expect(abs(motion.attitude.roll) < 0.02 && abs(motion.attitude.pitch) < 0.02)
        #expect(motion.heading < 0)  // arbitrary frame: no heading
        #expect(motion.magneticField.accuracy == .uncalibrated)
        #expect(motion.sensorLocation == .default)
    }

    @Test(arguments: [
        (SIMD3<Double>(0, 1, 0), Double.pi / 2),  // right edge down
        (SIMD3<Double>(1, 0, 0), Double.pi / 2),  // standing upright in portrait
        (SIMD3<Double>(1, 0, 0), -Double.pi / 3),
    ])
    func gravityFollowsTheAttitude(axis: SIMD3<Double>, angle: Double) throws {
        let attitude = Quaternion(axis: axis, angle: angle)
        _ = Self.useStationarySimulator(attitude)
        // Truth: gravity (0, 0, -1) in ENU carried into body axes.
        let expected = attitude.conjugate.rotate(SIMD3(0, 0, -1))
        let manager = CMMotionManager()
        manager.startAccelerometerUpdates()
        manager.startDeviceMotionUpdates()
        defer {
            manager.stopAccelerometerUpdates()
            manager.stopDeviceMotionUpdates()
        }
        #expect(waitUntil { manager.accelerometerData != nil && manager.deviceMotion != nil })
        let acceleration = try #require(manager.accelerometerData).acceleration
        let gravity = try #require(manager.deviceMotion).gravity
        let pairs = [(acceleration.x, expected.x), (acceleration.y, expected.y), (acceleration.z, expected.z)]
        for (measured, truth) in pairs {
            #expect(abs(measured - truth) < 0.01)
        }
        for (measured, truth) in [(gravity.x, expected.x), (gravity.y, expected.y), (gravity.z, expected.z)] {
            #expect(abs(measured - truth) < 0.01)
        }
    }

    @Test func constantRotationAboutZReadsRateAndBias() throws {
        var configuration = SimulatedIMU.Configuration(
            sampleRate: 200, motion: .rotation(axis: SIMD3(0, 0, 1), rate: 1), seed: 3)
        configuration.gyroscopeBias = SIMD3(0.01, -0.02, 0.03)
        CMLinuxMotionDevice.use(SimulatedIMU(configuration: configuration))
        let manager = CMMotionManager()
        let queue = OperationQueue()
        let raw = Recorder<Double>(), fused = Recorder<Double>()
        manager.gyroUpdateInterval = 0.02
        manager.deviceMotionUpdateInterval = 0.02
        manager.startGyroUpdates(to: queue) { data, _ in raw.append(data!.rotationRate.z) }
        manager.startDeviceMotionUpdates(to: queue) { motion, _ in fused.append(motion!.rotationRate.z) }
        #expect(waitUntil { raw.count >= 20 && fused.count >= 20 })
        manager.stopGyroUpdates()
        manager.stopDeviceMotionUpdates()
        let rawMean = raw.all.reduce(0, +) / Double(raw.count)
        let fusedMean = fused.all.reduce(0, +) / Double(fused.count)
        // Raw gyro: true rate + bias (noise 0.002 rad/s averages out).
        #expect(abs(rawMean - 1.03) < 0.005)
        // Device motion in its first second: the filter's bias estimate is still frozen (initial period),
        // so the rate is the raw one minus an estimate of at most the bias.
        #expect(fusedMean > 1 - 0.005 && fusedMean < 1.035)
    }

    @Test func deviceMotionRemovesTheGyroscopeBias() throws {
        // 120 s of the simulator's exact readings (10 s at rest, then rotating at 1 rad/s about z, biased
        // gyroscope) replayed through a scripted device: the filter measures the bias on all three axes
        // while the device rests and keeps removing it while it turns.
        var configuration = SimulatedIMU.Configuration(
            sampleRate: 200,
            motion: .rotationSequence(initialAttitude: .identity, steps: [
                SimulatedRotationStep(duration: 10, angularVelocity: .zero),
                SimulatedRotationStep(duration: 110, angularVelocity: SIMD3(0, 0, 1)),
            ]),
            seed: 5)
        configuration.gyroscopeBias = SIMD3(0.01, -0.02, 0.03)
        let samples = SimulatedIMU(configuration: configuration).samples(count: 24000, startTimestamp: 5_000_000_000)
        let device = ScriptedIMU(sampleRate: 200)
        CMLinuxMotionDevice.use(device)
        let manager = CMMotionManager()
        let gyroscope = Recorder<CMRotationRate>(), fused = Recorder<CMRotationRate>()
        let uncertainties = Recorder<SIMD2<Double>>()
        manager.gyroUpdateInterval = 0.1
        manager.deviceMotionUpdateInterval = 0.1
        manager.startGyroUpdates(to: OperationQueue()) { data, _ in gyroscope.append(data!.rotationRate) }
        let queue = OperationQueue()
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { motion, _ in
            fused.append(motion!.rotationRate)
            uncertainties.append(SIMD2(motion!.linuxHeadingUncertainty, motion!.linuxInclinationUncertainty))
        }
        for start in stride(from: 0, to: samples.count, by: 50) {
            device.emit(.samples(Array(samples[start..<start + 50])))
        }
        queue.waitUntilAllOperationsAreFinished()
        // The Linux diagnostics show the filter's bias estimate: the simulator's bias (rad/s).
        let fusion = try #require(CMLinuxMotionDevice.diagnostics.fusion.first { $0.referenceFrame == .xMagneticNorthZVertical })
        #expect(fusion.isInitialized)
        // And its own uncertainty, 1 σ, degrees: a few degrees of heading, under a degree of inclination,
        // as each device-motion sample also carries.
        let uncertainty = try #require(fusion.uncertainty)
        #expect((0.1...10).contains(uncertainty.heading) && (0.05...2).contains(uncertainty.inclination), "\(uncertainty)")
        #expect(uncertainties.all.last.map { $0.x > 0 && $0.y > 0 } == true)
        let bias = fusion.gyroscopeBias
        #expect(abs(bias.x - 0.01) < 0.005 && abs(bias.y + 0.02) < 0.005 && abs(bias.z - 0.03) < 0.005, "bias \(bias)")
        manager.stopGyroUpdates()
        manager.stopDeviceMotionUpdates()
        // Mean of the last 5 s (50 updates at 0.1 s).
        let last = fused.all.suffix(50)
        #expect(last.count == 50)
        let mean = last.reduce(SIMD3<Double>.zero) { $0 + SIMD3($1.x, $1.y, $1.z) } / Double(last.count)
        #expect(abs(mean.x) < 0.005 && abs(mean.y) < 0.005, "x, y bias removed: \(mean)")
        #expect(abs(mean.z - 1) < 0.005, "z: true rate 1 rad/s, raw 1.03: \(mean.z)")
    }

    @Test func pushDeliversAtTheIntervalOnTheGivenQueue() throws {
        _ = Self.useStationarySimulator()
        let manager = CMMotionManager()
        let queue = OperationQueue()
        let calls = Recorder<GyroCall>()
        manager.gyroUpdateInterval = 0.05
        manager.startGyroUpdates(to: queue) { data, error in
            calls.append(
                GyroCall(
                    z: data?.rotationRate.z ?? .nan, timestamp: data?.timestamp ?? -1,
                    ranOnGivenQueue: OperationQueue.current === queue && error == nil))
        }
        #expect(manager.isGyroActive)
        Thread.sleep(forTimeInterval: 1)
        manager.stopGyroUpdates()
        #expect(!manager.isGyroActive)
        let received = calls.all
        #expect((15...25).contains(received.count), "\(received.count) updates in 1 s at 0.05 s")
        #expect(received.allSatisfy { $0.ranOnGivenQueue })
        // Successive timestamps 0.05 s apart (one 200 Hz sample period of tolerance).
        for (earlier, later) in zip(received, received.dropFirst()) {
            #expect(abs(later.timestamp - earlier.timestamp - 0.05) <= 0.0051)
        }
        // Stopping ends the updates: a call already under way when stop returned may still finish (stopping
        // does not wait for the queue), none begins afterwards.
        let countAtStop = calls.count
        Thread.sleep(forTimeInterval: 0.2)
        let settled = calls.count
        #expect(settled <= countAtStop + 1)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(calls.count == settled)
    }

    @Test func pullModeReturnsFreshDataWithoutHandler() throws {
        _ = Self.useStationarySimulator()
        let manager = CMMotionManager()
        #expect(manager.gyroData == nil)
        manager.startGyroUpdates()
        manager.startMagnetometerUpdates()
        #expect(manager.isGyroActive && manager.isMagnetometerActive && !manager.isAccelerometerActive)
        #expect(waitUntil { manager.gyroData != nil && manager.magnetometerData != nil })
        let first = try #require(manager.gyroData)
        #expect(waitUntil(timeout: 10) { (manager.gyroData?.timestamp ?? 0) > first.timestamp })
        let second = try #require(manager.gyroData)
        let now = Double(MonotonicClock.now()) / 1e9
        #expect(second.timestamp > first.timestamp)
        #expect(now - second.timestamp < 0.1, "the latest sample is recent on the CLOCK_MONOTONIC time base")
        // Face up with y to magnetic north: field (0, 19.5, -44.5) µT.
        let field = try #require(manager.magnetometerData).magneticField
        #expect(abs(field.x) < 0.5 && abs(field.y - 19.5) < 0.5 && abs(field.z + 44.5) < 0.5)
        manager.stopGyroUpdates()
        manager.stopMagnetometerUpdates()
        #expect(!manager.isGyroActive && !manager.isMagnetometerActive)
    }

    @Test func intervalIsClampedToOneSamplePeriod() {
        CMLinuxMotionDevice.use(ScriptedIMU(sampleRate: 200))
        let manager = CMMotionManager()
        manager.accelerometerUpdateInterval = 0.0001
        manager.deviceMotionUpdateInterval = -1
        manager.gyroUpdateInterval = 0.03
        #expect(manager.accelerometerUpdateInterval == 1.0 / 200)
        #expect(manager.deviceMotionUpdateInterval == 1.0 / 200)
        #expect(manager.gyroUpdateInterval == 0.03)
    }

    @Test(arguments: [0.03, 0.05, 0.005, 0.1])
    func decimationKeepsTheExactLongRunRate(interval: Double) {
        let device = ScriptedIMU(sampleRate: 200)
        CMLinuxMotionDevice.use(device)
        let manager = CMMotionManager()
        let queue = OperationQueue()
        let timestamps = Recorder<TimeInterval>()
        manager.accelerometerUpdateInterval = interval
        manager.startAccelerometerUpdates(to: queue) { data, _ in timestamps.append(data!.timestamp) }
        // 10 s of samples in batches of 20, as a FIFO would deliver them.
        let samples = device.restingSamples(count: 2000)
        for start in stride(from: 0, to: samples.count, by: 20) {
            device.emit(.samples(Array(samples[start..<start + 20])))
        }
        // (Stopping first would cancel the calls still queued.)
        queue.waitUntilAllOperationsAreFinished()
        manager.stopAccelerometerUpdates()
        // Samples span 0 … 9.995 s: one update at 0 and one at each multiple of the interval.
        let expected = Int((9.995 + 1e-9) / interval) + 1
        #expect(abs(timestamps.count - expected) <= 1, "\(timestamps.count) updates, expected \(expected)")
    }

    @Test func noDeviceMeansEverythingUnavailable() {
        let device = ScriptedIMU(sensors: [])
        CMLinuxMotionDevice.use(device)
        let manager = CMMotionManager()
        #expect(!manager.isAccelerometerAvailable && !manager.isGyroAvailable)
        #expect(!manager.isMagnetometerAvailable && !manager.isDeviceMotionAvailable)
        #expect(CMMotionManager.availableAttitudeReferenceFrames().isEmpty)
        let calls = Recorder<Int>()
        let gyroQueue = OperationQueue(), motionQueue = OperationQueue()
        manager.startGyroUpdates(to: gyroQueue) { _, _ in calls.append(1) }
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: motionQueue) { _, _ in calls.append(2) }
        manager.startAccelerometerUpdates()
        #expect(!manager.isGyroActive && !manager.isDeviceMotionActive && !manager.isAccelerometerActive)
        #expect(!device.isRunning && device.startCount == 0)
        // Nothing was queued by the refused starts (not even an error).
        gyroQueue.waitUntilAllOperationsAreFinished()
        motionQueue.waitUntilAllOperationsAreFinished()
        #expect(calls.count == 0)
    }

    @Test func accelerometerOnlyDeviceOffersOnlyTheAccelerometer() {
        CMLinuxMotionDevice.use(ScriptedIMU(sensors: .accelerometer))
        let manager = CMMotionManager()
        #expect(manager.isAccelerometerAvailable)
        #expect(!manager.isGyroAvailable && !manager.isDeviceMotionAvailable)
        manager.startGyroUpdates()
        #expect(!manager.isGyroActive)
        #expect(CMLinuxMotionDevice.info?.driver == "scripted")
    }

    @Test func twoManagersShareOneDevice() {
        let device = ScriptedIMU()
        CMLinuxMotionDevice.use(device)
        let first = CMMotionManager(), second = CMMotionManager()
        first.startGyroUpdates()
        second.startAccelerometerUpdates()
        second.startGyroUpdates()
        #expect(device.isRunning && device.startCount == 1)
        device.emit(.samples(device.restingSamples(count: 3)))
        #expect(first.gyroData != nil && second.gyroData != nil && second.accelerometerData != nil)
        #expect(first.gyroData?.timestamp == second.gyroData?.timestamp)
        first.stopGyroUpdates()
        second.stopGyroUpdates()
        #expect(device.isRunning, "the accelerometer of the second manager still runs")
        second.stopAccelerometerUpdates()
        #expect(!device.isRunning)
        first.startGyroUpdates()
        #expect(device.isRunning && device.startCount == 2)
        first.stopGyroUpdates()
    }

    @Test func releasingAManagerStopsItsServices() {
        let device = ScriptedIMU()
        CMLinuxMotionDevice.use(device)
        var manager: CMMotionManager? = CMMotionManager()
        manager?.startGyroUpdates()
        manager?.startDeviceMotionUpdates()
        #expect(device.isRunning)
        manager = nil
        #expect(!device.isRunning)
    }

    @Test func trueNorthDeliversApplesError() throws {
        _ = Self.useStationarySimulator()
        #expect(!CMMotionManager.availableAttitudeReferenceFrames().contains(.xTrueNorthZVertical))
        let manager = CMMotionManager()
        let queue = OperationQueue()
        let errors = Recorder<NSError>(), data = Recorder<Int>()
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: queue) { motion, error in
            if motion != nil { data.append(1) }
            if let error { errors.append(error as NSError) }
        }
        #expect(manager.isDeviceMotionActive)
        #expect(manager.attitudeReferenceFrame == .xTrueNorthZVertical)
        #expect(waitUntil { errors.count == 1 })
        let error = try #require(errors.all.first)
        #expect(error.domain == CMErrorDomain)
        #expect(error.code == Int(CMErrorTrueNorthNotAvailable.rawValue))
        // Fence: while a manager in an available frame gets 20 device motions through the same queue, the
        // refused one gets none.
        let reference = CMMotionManager()
        let referenceData = Recorder<Int>()
        reference.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { motion, _ in
            if motion != nil { referenceData.append(1) }
        }
        #expect(waitUntil(timeout: 10) { referenceData.count >= 20 })
        reference.stopDeviceMotionUpdates()
        queue.waitUntilAllOperationsAreFinished()
        #expect(data.count == 0 && manager.deviceMotion == nil)
        #expect(errors.count == 1)
        manager.stopDeviceMotionUpdates()
        #expect(!manager.isDeviceMotionActive)
    }

    @Test func deviceFaultReachesHandlersAsCMError() throws {
        let device = ScriptedIMU()
        CMLinuxMotionDevice.use(device)
        let manager = CMMotionManager()
        let queue = OperationQueue()
        let errors = Recorder<NSError>()
        manager.startAccelerometerUpdates(to: queue) { data, error in
            if let error { errors.append(error as NSError) } else { #expect(data != nil) }
        }
        device.emit(.fault(.readFailed("bus timeout")))
        queue.waitUntilAllOperationsAreFinished()
        let error = try #require(errors.all.first)
        #expect(error.domain == CMErrorDomain && error.code == Int(CMErrorUnknown.rawValue))
        manager.stopAccelerometerUpdates()
    }

    @Test func magneticNorthFrameGivesHeadingAndYaw() throws {
        // Identity: face up, top edge (y) to magnetic north, x to east.
        _ = Self.useStationarySimulator()
        #expect(CMMotionManager.availableAttitudeReferenceFrames().contains(.xMagneticNorthZVertical))
        let manager = CMMotionManager()
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        defer { manager.stopDeviceMotionUpdates() }
        #expect(manager.attitudeReferenceFrame == .xMagneticNorthZVertical)
        #expect(waitUntil { manager.deviceMotion != nil })
        let motion = try #require(manager.deviceMotion)
        let headingError = min(motion.heading, 360 - motion.heading)
        #expect(headingError < 2, "heading \(motion.heading)°, top edge points north")
        // Device x points east, 90° clockwise from north: yaw -π/2 (counter-clockwise positive).
        #expect(abs(motion.attitude.yaw + .pi / 2) < 0.035)
        #expect(motion.magneticField.accuracy != .uncalibrated)
        #expect(abs(motion.magneticField.field.y - 19.5) < 0.5)
    }

    @Test func correctedArbitraryFrameStartsAtZeroYaw() throws {
        _ = Self.useStationarySimulator(Quaternion(axis: SIMD3(0, 0, 1), angle: 1.0))
        let manager = CMMotionManager()
        manager.startDeviceMotionUpdates(using: .xArbitraryCorrectedZVertical)
        defer { manager.stopDeviceMotionUpdates() }
        #expect(waitUntil { manager.deviceMotion != nil })
        let motion = try #require(manager.deviceMotion)
        #expect(abs(motion.attitude.yaw) < 0.035)
        #expect(motion.heading < 0)
    }
}
