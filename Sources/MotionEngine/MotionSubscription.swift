import Synchronization

/// One running stream of one client of the ``MotionEngine`` (a CoreMotion manager's service, an agent's
/// topic): what it wants, how often, and where its samples go. Thread-safe; the intervals may change while
/// it runs.
public final class MotionSubscription: Sendable {
    /// Where the engine hands a subscription's data and faults. Called on the device's queue (faults detected
    /// by the engine itself, a stall or a failed start, on its supervision queue), never with an engine lock
    /// held; must return quickly.
    public enum Sink: Sendable {
        /// Decimated: one due sample at a time (the ``interval`` is the update interval), or nil and a
        /// ``MotionEngineFault`` on a fault.
        case each(@Sendable (MotionSubscription, MotionSample?, MotionEngineFault?) -> Void)
        /// Batched: every sample, in order, in arrays (the ``interval`` is the batch interval; 0 = one batch
        /// per device delivery), or nil and a ``MotionEngineFault`` on a fault.
        case batch(@Sendable (MotionSubscription, [MotionSample]?, MotionEngineFault?) -> Void)
    }

    /// The stream subscribed to.
    public let service: MotionStream
    /// Where samples, batches and faults go.
    public let sink: Sink

    private let intervalBits: Atomic<UInt64>
    private let sampleIntervalBits = Atomic<UInt64>(0.0.bitPattern)
    private let cancelled = Atomic<Bool>(false)

    /// Creates a decimated subscription.
    /// - Parameters:
    ///   - service: the stream.
    ///   - interval: the update interval, s.
    ///   - deliver: the sink, see ``Sink/each(_:)``.
    public convenience init(
        service: MotionStream, interval: Double,
        deliver: @escaping @Sendable (MotionSubscription, MotionSample?, MotionEngineFault?) -> Void
    ) {
        self.init(service: service, interval: interval, sink: .each(deliver))
    }

    /// Creates a subscription.
    /// - Parameters:
    ///   - service: the stream.
    ///   - interval: the update interval (``Sink/each(_:)``) or batch interval (``Sink/batch(_:)``), s.
    ///   - sink: where data and faults go.
    public init(service: MotionStream, interval: Double, sink: Sink) {
        self.service = service
        self.sink = sink
        intervalBits = Atomic(interval.bitPattern)
    }

    /// Whether the subscription receives every sample in batches.
    public var isBatched: Bool {
        if case .batch = sink { true } else { false }
    }

    /// The update or batch interval, s; may change while the subscription runs.
    public var interval: Double {
        get { Double(bitPattern: intervalBits.load(ordering: .relaxed)) }
        set { intervalBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// Batched subscriptions only: the spacing of the samples put into batches, s; 0 takes every sample.
    /// Otherwise the engine takes one sample per interval, on the same schedule as a decimated
    /// subscription's updates. May change while the subscription runs.
    public var sampleInterval: Double {
        get { Double(bitPattern: sampleIntervalBits.load(ordering: .relaxed)) }
        set { sampleIntervalBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// Whether the owner stopped the service; a handler operation already queued checks it and does
    /// nothing, so no handler runs after the stop method returned (except one already running).
    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    /// Marks the subscription stopped.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Hands one sample to a decimated sink (a batched one receives it as a batch of one). For a
    /// ``MotionSource``: on its delivery thread, never with a lock of its own held.
    public func deliver(_ item: MotionSample) {
        switch sink {
        case .each(let deliver): deliver(self, item, nil)
        case .batch(let deliver): deliver(self, [item], nil)
        }
    }

    /// Hands a batch to a batched sink (a decimated one receives its samples one by one).
    public func deliver(batch: [MotionSample]) {
        switch sink {
        case .each(let deliver): for item in batch { deliver(self, item, nil) }
        case .batch(let deliver): deliver(self, batch, nil)
        }
    }

    /// Hands a fault to the sink.
    public func deliver(_ error: MotionEngineFault) {
        switch sink {
        case .each(let deliver): deliver(self, nil, error)
        case .batch(let deliver): deliver(self, nil, error)
        }
    }
}
