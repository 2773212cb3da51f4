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

    func scheduleHealthReports(every interval: Double) {
        healthTimer?.cancel()
        healthTimer = nil
        guard interval > 0 else {
            // No reports from now on: a retained one left behind would make the device look stale.
            if let client = state.withLock({ $0.client }), client.isConnected { try? clearHealth(on: client) }
            return
        }
        healthTimer = engine.environment.clock.scheduleRepeating(on: controlQueue, every: interval) { [weak self] in self?.publishHealth() }
    }

    /// Removes the retained `{base}/health` (an empty retained message).
    func clearHealth(on client: any MessageTransport) throws {
        try client.publish(MQTTMessage(topic: topics.health, payload: [], qos: .atLeastOnce, retain: true))
    }

    func publishHealth() {
        let counters = pipelineCounters()
        let (client, services, last, interval, hasBufferFile, store) = state.withLock { state in
            let last = state.lastHealth
            state.lastHealth = counters
            return (state.client, state.services, last, state.configuration.healthInterval,
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
        // Retained (contract 1.1), so that a fleet tool joining late reads when the device last reported.
        _ = try? client.publish(MQTTMessage(
            topic: topics.health, string: report.json(), qos: .atMostOnce, retain: true, contentType: Self.json))
    }
}
