/// Rates measured from arrival times, so that a test waits for the messages it measures instead of
/// sleeping through a window and counting what fell into it.
extension RecordingSubscriber {
    /// Waits until `count` messages on `topic` are recorded (since the last ``clear()``) and returns the
    /// rate the first `count` arrived at: `count − 1` intervals over the span of their arrival times, in
    /// messages per second.
    /// - Parameters:
    ///   - count: how many messages to measure over, at least 2; the window lasts about `count − 1`
    ///     periods of the expected rate.
    ///   - timeout: how long to wait for them.
    /// - Returns: the rate, or `nil` when fewer than `count` messages arrive within `timeout`.
    public func arrivalRate(on topic: String, over count: Int, timeout: Duration = .seconds(10)) -> Double? {
        precondition(count >= 2, "a rate needs at least two messages")
        guard waitForCount(on: topic, count: count, timeout: timeout) else { return nil }
        let measured = records(on: topic).prefix(count)
        guard let first = measured.first, let last = measured.last, last.arrivalNanoseconds > first.arrivalNanoseconds
        else { return .infinity }
        return Double(count - 1) / (Double(last.arrivalNanoseconds - first.arrivalNanoseconds) / 1e9)
    }
}
