import MotionEngine
import MotionFusion

/// The board's motion detectors on Apple's manager (Linux additions): events (free fall, impact, tap,
/// double tap, shake) and state changes (moving, orientation, tilt, vibration) from the manager's source at
/// its full rate (``MotionActivityMonitor``), each delivered to an `OperationQueue` like the other services.
extension CMMotionManager {
    /// Whether motion events can be delivered (the source has an accelerometer and a gyroscope).
    public var linuxIsMotionEventAvailable: Bool { source.hasSensors(for: .deviceMotion(.xArbitraryZVertical)) }

    /// Starts delivering motion events to `queue`. A device fault reaches the handler as nil and an error.
    /// Replaces event updates already running; does nothing without a device.
    public func linuxStartMotionEventUpdates(to queue: OperationQueue, withHandler handler: @escaping CMLinuxMotionEventHandler) {
        let box = UncheckedBox(handler)
        startMotionUpdates(storage.motionEvents, queue: queue) { update, session in
            if let fault = update.fault {
                let error = fault.nsError
                QueuedCall { box.value(nil, error) }.enqueue(on: queue, unlessStopped: session)
            }
            for event in update.events {
                let item = UncheckedBox(CMLinuxMotionEvent(event))
                QueuedCall { box.value(item.value, nil) }.enqueue(on: queue, unlessStopped: session)
            }
        }
    }

    /// Stops the motion events; no handler call starts after it returns.
    public func linuxStopMotionEventUpdates() { storage.motionEvents.stop() }

    /// Starts delivering changes of the motion states to `queue`: the current ones first (when the detectors
    /// already run for another client), then moving, orientation, tilt and vibration as each changes. Replaces state updates already running; does nothing without a device.
    public func linuxStartMotionStateUpdates(to queue: OperationQueue, withHandler handler: @escaping CMLinuxMotionStateHandler) {
        let box = UncheckedBox(handler)
        startMotionUpdates(storage.motionStates, queue: queue) { update, session in
            if let fault = update.fault {
                let error = fault.nsError
                QueuedCall { box.value(nil, error) }.enqueue(on: queue, unlessStopped: session)
            }
            for (time, state) in update.states {
                guard let change = CMLinuxMotionStateChange(state, at: time) else { continue }
                let item = UncheckedBox(change)
                QueuedCall { box.value(item.value, nil) }.enqueue(on: queue, unlessStopped: session)
            }
        } initial: { snapshot, session in
            // The states as they are, first (when the monitor already runs).
            guard let time = snapshot.lastSampleTime else { return }
            for case let change? in snapshot.states.map({ CMLinuxMotionStateChange($0, at: time) }) {
                let item = UncheckedBox(change)
                QueuedCall { box.value(item.value, nil) }.enqueue(on: queue, unlessStopped: session)
            }
        }
    }

    /// Stops the motion-state changes.
    public func linuxStopMotionStateUpdates() { storage.motionStates.stop() }

    private func startMotionUpdates(
        _ slot: UpdateSlot<ManagerStorage.MonitorListener>, queue: OperationQueue,
        deliver: @escaping @Sendable (MotionActivityMonitor.Update, UpdateSession) -> Void,
        initial: (MotionActivityMonitor.Snapshot, UpdateSession) -> Void = { _, _ in }
    ) {
        slot.stop()
        let source = self.source
        let monitor = storage.motionMonitor.withLock { monitor in
            if monitor == nil { monitor = source === MotionEngine.shared ? .shared : MotionActivityMonitor(source: source) }
            return monitor!
        }
        let session = UpdateSession()
        guard let (token, snapshot) = monitor.addListenerWithSnapshot({ deliver($0, session) }) else { return }
        initial(snapshot, session)
        slot.install(session, ManagerStorage.MonitorListener(monitor: monitor, token: token))
    }
}
