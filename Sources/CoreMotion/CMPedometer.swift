import MotionEngine
import MotionFusion
import Synchronization

/// An object for fetching the system-generated live walking data: steps, distance, cadence and pace, and
/// floors when the board has a barometer, from the process's IMU (``MotionDetectorHost/shared``).
///
/// History for ``queryPedometerData(from:to:withHandler:)`` is kept (for 7 days) from the time the process
/// first counted steps: a board has no always-on coprocessor, so steps taken while nothing listened are not
/// known (the agent's `steps` service keeps them counted on a board that runs it). Handlers run on a serial
/// queue of the pedometer's own, as on iOS. Thread safety: every method may be called from any thread.
open class CMPedometer: NSObject {
    private let core = PedometerCore()

    /// Creates a pedometer.
    public override init() {
        super.init()
    }

    deinit {
        core.stopUpdates()
        core.stopEventUpdates()
    }

    // MARK: - Availability

    /// Whether step counting is available on the device (it needs an accelerometer and a gyroscope).
    open class func isStepCountingAvailable() -> Bool { MotionDetectorHost.shared.isAvailable }
    /// Whether distance estimation is available on the device.
    open class func isDistanceAvailable() -> Bool { MotionDetectorHost.shared.isAvailable }
    /// Whether floor counting is available on the device (it needs a barometer, `MOTION_BAROMETER`).
    open class func isFloorCountingAvailable() -> Bool { PedometerCore.floorCounting }
    /// Whether pace information is available on the device.
    open class func isPaceAvailable() -> Bool { MotionDetectorHost.shared.isAvailable }
    /// Whether cadence information is available on the device.
    open class func isCadenceAvailable() -> Bool { MotionDetectorHost.shared.isAvailable }
    /// Whether pedometer events (pause and resume) are available on the device.
    open class func isPedometerEventTrackingAvailable() -> Bool { MotionDetectorHost.shared.isAvailable }
    /// The authorization status for motion data: always ``CMAuthorizationStatus/authorized`` on Linux.
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    // MARK: - Queries

    /// Retrieves the pedometer data between two dates from the kept history; delivers `nil` and an error
    /// (``CMErrorMotionActivityNotAvailable``) without a device, or ``CMErrorInvalidParameter`` when `end` is
    /// before `start`.
    open func queryPedometerData(from start: Date, to end: Date, withHandler handler: @escaping CMPedometerHandler) {
        core.query(from: start, to: end, handler: UncheckedBox(handler))
    }

    // MARK: - Live updates

    /// Starts delivering the cumulative pedometer data from `start` (which may be in the past: the kept
    /// history counts) to now: at once, then whenever steps were counted, at most once a second. Replaces
    /// updates already running.
    open func startUpdates(from start: Date, withHandler handler: @escaping CMPedometerHandler) {
        core.startUpdates(from: start, handler: UncheckedBox(handler))
    }

    /// Stops the updates; no handler call starts after it returns.
    open func stopUpdates() { core.stopUpdates() }

    /// Starts delivering pause and resume events: resume when the user starts walking or running, pause when
    /// they stop (``MotionActivityClassifier``'s walking and running).
    open func startEventUpdates(handler: @escaping CMPedometerEventHandler) {
        core.startEventUpdates(handler: UncheckedBox(handler))
    }

    /// Stops the event updates.
    open func stopEventUpdates() { core.stopEventUpdates() }
}

/// A value that is not `Sendable` carried across threads under a contract the caller keeps: Apple's
/// handler blocks, which CoreMotion only ever calls on the queue the API names.
struct UncheckedBox<Value>: @unchecked Sendable {
    /// The value.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// What a ``CMPedometer`` does, in a `Sendable` object the monitor's thread can reach.
final class PedometerCore: Sendable {
    private struct State {
        var lastDelivery = -Double.infinity
        var pendingDelivery = false
    }

    /// What a live run holds: its step listener and the barometer's, while floors are counted.
    private struct Listeners: Sendable {
        var steps: MotionDetectorHost.ListenerToken
        var floors: MotionAltimeter.ListenerToken?
    }

    private let monitor = MotionDetectorHost.shared
    private let altimeter = MotionAltimeter.shared
    private let updates = UpdateSlot<Listeners> { listeners in
        MotionDetectorHost.shared.removeListener(listeners.steps)
        if let floors = listeners.floors { MotionAltimeter.shared.removeListener(floors) }
    }
    private let events = UpdateSlot<MotionDetectorHost.ListenerToken> { MotionDetectorHost.shared.removeListener($0) }
    private let state = Mutex(State())
    private let handlerQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "CoreMotion.CMPedometer"
        return queue
    }()

    /// Whether floors are counted: a barometer and an IMU.
    static var floorCounting: Bool { MotionAltimeter.shared.isAvailable && MotionDetectorHost.shared.isAvailable }

    func query(from start: Date, to end: Date, handler: UncheckedBox<CMPedometerHandler>) {
        let data: CMPedometerData?
        let error: NSError?
        if !monitor.isAvailable {
            (data, error) = (nil, CMErrorMotionActivityNotAvailable.nsError("No motion device for the pedometer"))
        } else if end < start {
            (data, error) = (nil, CMErrorInvalidParameter.nsError("The end date is before the start date"))
        } else {
            (data, error) = (self.data(from: start, to: end, live: false), nil)
        }
        let result = UncheckedBox(data)
        QueuedCall { handler.value(result.value, error) }.enqueue(on: handlerQueue, unlessStopped: UpdateSession())
    }

    func startUpdates(from start: Date, handler: UncheckedBox<CMPedometerHandler>) {
        stopUpdates()
        let session = UpdateSession()
        guard monitor.isAvailable,
            let token = monitor.addListener({ [weak self] update in
                guard let self, update.newSteps > 0 || update.fault != nil else { return }
                self.deliverUpdate(from: start, fault: update.fault, session: session, handler: handler)
            })
        else {
            let error = CMErrorMotionActivityNotAvailable.nsError("No motion device for the pedometer")
            QueuedCall { handler.value(nil, error) }.enqueue(on: handlerQueue, unlessStopped: session)
            return
        }
        // The barometer runs while floors are counted.
        updates.install(session, Listeners(steps: token, floors: altimeter.addListener { _ in }))
        deliverUpdate(from: start, fault: nil, session: session, handler: handler, force: true)
    }

    func stopUpdates() { updates.stop() }

    func startEventUpdates(handler: UncheckedBox<CMPedometerEventHandler>) {
        stopEventUpdates()
        let session = UpdateSession()
        let queue = handlerQueue
        // Only changes between stepping and not are events (the first estimate, standing, is none).
        let wasStepping = Mutex(false)
        let token = monitor.addListener { update in
            for (time, state) in update.states {
                guard case .activity(let estimate) = state else { continue }
                let stepping = estimate.activity == .walking || estimate.activity == .running
                guard wasStepping.withLock({ previous in defer { previous = stepping }; return previous != stepping }) else { continue }
                let event = UncheckedBox(CMPedometerEvent(date: BootClock.date(atUptime: time), type: stepping ? .resume : .pause))
                QueuedCall { handler.value(event.value, nil) }.enqueue(on: queue, unlessStopped: session)
            }
        }
        guard let token else {
            let error = CMErrorMotionActivityNotAvailable.nsError("No motion device for pedometer events")
            QueuedCall { handler.value(nil, error) }.enqueue(on: queue, unlessStopped: session)
            return
        }
        events.install(session, token)
    }

    func stopEventUpdates() { events.stop() }

    private func deliverUpdate(
        from start: Date, fault: MotionEngineFault?, session: UpdateSession, handler: UncheckedBox<CMPedometerHandler>, force: Bool = false
    ) {
        if let fault {
            let error = fault.nsError
            QueuedCall { handler.value(nil, error) }.enqueue(on: handlerQueue, unlessStopped: session)
            return
        }
        // At most one update a second; steps counted in between reach the next one, which is scheduled.
        let now = BootClock.uptime
        let wait = state.withLock { state -> Double? in
            let wait = force ? 0 : state.lastDelivery + 1 - now
            guard wait <= 0 else {
                if state.pendingDelivery { return nil }
                state.pendingDelivery = true
                return wait
            }
            state.lastDelivery = now
            state.pendingDelivery = false
            return 0
        }
        guard let wait else { return }
        guard wait <= 0 else {
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [weak self] in
                guard !session.isStopped else { return }
                // Forced: the scheduled update is the one that clears the pending flag, however early it fires.
                self?.deliverUpdate(from: start, fault: nil, session: session, handler: handler, force: true)
            }
            return
        }
        // Through the last sample (a replay's may lie ahead of the clock).
        let last = monitor.lastSampleTime.map(BootClock.date(atUptime:)) ?? Date()
        let data = UncheckedBox(self.data(from: start, to: max(Date(), last), live: true))
        QueuedCall { handler.value(data.value, nil) }.enqueue(on: handlerQueue, unlessStopped: session)
    }

    private func data(from start: Date, to end: Date, live: Bool) -> CMPedometerData {
        let totals = monitor.pedometerTotals(from: BootClock.uptime(at: start), to: BootClock.uptime(at: end))
        let cadence = live ? monitor.cadence : nil
        let pace = cadence.map(StrideLength.pace(cadence:))
        return CMPedometerData(CMPedometerData.Values(
            startDate: start, endDate: end, totals: totals, floorCounting: Self.floorCounting,
            currentCadence: cadence, currentPace: pace))
    }
}
