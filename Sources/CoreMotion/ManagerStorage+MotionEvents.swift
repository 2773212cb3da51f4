import MotionEngine
import MotionFusion

extension ManagerStorage {
    /// Starts delivering `source`'s motion events to `handler` on `queue`, replacing event updates already
    /// running: each event, and nil with an `NSError` once per device fault.
    func startMotionEvents(on source: any MotionSource, queue: OperationQueue, handler: @escaping CMLinuxMotionEventHandler) {
        let call = QueuedItemCall(handler: handler, queue: queue)
        startMonitorUpdates(motionEvents, on: source) { update, session in
            if let fault = update.fault { call(nil, fault.nsError, unlessStopped: session) }
            for event in update.events { call(CMLinuxMotionEvent(event), nil, unlessStopped: session) }
        }
    }

    /// Starts delivering `source`'s motion-state changes to `handler` on `queue`, replacing state updates
    /// already running: the current states first (when the detectors already run), then each change.
    func startMotionStates(on source: any MotionSource, queue: OperationQueue, handler: @escaping CMLinuxMotionStateHandler) {
        let call = QueuedItemCall(handler: handler, queue: queue)
        startMonitorUpdates(motionStates, on: source) { update, session in
            if let fault = update.fault { call(nil, fault.nsError, unlessStopped: session) }
            for (time, state) in update.states {
                if let change = CMLinuxMotionStateChange(state, at: time) { call(change, nil, unlessStopped: session) }
            }
        } initial: { snapshot, session in
            guard let time = snapshot.lastSampleTime else { return }
            for case let change? in snapshot.states.map({ CMLinuxMotionStateChange($0, at: time) }) {
                call(change, nil, unlessStopped: session)
            }
        }
    }

    /// Listens to the detectors of `source` (an engine's own host, one made on first use for another
    /// source) in `slot`, replacing what listened there.
    private func startMonitorUpdates(
        _ slot: UpdateSlot<MonitorListener>, on source: any MotionSource,
        deliver: @escaping @Sendable (MotionDetectorHost.Update, UpdateSession) -> Void,
        initial: (MotionDetectorHost.Snapshot, UpdateSession) -> Void = { _, _ in }
    ) {
        slot.stop()
        let monitor = motionMonitor.withLock { monitor in
            if monitor == nil { monitor = (source as? MotionEngine)?.detectors ?? MotionDetectorHost(source: source) }
            return monitor!
        }
        let session = UpdateSession()
        guard let (token, snapshot) = monitor.addListenerWithSnapshot({ deliver($0, session) }) else { return }
        initial(snapshot, session)
        slot.install(session, MonitorListener(monitor: monitor, token: token))
    }
}

/// An app's `(item?, error?)` handler and its queue: each call runs there unless the updates were stopped.
///
/// `@unchecked Sendable`: the handler and the items (immutable framework objects) are handed to the queue,
/// which alone calls the handler, as Apple's framework does.
private struct QueuedItemCall<Item>: @unchecked Sendable {
    let handler: (Item?, (any Error)?) -> Void
    let queue: OperationQueue

    func callAsFunction(_ item: Item?, _ error: (any Error)?, unlessStopped session: UpdateSession) {
        QueuedCall { handler(item, error) }.enqueue(on: queue, unlessStopped: session)
    }
}
