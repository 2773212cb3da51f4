import Dispatch
import MQTT
import MotionContract
import MotionHAL
import MotionSupervision
import Synchronization

/// The agent's periodic `{base}/health`, a part with its own state: the timer on the engine's clock and the
/// pipelines' counters of the previous report (the message rates are measured between two reports).
///
/// Threading: ``schedule(every:)`` and ``connected(on:)`` on the control queue, where the reports are
/// made; ``stop()`` from any thread.
final class HealthReporter: Sendable {
    private struct State {
        var timer: ScheduledWork?
        var last: PipelineCounters?
    }

    private let core: AgentCore
    private let publisher: ServicePublisher
    private let detectors: DetectorService
    private let intake: CommandIntake
    private let clock: ClockSupervisor
    private let state = Mutex(State())

    /// The reporter of `core`'s health: the counters of `publisher`, the detectors' counts, the
    /// commands `intake` dropped and the wall clock as `clock` sees it.
    init(core: AgentCore, publisher: ServicePublisher, detectors: DetectorService, intake: CommandIntake, clock: ClockSupervisor) {
        self.clock = clock
        self.core = core
        self.publisher = publisher
        self.detectors = detectors
        self.intake = intake
    }

    private var topics: TopicLayout { core.topics }

    /// Reports every `interval` seconds from now (replacing an earlier schedule); 0 stops the reports and
    /// removes the retained one.
    func schedule(every interval: Double) {
        let timer = interval > 0
            ? core.engine.environment.clock.scheduleRepeating(on: core.controlQueue, every: interval) { [weak self] in self?.report() }
            : nil
        state.withLock { state in
            state.timer?.cancel()
            state.timer = timer
        }
        if interval == 0, let client = core.client, client.isConnected { try? clear(on: client) }
    }

    /// After each (re)connect: without reports, the retained one that an earlier run left is removed.
    func connected(on client: any MessageTransport) {
        if core.configuration.healthInterval == 0 { try? clear(on: client) }
    }

    /// Stops the reports.
    func stop() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// The report of now, published retained (contract 1.1) so that a fleet tool joining late reads when
    /// the device last reported.
    func report() {
        let counters = publisher.counters()
        let last = state.withLock { state in
            defer { state.last = counters }
            return state.last
        }
        let (client, services, interval, hasBufferFile, store) = core.state.withLock { state in
            (state.client, state.services, state.configuration.healthInterval,
             state.configuration.broker.durableOfflineBuffer != nil, state.remoteStore)
        }
        guard let client else { return }
        var report = HealthReport(
            uptime: counters.uptime, unixTime: WallClock.unixTime(), interval: interval, connected: client.isConnected,
            diagnostics: core.engine.diagnostics, broker: client.statistics, protocolVersion: client.negotiatedProtocolVersion,
            commandsDropped: intake.droppedCount)
        for service in MotionService.allCases {
            let count = counters.counts[service] ?? (0, 0)
            report.services.append(.init(
                service: service, active: services[service].active, messages: count.messages, samples: count.samples,
                messageRate: last.map { counters.messageRate(of: service, since: $0) }, error: services[service].error))
        }
        report.hasBufferFile = hasBufferFile
        report.stateFileProblem = store.problem.map(RemoteConfigurationStore.memoryOnly)
        report.detectors = HealthPayload.Detectors(running: detectors.isRunning, events: detectors.eventCounts)
        report.vibration = publisher.vibration.withLock { $0.pipeline == nil ? nil : $0.latest }
        report.clock = clock.health()
        _ = try? client.publish(MQTTMessage(
            topic: topics.health, string: report.json(), qos: .atMostOnce, retain: true, contentType: PayloadFormat.json.contentType))
    }

    /// Removes the retained `{base}/health` (an empty retained message): with no reports from now on, one
    /// left behind would make the device look stale.
    func clear(on client: any MessageTransport) throws {
        try client.publish(MQTTMessage(topic: topics.health, payload: [], qos: .atLeastOnce, retain: true))
    }
}
