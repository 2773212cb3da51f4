import MotionContract
import MotionEngine
import MQTT

/// The periodic `{base}/health` message: uptime, the device's achieved rate and faults, the broker
/// connection, each service's throughput and the fusion state.
struct HealthReport: Sendable {
    /// Seconds since the agent started.
    var uptime: Double
    /// When the report was made, Unix time, s.
    var unixTime: Double
    /// Seconds between reports.
    var interval: Double
    /// Whether the broker connection is up.
    var connected: Bool
    /// The device and fusion as the engine sees them.
    var diagnostics: MotionDiagnostics
    /// The broker connection's counters.
    var broker: MQTTClientStatistics
    /// The MQTT version in use (5, or 3.1.1 after a fallback); `nil` before the first connection.
    var protocolVersion: MQTTProtocolVersion?
    /// Commands dropped unhandled because too many were waiting (a flood), since the start.
    var commandsDropped = 0
    /// One entry per service.
    var services: [ServiceHealth] = []
    /// The motion detectors' state and event counts.
    var detectors: HealthPayload.Detectors?
    /// The vibration service's last judgement, while it runs.
    var vibration: HealthPayload.Vibration?
    /// The wall clock's state.
    var clock: HealthPayload.Clock?
    /// Whether the offline buffer has a file (configured): its others' messages are then counted.
    var hasBufferFile = false
    /// Why remote configuration is kept in memory only, while it is.
    var stateFileProblem: String?

    /// One service's throughput.
    struct ServiceHealth: Sendable {
        let service: MotionService
        let active: Bool
        /// Messages published on the data topic since the start (its last `seq`).
        let messages: UInt64
        /// Samples taken in since the start.
        let samples: UInt64
        /// Messages per second since the previous report, Hz; `nil` in the first report.
        let messageRate: Double?
        /// Why the service cannot deliver, when it cannot.
        let error: String?
    }

    /// The contract's payload of this report.
    var payload: HealthPayload {
        var payload = HealthPayload(
            uptime: uptime, ts: unixTime, interval: interval, connected: connected,
            device: HealthPayload.Device(
                driver: diagnostics.driver, running: diagnostics.isRunning,
                configuredRateHz: diagnostics.configuredSampleRate, achievedRateHz: diagnostics.achievedSampleRate,
                samples: diagnostics.samplesReceived, faults: diagnostics.faultsSeen, fault: diagnostics.lastFault),
            mqtt: HealthPayload.Connection(
                protocolVersion: protocolVersion.map { $0 == .v5 ? "5" : "3.1.1" }, published: broker.messagesPublished,
                publishErrors: broker.publishErrors, reconnects: broker.reconnects, queueDepth: broker.bufferedMessages,
                queuedBytes: broker.bufferedBytes, droppedFromBuffer: broker.droppedFromBuffer,
                droppedWhileDisconnected: broker.droppedWhileDisconnected, expiredInBuffer: broker.expiredInBuffer,
                queueDurable: broker.offlineBufferIsDurable, commandsDropped: commandsDropped),
            services: services.map {
                HealthPayload.Service(
                    service: $0.service, active: $0.active, messages: $0.messages, samples: $0.samples, rateHz: $0.messageRate,
                    error: $0.error)
            },
            fusion: diagnostics.fusion.map {
                HealthPayload.Fusion(
                    frame: $0.referenceFrame.rawValue, initialized: $0.isInitialized, gyroBias: $0.gyroscopeBias,
                    uncertainty: $0.uncertainty)
            },
            magneticDisturbance: diagnostics.fusion.contains { $0.referenceFrame.usesMagnetometer }
                ? diagnostics.fusion.contains(where: \.isMagneticallyDisturbed) : nil,
            detectors: detectors)
        payload.mqtt.queueOthers = hasBufferFile ? broker.offlineBufferOthersMessages : nil
        payload.mqtt.queueProblem = broker.offlineBufferProblem
        payload.stateFileProblem = stateFileProblem
        payload.vibration = vibration
        payload.clock = clock
        return payload
    }

    /// The JSON payload.
    func json() -> String { payload.json() }
}
