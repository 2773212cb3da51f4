import Dispatch
import MQTT
import MotionContract
import MotionSupervision
import Synchronization

/// The agent's periodic `{base}/health`, a part with its own state: the timer on the engine's clock and the
/// pipelines' counters of the previous report (the message rates are measured between two reports).
///
/// Threading: every method may be called from any thread; the reports are made on the queue given.
final class HealthReporter: Sendable {
    private struct State {
        var timer: ScheduledWork?
        var last: PipelineCounters?
    }

    private let topics: TopicLayout
    private let clock: any SupervisionClock
    private let queue: DispatchQueue
    private let state = Mutex(State())

    /// A reporter of `topics.health`, timed by `clock`, reporting on `queue`.
    init(topics: TopicLayout, clock: any SupervisionClock, queue: DispatchQueue) {
        self.topics = topics
        self.clock = clock
        self.queue = queue
    }

    /// Calls `report` every `interval` seconds from now (replacing an earlier schedule); 0 stops the reports.
    func schedule(every interval: Double, report: @escaping @Sendable () -> Void) {
        let timer = interval > 0 ? clock.scheduleRepeating(on: queue, every: interval, report) : nil
        state.withLock { state in
            state.timer?.cancel()
            state.timer = timer
        }
    }

    /// Stops the reports.
    func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// The counters of the previous report (nil before the first), replaced by `counters`.
    func exchangeCounters(for counters: PipelineCounters) -> PipelineCounters? {
        state.withLock { state in
            defer { state.last = counters }
            return state.last
        }
    }

    /// Publishes `report`, retained (contract 1.1), so that a fleet tool joining late reads when the device
    /// last reported.
    func publish(_ report: HealthReport, on client: any MessageTransport) {
        _ = try? client.publish(MQTTMessage(
            topic: topics.health, string: report.json(), qos: .atMostOnce, retain: true, contentType: MotionAgent.json))
    }

    /// Removes the retained `{base}/health` (an empty retained message): with no reports from now on, one
    /// left behind would make the device look stale.
    func clear(on client: any MessageTransport) throws {
        try client.publish(MQTTMessage(topic: topics.health, payload: [], qos: .atLeastOnce, retain: true))
    }
}
