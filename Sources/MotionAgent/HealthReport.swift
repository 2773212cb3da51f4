import MotionContract
import MotionEngine
import MQTT

/// The periodic `{base}/health` message: uptime, the device's achieved rate and faults, the broker
/// connection, each service's throughput and the fusion state.
struct HealthReport: Sendable {
    /// Seconds since the agent started.
    var uptime: Double
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

    /// The JSON payload.
    func json() -> String {
        var writer = JSONWriter()
        writer.field("uptime", (uptime * 1_000).rounded() / 1_000)
        writer.field("connected", connected)
        writer.object("device") { device in
            if let driver = diagnostics.driver { device.field("driver", driver) }
            device.field("running", diagnostics.isRunning)
            device.field("configured_rate_hz", diagnostics.configuredSampleRate)
            device.field("achieved_rate_hz", (diagnostics.achievedSampleRate * 10).rounded() / 10)
            device.field("samples", diagnostics.samplesReceived)
            device.field("faults", diagnostics.faultsSeen)
            if let fault = diagnostics.lastFault { device.field("fault", fault) }
        }
        writer.object("mqtt") { mqtt in
            if let protocolVersion { mqtt.field("protocol", protocolVersion == .v5 ? "5" : "3.1.1") }
            mqtt.field("published", broker.messagesPublished)
            mqtt.field("publish_errors", broker.publishErrors)
            mqtt.field("reconnects", broker.reconnects)
            mqtt.field("queue_depth", broker.bufferedMessages)
            mqtt.field("queued_bytes", broker.bufferedBytes)
            mqtt.field("dropped_from_buffer", broker.droppedFromBuffer)
            mqtt.field("dropped_while_disconnected", broker.droppedWhileDisconnected)
            mqtt.field("expired_in_buffer", broker.expiredInBuffer)
            mqtt.field("queue_durable", broker.offlineBufferIsDurable)
            mqtt.field("commands_dropped", commandsDropped)
        }
        writer.object("services") { entries in
            for health in services {
                entries.object(health.service.topicName) { entry in
                    entry.field("active", health.active)
                    entry.field("messages", health.messages)
                    entry.field("samples", health.samples)
                    if let rate = health.messageRate { entry.field("rate_hz", (rate * 10).rounded() / 10) }
                    if let error = health.error { entry.field("error", error) }
                }
            }
        }
        writer.array("fusion", objects: diagnostics.fusion) { state, entry in
            entry.field("frame", state.referenceFrame.rawValue)
            entry.field("initialized", state.isInitialized)
            entry.vector("gyro_bias", x: state.gyroscopeBias.x, y: state.gyroscopeBias.y, z: state.gyroscopeBias.z)
        }
        return writer.finished()
    }
}
