import CoreMotion
import Foundation

// Head-tracking code written the way an iPhone app writes it against CMHeadphoneMotionManager and
// CMHeadphoneActivityManager. It compiles unchanged against Apple's `import CoreMotion` (Swift 6 language
// mode); only the tests' choice of headphones is Linux's.

/// A spatial-audio style head tracker: the head's pose from the headphones, and whether they are connected.
final class HeadTracker: NSObject, CMHeadphoneMotionManagerDelegate {
    struct Pose: Sendable {
        var pitch: Double, roll: Double, yaw: Double
        var location: CMDeviceMotion.SensorLocation
    }

    private let manager = CMHeadphoneMotionManager()
    private let lock = NSLock()
    private var poses: [Pose] = []
    private var connectionEvents: [Bool] = []

    override init() {
        super.init()
        manager.delegate = self
    }

    var isAvailable: Bool { manager.isDeviceMotionAvailable && CMHeadphoneMotionManager.authorizationStatus() != .denied }
    var isTracking: Bool { manager.isDeviceMotionActive }
    var latestPose: CMAttitude? { manager.deviceMotion?.attitude }
    var allPoses: [Pose] { lock.withLock { poses } }
    /// true for each connection, false for each disconnection, in order.
    var connections: [Bool] { lock.withLock { connectionEvents } }

    @discardableResult
    func start(queue: OperationQueue) -> Bool {
        guard isAvailable else { return false }
        manager.startDeviceMotionUpdates(to: queue) { [weak self] motion, error in
            guard let self, let motion, error == nil else { return }
            let attitude = motion.attitude
            let pose = Pose(pitch: attitude.pitch, roll: attitude.roll, yaw: attitude.yaw, location: motion.sensorLocation)
            self.lock.withLock { self.poses.append(pose) }
        }
        return true
    }

    func startPulling() { manager.startDeviceMotionUpdates() }

    func watchConnection() { manager.startConnectionStatusUpdates() }
    var isWatchingConnection: Bool { manager.isConnectionStatusActive }
    func stopWatchingConnection() { manager.stopConnectionStatusUpdates() }

    func stop() { manager.stopDeviceMotionUpdates() }

    func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager) {
        lock.withLock { connectionEvents.append(true) }
    }

    func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager) {
        lock.withLock { connectionEvents.append(false) }
    }
}

/// A listener that only cares whether headphones are in (iOS 18's activity manager) and what the wearer does.
final class HeadphoneActivityWatcher {
    private let manager = CMHeadphoneActivityManager()
    private let lock = NSLock()
    private var statuses: [CMHeadphoneActivityManager.Status] = []
    private var activities: [String] = []

    var canWatch: Bool { manager.isStatusAvailable && CMHeadphoneActivityManager.authorizationStatus() == .authorized }
    var allStatuses: [CMHeadphoneActivityManager.Status] { lock.withLock { statuses } }
    var allActivities: [String] { lock.withLock { activities } }
    var isActive: Bool { manager.isStatusActive && manager.isActivityActive }

    func start(queue: OperationQueue) {
        manager.startStatusUpdates(to: queue) { [weak self] status, error in
            guard let self, error == nil else { return }
            self.lock.withLock { self.statuses.append(status) }
        }
        if manager.isActivityAvailable {
            manager.startActivityUpdates(to: queue) { [weak self] activity, error in
                guard let self, let activity, error == nil else { return }
                let name = activity.stationary ? "stationary" : activity.walking ? "walking" : activity.running ? "running" : "unknown"
                self.lock.withLock { self.activities.append(name) }
            }
        }
    }

    func stop() {
        manager.stopStatusUpdates()
        manager.stopActivityUpdates()
    }
}
