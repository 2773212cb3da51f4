import MotionEngine
import Dispatch
import MotionHAL
import Synchronization

/// A ``CMBatchedSensorManager``'s services: their state behind a mutex, the serial queue their handlers run
/// on, and how they subscribe to the shared MotionEngine. Reachable from deliveries on the device's thread
/// without retaining the manager.
final class BatchedManagerStorage: Sendable {
    /// The state.
    let state = Mutex(State())
    /// The serial queue every handler of the manager runs on; it shares the device's delivery queue, so a
    /// batch reaches the handler without waking another thread.
    let queue = DispatchQueue(label: "CoreMotion.CMBatchedSensorManager", target: IMUDeliveryQueue.root)

    /// Which service of the manager.
    enum Slot: Hashable, Sendable {
        case accelerometer, gyro, magnetometer, deviceMotion
    }

    /// One running service: its hub subscription and, for an async sequence, how to end it.
    struct ActiveService: Sendable {
        let subscription: MotionSubscription
        /// Finishes the async sequence fed by the service (nil for handlers and pull mode).
        let finish: (@Sendable () -> Void)?
    }

    /// Everything a batched manager holds; see the public properties.
    struct State {
        var batchInterval: TimeInterval = CMBatchedSensorManager.defaultBatchInterval
        /// ``CMBatchedSensorManager/linuxSampleInterval``.
        var sampleInterval: TimeInterval = 0
        var services: [Slot: ActiveService] = [:]
        /// The latest batch of each slot (items of the slot's sample class).
        var latestBatches: [Slot: LatestBatch] = [:]
    }

    /// The latest batch of one slot, as the manager keeps it for pull mode (same justification as
    /// ``LatestSample``).
    struct LatestBatch: @unchecked Sendable {
        let items: [CMLogItem]
    }

    /// Starts `service` in `slot`, replacing what ran there. Returns nil (and starts nothing) when the
    /// device lacks the service.
    @discardableResult
    func start<Sample: CMLogItem>(
        _ service: MotionStream, slot: Slot, handler: QueuedBatchHandler<Sample>?,
        finish: (@Sendable () -> Void)? = nil
    ) -> MotionSubscription? {
        let subscription = makeSubscription(service, slot: slot, handler: handler)
        let previous = state.withLock { state in
            state.services.updateValue(ActiveService(subscription: subscription, finish: finish), forKey: slot)
        }
        // Engine calls happen outside the manager's lock: stopping the device waits for a delivery in
        // progress, and deliveries take that lock.
        if let previous { Self.end(previous) }
        guard MotionEngine.shared.subscribe(subscription) else {
            state.withLock { state in
                if state.services[slot]?.subscription === subscription { state.services[slot] = nil }
            }
            return nil
        }
        return subscription
    }

    private func makeSubscription<Sample: CMLogItem>(
        _ service: MotionStream, slot: Slot, handler: QueuedBatchHandler<Sample>?
    ) -> MotionSubscription {
        let (interval, sampleInterval) = state.withLock { ($0.batchInterval, $0.sampleInterval) }
        let subscription = MotionSubscription(
            service: service, interval: interval,
            sink: .batch { [weak self] subscription, samples, fault in
                guard let storage = self else { return }
                let items = samples.map { samples in samples.map { makeLogItem($0, of: service) } }
                let error = fault?.nsError
                if let items {
                    storage.state.withLock { state in
                        if state.services[slot]?.subscription === subscription {
                            state.latestBatches[slot] = LatestBatch(items: items)
                        }
                    }
                }
                // The samples of a stream are made of its class only, so the casts cannot fail.
                let batch = items.map { items in items.map { unsafeDowncast($0, to: Sample.self) } }
                handler?.enqueue(on: storage.queue, batch: batch, error: error, subscription: subscription)
            })
        subscription.sampleInterval = sampleInterval
        return subscription
    }

    /// Stops the service of `slot` (if `subscription` is given: only if it is still that one).
    func stop(_ slot: Slot, ifStill subscription: MotionSubscription? = nil) {
        let previous = state.withLock { state -> ActiveService? in
            guard let active = state.services[slot] else { return nil }
            if let subscription, active.subscription !== subscription { return nil }
            state.services[slot] = nil
            return active
        }
        if let previous { Self.end(previous) }
    }

    /// Unsubscribes a replaced or stopped service and ends its async sequence.
    static func end(_ service: ActiveService) {
        MotionEngine.shared.unsubscribe(service.subscription)
        service.finish?()
    }

    /// Starts `service` in `slot` feeding a new async sequence: batches are yielded in order; stopping the
    /// service finishes the sequence; a fault finishes it by throwing (and stops the service); ending the
    /// iteration (or its task being cancelled) stops the service.
    /// - Returns: the batches, and what stops the service (for the sequence's iterator: ``UpdateLease``).
    func makeUpdateStream<Sample: CMLogItem>(_ service: MotionStream, slot: Slot) -> UpdateStream<Sample> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: SampleBatch<Sample>.self, throwing: (any Error).self)
        let handler = QueuedBatchHandler<Sample> { batch, error in
            if let batch {
                continuation.yield(SampleBatch(samples: batch))
            } else if let error {
                continuation.finish(throwing: error)
            }
        }
        guard let subscription = start(service, slot: slot, handler: handler, finish: { continuation.finish() })
        else {
            continuation.finish(
                throwing: CMErrorNotAvailable.nsError("This motion service is not available on this device."))
            return UpdateStream(batches: stream, stop: {})
        }
        let stopService: @Sendable () -> Void = { [weak self] in self?.stop(slot, ifStill: subscription) }
        continuation.onTermination = { _ in stopService() }
        return UpdateStream(batches: stream, stop: stopService)
    }

    /// The latest batch of `slot`, as `Sample`s.
    func latestBatch<Sample: CMLogItem>(_ slot: Slot, as type: Sample.Type) -> [Sample]? {
        state.withLock { $0.latestBatches[slot] }?.items.map { unsafeDowncast($0, to: Sample.self) }
    }
}

/// What ``BatchedManagerStorage/makeUpdateStream(_:slot:)`` returns: the batches of an async sequence, and
/// what stops its service (idempotent).
struct UpdateStream<Sample: CMLogItem> {
    let batches: AsyncThrowingStream<SampleBatch<Sample>, any Error>
    let stop: @Sendable () -> Void
}

/// Stops the updates of an async sequence once the last copy of its iterator is gone. Leaving a `for try
/// await` loop (by `break`, `return`, a thrown error or the end of its task) releases the iterator, while the
/// sequence value itself may live on to the end of the caller's scope, and with it the stream, whose own
/// termination would come only then. Stopping is idempotent (``BatchedManagerStorage/stop(_:ifStill:)``
/// stops only the subscription that fed the sequence).
final class UpdateLease: Sendable {
    private let stop: @Sendable () -> Void

    /// A lease that calls `stop` when released (on the thread that releases the last reference).
    init(_ stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }

    deinit {
        stop()
    }
}
