import MotionEngine
import Synchronization

/// Watches whether the headphones are connected: while it runs, a subscription to the headphones' device
/// motion (the stream a head tracker reads, so a remote board is asked for nothing else) feeds a
/// ``HeadphoneConnection``, and each change goes to `onChange` on the device's thread.
final class HeadphoneConnectionMonitor: Sendable {
    /// The stream watched.
    static let stream = MotionStream.deviceMotion(.xArbitraryZVertical)

    private let state = Mutex<State>(State())
    private let interval: Double
    private let onChange: @Sendable (HeadphoneConnection.Change) -> Void
    /// Starting and stopping, one at a time (never taken by the device's callbacks).
    private let lifecycle = Mutex(())

    private struct State {
        var subscription: MotionSubscription?
        var connection = HeadphoneConnection()
    }

    /// A monitor that subscribes every `interval` seconds and reports changes to `onChange` (called on the
    /// device's thread, must return quickly).
    init(interval: Double, onChange: @escaping @Sendable (HeadphoneConnection.Change) -> Void) {
        self.interval = interval
        self.onChange = onChange
    }

    /// Whether the monitor runs.
    var isRunning: Bool { state.withLock { $0.subscription != nil } }

    /// Whether the headphones are connected, as far as the monitor has seen.
    var isConnected: Bool { state.withLock { $0.connection.isConnected } }

    /// Starts watching `source` (nothing when already watching); headphones already there are reported
    /// as connected with their first sample.
    func start(on source: any MotionSource) {
        lifecycle.withLock { _ in
            guard state.withLock({ $0.subscription == nil }) else { return }
            let subscription = MotionSubscription(service: Self.stream, interval: interval) { [weak self] subscription, sample, fault in
                self?.note(sample: sample != nil, fault: fault != nil, from: subscription)
            }
            state.withLock { state in
                state.subscription = subscription
                state.connection.reset()
            }
            if !source.subscribe(subscription) {
                state.withLock { $0.subscription = nil }
            }
        }
    }

    /// Stops watching `source`; no change is noted after it returns.
    func stop(on source: any MotionSource) {
        lifecycle.withLock { _ in
            let running = state.withLock { state -> MotionSubscription? in
                defer { state.subscription = nil }
                return state.subscription
            }
            if let running { source.unsubscribe(running) }
        }
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
