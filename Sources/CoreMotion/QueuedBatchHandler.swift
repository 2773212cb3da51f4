import MotionEngine
import Dispatch
import MotionHAL

/// Carries a (non-`Sendable`) batch handler of ``CMBatchedSensorManager``, with the batch or error for one
/// call, to the manager's serial queue.
///
/// `@unchecked Sendable` for the same reason as ``QueuedHandler``: the handler is only ever invoked by a
/// block on the manager's serial queue, never on the thread that creates the box; the box is immutable and
/// the sample objects are immutable once made by the framework (``CMLogItem``).
struct QueuedBatchHandler<Sample: CMLogItem>: @unchecked Sendable {
    /// The caller's block.
    let handler: ([Sample]?, (any Error)?) -> Void

    /// Queues one call of the handler with `batch` (items of type `Sample`) and `error` on `queue`, unless
    /// `subscription` has been cancelled by the time the block runs.
    ///
    /// When the caller already runs on the delivery queue that `queue` targets (a device delivering on
    /// ``IMUDeliveryQueue``), the call is made at once: it is serial with every other block of `queue`
    /// either way, and queuing it would only wake another thread to run it.
    func enqueue(on queue: DispatchQueue, batch: [Sample]?, error: NSError?, subscription: MotionSubscription) {
        if IMUDeliveryQueue.isCurrent {
            if !subscription.isCancelled { handler(batch, error) }
            return
        }
        let call = Call(handler: handler, batch: batch, error: error)
        queue.async {
            guard !subscription.isCancelled else { return }
            call.handler(call.batch, call.error)
        }
    }

    /// One pending call (same justification as ``QueuedBatchHandler``).
    private struct Call: @unchecked Sendable {
        let handler: ([Sample]?, (any Error)?) -> Void
        let batch: [Sample]?
        let error: NSError?
    }
}

/// A batch of samples handed through an `AsyncThrowingStream` (same justification as ``QueuedBatchHandler``:
/// the samples are immutable framework objects, and each batch has one consumer).
struct SampleBatch<Sample: CMLogItem>: @unchecked Sendable {
    /// The samples, oldest first.
    let samples: [Sample]
}
