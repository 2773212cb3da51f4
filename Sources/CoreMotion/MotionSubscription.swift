import Synchronization

/// One running service of one ``CMMotionManager``, as the ``MotionHub`` sees it: what it wants, how often,
/// and where its samples go.
final class MotionSubscription: Sendable {
    /// The stream subscribed to.
    let service: MotionService
    /// Receives (with the subscription itself) every due sample (with a nil error) and every device fault
    /// (nil sample, an `NSError` in ``CMErrorDomain``). Called on the device's queue, never with a hub lock
    /// held; must return quickly.
    let deliver: @Sendable (MotionSubscription, CMLogItem?, NSError?) -> Void

    private let intervalBits: Atomic<UInt64>
    private let cancelled = Atomic<Bool>(false)

    /// Creates a subscription.
    /// - Parameters:
    ///   - service: the stream.
    ///   - interval: the update interval, s.
    ///   - deliver: the sink, see ``deliver``.
    init(
        service: MotionService, interval: Double,
        deliver: @escaping @Sendable (MotionSubscription, CMLogItem?, NSError?) -> Void
    ) {
        self.service = service
        self.deliver = deliver
        intervalBits = Atomic(interval.bitPattern)
    }

    /// The update interval, s; may change while the subscription runs.
    var interval: Double {
        get { Double(bitPattern: intervalBits.load(ordering: .relaxed)) }
        set { intervalBits.store(newValue.bitPattern, ordering: .relaxed) }
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
}
