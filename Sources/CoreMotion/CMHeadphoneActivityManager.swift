import MotionEngine
import Synchronization

/// The handler of ``CMHeadphoneActivityManager/startActivityUpdates(to:withHandler:)``.
public typealias CMHeadphoneActivityHandler = (CMMotionActivity?, (any Error)?) -> Void
/// The handler of ``CMHeadphoneActivityManager/startStatusUpdates(to:withHandler:)``.
public typealias CMHeadphoneActivityStatusHandler = (CMHeadphoneActivityManager.Status, (any Error)?) -> Void

/// The wearer's activity (stationary, walking, running) told from the headphones' motion rather than the
/// board's (Apple's `CMHeadphoneActivityManager`, iOS 18), and whether the headphones are connected. On a
/// board the headphones are the process's second IMU (``CMHeadphoneMotionManager`` says how to choose it);
/// the activity comes from the same detectors as ``CMMotionActivityManager``'s, run on that IMU. Thread
/// safety: every method may be called from any thread; handlers run on the queue given.
open class CMHeadphoneActivityManager: NSObject {
    /// Whether the headphones are connected.
    public enum Status: Int, Sendable {
        /// The headphones disconnected.
        case disconnected = 0
        /// A compatible set of headphones is connected.
        case connected = 1
    }

    /// The handler type of ``startActivityUpdates(to:withHandler:)``.
    public typealias ActivityHandler = CMHeadphoneActivityHandler
    /// The handler type of ``startStatusUpdates(to:withHandler:)``.
    public typealias StatusHandler = CMHeadphoneActivityStatusHandler

    private let activity = ActivityManagerCore(monitor: HeadphoneDevice.engine.detectors)
    private let status = StatusCore()

    /// Creates a manager of the process's headphones.
    public override init() {
        super.init()
    }

    deinit {
        activity.stop()
        status.stop()
    }

    /// The authorization status: always ``CMAuthorizationStatus/authorized`` on Linux (there is no prompt).
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// Whether activity can be told from the headphones (they have an accelerometer and a gyroscope).
    open var isActivityAvailable: Bool { activity.isAvailable }
    /// Whether activity updates run.
    open var isActivityActive: Bool { activity.isRunning }
    /// Whether connection status can be reported (the process has headphones).
    open var isStatusAvailable: Bool { HeadphoneDevice.engine.hasSensors(for: .accelerometer) }
    /// Whether status updates run.
    open var isStatusActive: Bool { status.isRunning }

    /// Starts delivering the wearer's activity to `queue`: the current one at once (when known), then
    /// each change.
    open func startActivityUpdates(to queue: OperationQueue, withHandler handler: @escaping CMHeadphoneActivityHandler) {
        activity.start(queue: queue, deliver: UncheckedBox { handler($0, nil) })
    }

    /// Stops the activity updates; no handler call starts after it returns.
    open func stopActivityUpdates() { activity.stop() }

    /// Starts delivering the connection status to `queue`: ``Status/connected`` at once when the headphones
    /// are already connected (with their first sample), then each change.
    open func startStatusUpdates(to queue: OperationQueue, withHandler handler: @escaping CMHeadphoneActivityStatusHandler) {
        status.start(queue: queue, handler: UncheckedBox(handler))
    }

    /// Stops the status updates; no handler call starts after it returns.
    open func stopStatusUpdates() { status.stop() }

    /// The status updates: a connection monitor on the headphones whose changes are queued to the handler.
    /// Starts and stops run one at a time (`lifecycle`, never taken by the device's callbacks).
    private final class StatusCore: Sendable {
        private let running = Mutex<(monitor: HeadphoneConnectionMonitor, session: UpdateSession)?>(nil)
        private let lifecycle = Mutex(())

        var isRunning: Bool { running.withLock { $0 != nil } }

        func start(queue: OperationQueue, handler: UncheckedBox<CMHeadphoneActivityStatusHandler>) {
            lifecycle.withLock { _ in
                end()
                let session = UpdateSession()
                let monitor = HeadphoneConnectionMonitor(interval: HeadphoneMotionCore.defaultInterval) { change in
                    let status: Status = change == .connected ? .connected : .disconnected
                    QueuedCall { handler.value(status, nil) }.enqueue(on: queue, unlessStopped: session)
                }
                running.withLock { $0 = (monitor, session) }
                monitor.start(on: HeadphoneDevice.engine)
            }
        }

        func stop() {
            lifecycle.withLock { _ in end() }
        }

        private func end() {
            guard let current = running.withLock({ value in defer { value = nil }; return value }) else { return }
            current.session.stop()
            current.monitor.stop(on: HeadphoneDevice.engine)
        }
    }
}
