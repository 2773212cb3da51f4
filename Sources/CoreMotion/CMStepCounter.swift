import Synchronization

/// The handler of ``CMStepCounter/queryStepCountStarting(from:to:to:withHandler:)``: the steps and the error.
public typealias CMStepQueryHandler = (Int, (any Error)?) -> Void
/// The handler of ``CMStepCounter/startStepCountingUpdates(to:updateOn:withHandler:)``: the steps counted
/// since the updates started, when, and the error.
public typealias CMStepUpdateHandler = (Int, Date, (any Error)?) -> Void

/// Apple's step counter of iOS 7, deprecated since iOS 8 in favour of ``CMPedometer``; on Linux it is a thin
/// layer over a pedometer, so old code counts steps as it did. Thread safety: every method may be called
/// from any thread; handlers run on the queue given.
@available(*, deprecated, message: "Use CMPedometer instead")
open class CMStepCounter: NSObject {
    private let pedometer = CMPedometer()
    private let session = Mutex<UpdateSession?>(nil)

    /// Creates a step counter.
    public override init() {
        super.init()
    }

    deinit {
        stopStepCountingUpdates()
    }

    /// Whether step counting is available (``CMPedometer/isStepCountingAvailable()``).
    open class func isStepCountingAvailable() -> Bool { CMPedometer.isStepCountingAvailable() }

    /// Counts the steps between two dates from the pedometer's history and hands the count to `handler`
    /// on `queue` (0 and the pedometer's error when it cannot tell).
    open func queryStepCountStarting(from start: Date, to end: Date, to queue: OperationQueue, withHandler handler: @escaping CMStepQueryHandler) {
        let call = UncheckedBox(handler)
        pedometer.queryPedometerData(from: start, to: end) { data, error in
            let steps = data?.numberOfSteps.intValue ?? 0
            queue.addOperation { call.value(steps, error) }
        }
    }

    /// The steps between two dates (Swift's form of the query).
    /// - Throws: the pedometer's error when it cannot tell.
    open func queryStepCountStarting(from start: Date, to end: Date, to queue: OperationQueue) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            pedometer.queryPedometerData(from: start, to: end) { data, error in
                continuation.resume(with: handlerResult(data?.numberOfSteps.intValue, error))
            }
        }
    }

    /// Starts counting steps from now and calls `handler` on `queue` each time another `stepCounts` steps
    /// have been taken (at least 1), with the total since the start and its time. Replaces updates already
    /// running.
    open func startStepCountingUpdates(
        to queue: OperationQueue, updateOn stepCounts: Int, withHandler handler: @escaping CMStepUpdateHandler
    ) {
        stopStepCountingUpdates()
        let current = UpdateSession()
        session.withLock { $0 = current }
        let threshold = StepThreshold(every: stepCounts)
        pedometer.startUpdates(from: Date()) { data, error in
            if let error {
                QueuedCall { handler(0, Date(), error) }.enqueue(on: queue, unlessStopped: current)
            } else if let data, threshold.crossed(by: data.numberOfSteps.intValue) {
                let steps = data.numberOfSteps.intValue, date = data.endDate
                QueuedCall { handler(steps, date, nil) }.enqueue(on: queue, unlessStopped: current)
            }
        }
    }

    /// Stops the updates; no handler call starts after it returns.
    open func stopStepCountingUpdates() {
        session.withLock { session in
            session?.stop()
            session = nil
        }
        pedometer.stopUpdates()
    }
}

/// When to report a running step count: each time it reaches the next multiple of the step interval.
private final class StepThreshold: Sendable {
    private let every: Int
    private let next: Mutex<Int>

    init(every: Int) {
        self.every = max(1, every)
        next = Mutex(max(1, every))
    }

    /// Whether `steps` reached the next multiple (which then moves past it).
    func crossed(by steps: Int) -> Bool {
        next.withLock { next in
            guard steps >= next else { return false }
            next = (steps / every + 1) * every
            return true
        }
    }
}
