import CoreMotion
import Foundation
import MotionHAL
import MotionMath
import Testing

// Client code written the way an iPhone app writes it. Everything above the tests compiles unchanged against
// Apple's `import CoreMotion` (Swift 6 language mode); only the tests' choice of device, through
// `CMLinuxMotionDevice.use`, is Linux-specific.

// MARK: - 1. An AsyncStream wrapper

extension CMMotionManager {
    /// Device-motion updates as an `AsyncStream`, bridging the block API to Swift concurrency: samples arrive
    /// in order every `interval` seconds, in the manager's current attitude reference frame; a device error
    /// finishes the stream. Ending the iteration (leaving the `for await` loop, cancelling its task) stops
    /// the updates.
    /// - Parameter interval: the update interval, s.
    func deviceMotionStream(interval: TimeInterval) -> AsyncStream<CMDeviceMotion> {
        AsyncStream { continuation in
            // A serial queue, so the samples are yielded in the order they were measured.
            let queue = OperationQueue()
            queue.name = "DeviceMotionStream"
            queue.maxConcurrentOperationCount = 1
            deviceMotionUpdateInterval = interval
            startDeviceMotionUpdates(to: queue) { motion, error in
                if let motion {
                    // The sample is an immutable record the handler hands over and never touches again.
                    nonisolated(unsafe) let sample = motion
                    continuation.yield(sample)
                } else if error != nil {
                    continuation.finish()
                }
            }
            // `onTermination` is `@Sendable`, the manager is not: stopping is safe from any thread.
            nonisolated(unsafe) let manager = self
            continuation.onTermination = { _ in manager.stopDeviceMotionUpdates() }
        }
    }
}

// MARK: - 2. An app's own CMMotionManager subclass

/// A game's single motion manager (Apple advises one per app): a subclass that fixes its update intervals in
/// `init()` and turns device motion into tilt-steering input, with a "recenter" the player triggers to make
/// the way they hold the phone the neutral position.
final class GameMotionManager: CMMotionManager {
    /// Input for one frame: steering (roll, + = right edge down) and throttle (pitch, + = top edge up), each
    /// in -1...1, and the time of the sample it comes from.
    struct TiltInput: Sendable {
        var steering: Double
        var throttle: Double
        var timestamp: TimeInterval
    }

    /// Tilt giving full deflection, rad.
    let maximumTilt = 0.5
    /// Guards ``neutral``, which the handler's queue reads and `recenter()` writes.
    private let lock = NSLock()
    /// The attitude taken as neutral; nil for "flat".
    private var neutral: CMAttitude?

    override init() {
        super.init()
        deviceMotionUpdateInterval = 1.0 / 60
        accelerometerUpdateInterval = 1.0 / 30
    }

    /// Whether this device can drive the game by tilting.
    var isTiltControlAvailable: Bool { isDeviceMotionAvailable }

    /// Starts tilt input on `queue`, one ``TiltInput`` per device-motion update.
    func startTiltControl(on queue: OperationQueue = .main, handler: @escaping (TiltInput) -> Void) {
        guard isTiltControlAvailable else { return }
        startDeviceMotionUpdates(using: .xArbitraryZVertical, to: queue) { [weak self] motion, _ in
            guard let self, let motion else { return }
            handler(self.tiltInput(from: motion))
        }
    }

    /// The latest input, for a game loop that polls instead.
    var currentInput: TiltInput? { deviceMotion.map(tiltInput(from:)) }

    /// Makes the current attitude the neutral position; false before the first sample.
    @discardableResult func recenter() -> Bool {
        guard let attitude = deviceMotion?.attitude.copy() as? CMAttitude else { return false }
        lock.withLock { neutral = attitude }
        return true
    }

    /// Stops tilt input.
    func stopTiltControl() {
        stopDeviceMotionUpdates()
    }

    private func tiltInput(from motion: CMDeviceMotion) -> TiltInput {
        // `multiply(byInverseOf:)` changes the attitude it is called on: work on a copy.
        guard let attitude = motion.attitude.copy() as? CMAttitude else {
            return TiltInput(steering: 0, throttle: 0, timestamp: motion.timestamp)
        }
        if let neutral = lock.withLock({ neutral }) {
            attitude.multiply(byInverseOf: neutral)
        }
        func deflection(_ angle: Double) -> Double { min(max(angle / maximumTilt, -1), 1) }
        return TiltInput(
            steering: deflection(attitude.roll), throttle: deflection(attitude.pitch), timestamp: motion.timestamp)
    }
}

// MARK: - 3. A pull-mode game loop

/// A fixed-timestep game loop without a display link: `update` runs once per frame at `framesPerSecond`,
/// each frame sleeping until its own deadline so the frame times do not drift.
struct FixedStepGameLoop {
    /// Frame rate, Hz.
    let framesPerSecond: Double

    /// Runs `frames` frames; `update` receives the frame number and the seconds since the first frame.
    func run(frames: Int, update: (_ frame: Int, _ time: TimeInterval) -> Void) {
        let start = Date()
        for frame in 0..<frames {
            let deadline = start.addingTimeInterval(Double(frame) / framesPerSecond)
            Thread.sleep(until: deadline)
            update(frame, Date().timeIntervalSince(start))
        }
    }
}

/// The total yaw a game has seen the player turn, across the ±π wrap of `CMAttitude.yaw`, rad.
struct YawAccumulator {
    private var last: Double?
    /// Yaw turned since the first reading, rad (+ = counter-clockwise seen from above).
    private(set) var total = 0.0

    /// Adds one reading of `CMAttitude.yaw`.
    mutating func add(_ yaw: Double) {
        if let last {
            total += remainder(yaw - last, 2 * .pi)
        }
        last = yaw
    }
}

// MARK: - 4. Reference-frame negotiation

/// The heading of a compass screen, in the best attitude reference frame the device offers: magnetic north
/// when it has a magnetometer, otherwise a drift-corrected or a plain arbitrary frame (no heading then).
final class HeadingTracker {
    /// What the screen shows for one update.
    struct Reading: Sendable {
        /// Degrees clockwise from magnetic north, nil in a frame without north.
        var heading: Double?
        var yaw: Double
        var roll: Double
        var gravity: CMAcceleration
        var timestamp: TimeInterval
    }

    let manager = CMMotionManager()
    /// The frame chosen by the last `start`.
    private(set) var referenceFrame: CMAttitudeReferenceFrame?

    /// The best of `available`, defaulting to what the current device offers.
    static func bestFrame(
        among available: CMAttitudeReferenceFrame = CMMotionManager.availableAttitudeReferenceFrames()
    ) -> CMAttitudeReferenceFrame {
        if available.contains(.xMagneticNorthZVertical) {
            return .xMagneticNorthZVertical
        } else if available.contains(.xArbitraryCorrectedZVertical) {
            return .xArbitraryCorrectedZVertical
        } else {
            return .xArbitraryZVertical
        }
    }

    /// Starts updates every 1/30 s on `queue` in the best frame; false without device motion.
    @discardableResult func start(on queue: OperationQueue = .main, handler: @escaping (Reading) -> Void) -> Bool {
        guard manager.isDeviceMotionAvailable else { return false }
        let frame = Self.bestFrame()
        referenceFrame = frame
        manager.deviceMotionUpdateInterval = 1.0 / 30
        manager.startDeviceMotionUpdates(using: frame, to: queue) { motion, _ in
            guard let motion else { return }
            handler(
                Reading(
                    heading: motion.heading >= 0 ? motion.heading : nil, yaw: motion.attitude.yaw,
                    roll: motion.attitude.roll, gravity: motion.gravity, timestamp: motion.timestamp))
        }
        return true
    }

    /// Stops the updates.
    func stop() {
        manager.stopDeviceMotionUpdates()
    }
}

// MARK: - 5. Handlers on the main queue

/// The state of a bubble-level screen, on the main actor where the UI reads it.
@MainActor final class LevelViewModel {
    private(set) var acceleration = CMAcceleration(x: 0, y: 0, z: 0)
    private(set) var timestamps: [TimeInterval] = []
    /// Whether every update arrived in an operation of `OperationQueue.main`.
    private(set) var allOnMainQueue = true

    /// Applies one accelerometer sample.
    func apply(_ acceleration: CMAcceleration, at timestamp: TimeInterval, onMainQueue: Bool) {
        self.acceleration = acceleration
        timestamps.append(timestamp)
        allOnMainQueue = allOnMainQueue && onMainQueue
    }
}

/// A background service (not isolated to the main actor) owning the accelerometer, which delivers to
/// `OperationQueue.main` so the handler may update main-actor state synchronously.
final class LevelSensorService {
    private let manager = CMMotionManager()

    /// Whether the accelerometer runs.
    var isRunning: Bool { manager.isAccelerometerActive }

    /// Starts updating `model` every `interval` seconds.
    func start(updating model: LevelViewModel, interval: TimeInterval) {
        guard manager.isAccelerometerAvailable else { return }
        manager.accelerometerUpdateInterval = interval
        manager.startAccelerometerUpdates(to: .main) { data, _ in
            guard let data else { return }
            let acceleration = data.acceleration, timestamp = data.timestamp
            let onMainQueue = OperationQueue.current === OperationQueue.main
            // The main queue's operations run on the main actor.
            MainActor.assumeIsolated {
                model.apply(acceleration, at: timestamp, onMainQueue: onMainQueue)
            }
        }
    }

    /// Stops the updates.
    func stop() {
        manager.stopAccelerometerUpdates()
    }
}
