import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionMath
import MotionSupervision
import Synchronization

extension MotionAgent {
    // MARK: - Health (control queue)

    /// On the control queue: a health report every `interval` seconds from now (0: none, and the retained
    /// one removed).
    func scheduleHealthReports(every interval: Double) {
        health.schedule(every: interval) { [weak self] in self?.publishHealth() }
        if interval == 0, let client = state.withLock({ $0.client }), client.isConnected { try? health.clear(on: client) }
    }

    /// On the control queue: the report of now.
    func publishHealth() {
        let counters = pipelineCounters()
        let last = health.exchangeCounters(for: counters)
        let (client, services, interval, hasBufferFile, store) = state.withLock { state in
            (state.client, state.services, state.configuration.healthInterval,
             state.configuration.broker.durableOfflineBuffer != nil, state.remoteStore)
        }
        guard let client else { return }
        var report = HealthReport(
            uptime: counters.uptime, unixTime: WallClock.unixTime(), interval: interval, connected: client.isConnected, diagnostics: engine.diagnostics,
            broker: client.statistics, protocolVersion: client.negotiatedProtocolVersion,
            commandsDropped: droppedCommands.load(ordering: .relaxed))
        for service in MotionService.allCases {
            let count = counters.counts[service]!
            report.services.append(.init(
                service: service, active: services[service].active, messages: count.messages, samples: count.samples,
                messageRate: last.map { counters.messageRate(of: service, since: $0) }, error: services[service].error))
        }
        report.hasBufferFile = hasBufferFile
        report.stateFileProblem = store.problem.map(RemoteConfigurationStore.memoryOnly)
        report.detectors = HealthPayload.Detectors(
            running: detectors.isRunning, events: detectors.eventCounts)
        health.publish(report, on: client)
    }
}
