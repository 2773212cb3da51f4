import Foundation
import MotionTestSupport

/// Thread-safe recorder of handler calls.
typealias Recorder<Value: Sendable> = CallRecorder<Value>

/// Polls `condition` until it holds or `timeout` seconds pass; returns whether it held.
func waitUntil(timeout: Double = 3, _ condition: () -> Bool) -> Bool {
    eventually(within: .milliseconds(Int(timeout * 1000)), condition)
}

/// ``waitUntil(timeout:_:)`` for an async test: polls every 20 ms without blocking a thread of the
/// concurrency pool, which the code under test may need meanwhile (a delegate's `async` method).
func awaitUntil(timeout: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}
