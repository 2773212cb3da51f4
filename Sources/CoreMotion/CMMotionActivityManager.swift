import MotionEngine
import MotionFusion
import Synchronization

/// An object that manages access to the motion data: stationary, walking, running or unknown, from the
/// process's IMU (``MotionDetectorHost/shared``).
///
/// History for ``queryActivityStarting(from:to:to:withHandler:)`` is kept for 7 days from the time the
/// process first classified the activity (a board has no always-on coprocessor). Handlers run on the
/// `OperationQueue` given. Thread safety: every method may be called from any thread.
open class CMMotionActivityManager: NSObject {
    private let core = ActivityManagerCore()

    /// Creates a manager.
    public override init() {
        super.init()
    }

    deinit {
        core.stop()
    }

    /// Whether motion activity data is available on the device (it needs an accelerometer and a gyroscope).
    open class func isActivityAvailable() -> Bool { MotionDetectorHost.shared.isAvailable }

    /// The authorization status for motion data: always ``CMAuthorizationStatus/authorized`` on Linux.
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// Gathers the activities between two dates from the kept history, oldest first, the one that held at
    /// `start` included; delivers nil and ``CMErrorMotionActivityNotAvailable`` without a device, or
    /// ``CMErrorInvalidParameter`` when `end` is before `start`.
    open func queryActivityStarting(
        from start: Date, to end: Date, to queue: OperationQueue, withHandler handler: @escaping CMMotionActivityQueryHandler
    ) {
        core.query(from: start, to: end, queue: queue, handler: UncheckedBox(handler))
    }

    /// Starts delivering the activity to `queue`: the current one at once (when known), then each change
    /// of activity or confidence. Replaces updates already running.
    open func startActivityUpdates(to queue: OperationQueue, withHandler handler: @escaping CMMotionActivityHandler) {
        core.start(queue: queue, handler: UncheckedBox(handler))
    }

    /// Stops the updates; no handler call starts after it returns.
    open func stopActivityUpdates() { core.stop() }
}

/// What a ``CMMotionActivityManager`` (or a ``CMHeadphoneActivityManager``) does, in a `Sendable` object
/// the monitor's thread can reach.
final class ActivityManagerCore: Sendable {
    private let monitor: MotionDetectorHost
    private let running: UpdateSlot<MotionDetectorHost.ListenerToken>

    /// A core over `monitor`'s activity (the process's IMU by default).
    init(monitor: MotionDetectorHost = .shared) {
        self.monitor = monitor
        running = UpdateSlot { [monitor] in monitor.removeListener($0) }
    }

    /// Whether the monitor's device can classify activity.
    var isAvailable: Bool { monitor.isAvailable }

    /// Whether live updates run.
    var isRunning: Bool { running.isActive }

    func query(from start: Date, to end: Date, queue: OperationQueue, handler: UncheckedBox<CMMotionActivityQueryHandler>) {
        let result: UncheckedBox<[CMMotionActivity]?>
        let error: NSError?
        if !monitor.isAvailable {
            (result, error) = (UncheckedBox(nil), CMErrorMotionActivityNotAvailable.nsError("No motion device for activity"))
        } else if end < start {
            (result, error) = (UncheckedBox(nil), CMErrorInvalidParameter.nsError("The end date is before the start date"))
        } else {
            let last = BootClock.uptime(at: end)
            let activities = monitor.activities(since: BootClock.uptime(at: start)).filter { $0.since <= last }
            (result, error) = (UncheckedBox(activities.map(CMMotionActivity.init)), nil)
        }
        QueuedCall { handler.value(result.value, error) }.enqueue(on: queue, unlessStopped: UpdateSession())
    }

    func start(queue: OperationQueue, handler: UncheckedBox<CMMotionActivityHandler>) {
        start(queue: queue, deliver: UncheckedBox { handler.value($0) })
    }

    /// Starts delivering the current activity, then each change, to `deliver` on `queue`.
    func start(queue: OperationQueue, deliver handler: UncheckedBox<(CMMotionActivity) -> Void>) {
        stop()
        let session = UpdateSession()
        // The current activity is read with the listener's registration, so it is never newer than the
        // first change delivered after it.
        guard let (token, snapshot) = monitor.addListenerWithSnapshot({ update in
            for case (_, .activity(let estimate)) in update.states {
                let activity = UncheckedBox(CMMotionActivity(estimate))
                QueuedCall { handler.value(activity.value) }.enqueue(on: queue, unlessStopped: session)
            }
        }) else { return }
        if let current = snapshot.activity {
            let activity = UncheckedBox(CMMotionActivity(current))
            QueuedCall { handler.value(activity.value) }.enqueue(on: queue, unlessStopped: session)
        }
        running.install(session, token)
    }

    func stop() { running.stop() }
}
