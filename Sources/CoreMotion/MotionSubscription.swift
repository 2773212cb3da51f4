import Synchronization

/// One running service of one manager (``CMMotionManager`` or ``CMBatchedSensorManager``), as the
/// ``MotionHub`` sees it: what it wants, how often, and where its samples go.
final class MotionSubscription: Sendable {
    /// Where the hub hands a subscription's data and faults. Called on the device's queue (faults detected
    /// by the hub itself, a stall or a failed start, on the hub's supervision queue), never with a hub lock
    /// held; must return quickly.
    enum Sink: Sendable {
        /// Decimated: one due sample at a time (the ``interval`` is the update interval), or nil and an
        /// `NSError` in ``CMErrorDomain`` on a fault.
        case each(@Sendable (MotionSubscription, CMLogItem?, NSError?) -> Void)
        /// Batched: every sample, in order, in arrays (the ``interval`` is the batch interval; 0 = one batch
        /// per device delivery), or nil and an `NSError` on a fault.
        case batch(@Sendable (MotionSubscription, [CMLogItem]?, NSError?) -> Void)
    }

    /// The stream subscribed to.
    let service: MotionService
    /// Where samples, batches and faults go.
    let sink: Sink

    private let intervalBits: Atomic<UInt64>
    private let sampleIntervalBits = Atomic<UInt64>(0.0.bitPattern)
    private let cancelled = Atomic<Bool>(false)

    /// Creates a decimated subscription.
    /// - Parameters:
    ///   - service: the stream.
    ///   - interval: the update interval, s.
    ///   - deliver: the sink, see ``Sink/each(_:)``.
    convenience init(
        service: MotionService, interval: Double,
        deliver: @escaping @Sendable (MotionSubscription, CMLogItem?, NSError?) -> Void
    ) {
        self.init(service: service, interval: interval, sink: .each(deliver))
    }

    /// Creates a subscription.
    /// - Parameters:
    ///   - service: the stream.
    ///   - interval: the update interval (``Sink/each(_:)``) or batch interval (``Sink/batch(_:)``), s.
    ///   - sink: where data and faults go.
    init(service: MotionService, interval: Double, sink: Sink) {
        self.service = service
        self.sink = sink
        intervalBits = Atomic(interval.bitPattern)
    }

    /// Whether the subscription receives every sample in batches.
    var isBatched: Bool {
        if case .batch = sink { true } else { false }
    }

    /// The update or batch interval, s; may change while the subscription runs.
    var interval: Double {
        get { Double(bitPattern: intervalBits.load(ordering: .relaxed)) }
        set { intervalBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// Batched subscriptions only: the spacing of the samples put into batches, s; 0 takes every sample.
    /// Otherwise the hub takes one sample per interval, on the same schedule as a decimated
    /// subscription's updates. May change while the subscription runs.
    var sampleInterval: Double {
        get { Double(bitPattern: sampleIntervalBits.load(ordering: .relaxed)) }
        set { sampleIntervalBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// Whether the owner stopped the service; a handler operation already queued checks it and does
    /// nothing, so no handler runs after the stop method returned (except one already running).
    var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    /// Marks the subscription stopped.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Hands one sample to a decimated sink (a batched one receives it as a batch of one).
    func deliver(_ item: CMLogItem) {
        switch sink {
        case .each(let deliver): deliver(self, item, nil)
        case .batch(let deliver): deliver(self, [item], nil)
        }
    }

    /// Hands a batch to a batched sink (a decimated one receives its samples one by one).
    func deliver(batch: [CMLogItem]) {
        switch sink {
        case .each(let deliver): for item in batch { deliver(self, item, nil) }
        case .batch(let deliver): deliver(self, batch, nil)
        }
    }

    /// Hands an error in ``CMErrorDomain`` to the sink.
    func deliver(_ error: NSError) {
        switch sink {
        case .each(let deliver): deliver(self, nil, error)
        case .batch(let deliver): deliver(self, nil, error)
        }
    }
}
