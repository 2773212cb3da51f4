import MotionEngine
import Synchronization

/// Watches whether the headphones are connected: while it runs, a slow accelerometer subscription to the
/// headphones' source (the device runs for it) feeds a ``HeadphoneConnection``, and each change goes to
/// `onChange` on the device's thread.
final class HeadphoneConnectionMonitor: Sendable {
    /// The interval of the watching subscription, s: data only proves the headphones are there.
    static let interval = 0.5

    private let state = Mutex<State>(State())
    private let onChange: @Sendable (HeadphoneConnection.Change) -> Void

    private struct State {
        var subscription: MotionSubscription?
        var connection = HeadphoneConnection()
    }

    /// A monitor that reports changes to `onChange` (called on the device's thread, must return quickly).
    init(onChange: @escaping @Sendable (HeadphoneConnection.Change) -> Void) {
        self.onChange = onChange
    }

    /// Whether the monitor runs.
    var isRunning: Bool { state.withLock { $0.subscription != nil } }

    /// Whether the headphones are connected, as far as the monitor has seen.
    var isConnected: Bool { state.withLock { $0.connection.isConnected } }

    /// Starts watching `source` (nothing when already watching); headphones already there are reported
    /// as connected with their first sample.
    func start(on source: any MotionSource) {
        let subscription = MotionSubscription(service: .accelerometer, interval: Self.interval) { [weak self] subscription, sample, fault in
            self?.note(sample: sample != nil, fault: fault != nil, from: subscription)
        }
        let added = state.withLock { state -> Bool in
            guard state.subscription == nil else { return false }
            state.subscription = subscription
            state.connection.reset()
            return true
        }
        guard added else { return }
        if !source.subscribe(subscription) {
            state.withLock { if $0.subscription === subscription { $0.subscription = nil } }
        }
    }

    /// Stops watching `source`; no change is reported after it returns.
    func stop(on source: any MotionSource) {
        let running = state.withLock { state -> MotionSubscription? in
            defer { state.subscription = nil }
            return state.subscription
        }
        if let running { source.unsubscribe(running) }
    }

    private func note(sample: Bool, fault: Bool, from subscription: MotionSubscription) {
        let change = state.withLock { state -> HeadphoneConnection.Change? in
            guard state.subscription === subscription else { return nil }
            if fault { return state.connection.faulted() }
            return sample ? state.connection.sampleArrived() : nil
        }
        if let change { onChange(change) }
    }
}
