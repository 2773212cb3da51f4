// The `async` forms Swift gives Apple's completion-handler queries (imported from Objective-C): each
// calls the handler form once and returns its result or throws its error. The result objects are made
// for the call and immutable, so they cross to the awaiting task in an ``UncheckedBox``.

extension CMPedometer {
    /// The pedometer data between two dates, as ``queryPedometerData(from:to:withHandler:)`` delivers it.
    /// - Throws: its error (``CMErrorMotionActivityNotAvailable`` without a device,
    ///   ``CMErrorInvalidParameter`` when `end` is before `start`).
    public func queryPedometerData(from start: Date, to end: Date) async throws -> CMPedometerData {
        try await withCheckedThrowingContinuation { continuation in
            queryPedometerData(from: start, to: end) { data, error in
                continuation.resume(with: handlerResult(data, error).map(UncheckedBox.init))
            }
        }.value
    }
}

extension CMMotionActivityManager {
    /// The activities between two dates, as ``queryActivityStarting(from:to:to:withHandler:)`` delivers them.
    /// - Throws: its error (``CMErrorMotionActivityNotAvailable`` without a device,
    ///   ``CMErrorInvalidParameter`` when `end` is before `start`).
    public func queryActivityStarting(from start: Date, to end: Date, to queue: OperationQueue) async throws -> [CMMotionActivity] {
        try await withCheckedThrowingContinuation { continuation in
            queryActivityStarting(from: start, to: end, to: queue) { activities, error in
                continuation.resume(with: handlerResult(activities, error).map(UncheckedBox.init))
            }
        }.value
    }
}

/// The result of a handler's (value, error) pair: the value, else the error, else ``CMErrorNilData``.
func handlerResult<Value>(_ value: Value?, _ error: (any Error)?) -> Result<Value, any Error> {
    if let value { return .success(value) }
    return .failure(error ?? CMErrorNilData.nsError("the query delivered neither data nor an error"))
}
