import MotionTestSupport

/// Thread-safe recorder of handler calls.
typealias Recorder<Value: Sendable> = CallRecorder<Value>

/// Polls `condition` until it holds or `timeout` seconds pass; returns whether it held.
func waitUntil(timeout: Double = 3, _ condition: () -> Bool) -> Bool {
    eventually(within: .milliseconds(Int(timeout * 1000)), condition)
}
