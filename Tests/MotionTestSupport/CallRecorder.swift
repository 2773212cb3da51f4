import Synchronization

/// What a handler was called with, in order, recorded from any thread and read by the test.
public final class CallRecorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    public init() {}

    /// Records one call.
    public func append(_ value: Value) { values.withLock { $0.append(value) } }
    /// Every recorded value, oldest first.
    public var all: [Value] { values.withLock { $0 } }
    /// How many calls were recorded.
    public var count: Int { values.withLock { $0.count } }
}
