import MotionEngine
/// Carries one of Apple's (non-`Sendable`) handler blocks, with the sample or error for one call, to the
/// `OperationQueue` the caller chose.
///
/// `@unchecked Sendable` is justified by Apple's contract for these APIs, which this type implements: the
/// handler is only ever invoked by an operation on the queue passed to the start method, never on the
/// device's thread that creates the box. The box is immutable, and the sample classes it carries are
/// themselves thread-safe (``CMLogItem``). A handler written in a `@MainActor` context and started with
/// `to: .main` therefore runs on the main queue, as on iOS.
struct QueuedHandler<Sample: CMLogItem>: @unchecked Sendable {
    /// The caller's block.
    let handler: (Sample?, (any Error)?) -> Void

    /// Queues one call of the handler with `sample` and `error` on `queue`, unless `subscription` has been
    /// cancelled by the time the operation runs.
    func enqueue(on queue: OperationQueue, sample: CMLogItem?, error: NSError?, subscription: MotionSubscription) {
        let call = Call(handler: handler, sample: sample as? Sample, error: error)
        queue.addOperation {
            guard !subscription.isCancelled else { return }
            call.handler(call.sample, call.error)
        }
    }

    /// One pending call (same justification as ``QueuedHandler``).
    private struct Call: @unchecked Sendable {
        let handler: (Sample?, (any Error)?) -> Void
        let sample: Sample?
        let error: NSError?
    }
}
