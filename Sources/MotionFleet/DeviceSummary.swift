import MotionContract

/// One device as the fleet sees it on the broker: its availability (with staleness), what it is, how
/// its services run and what its last health report highlights. Made by ``FleetLedger``.
public struct DeviceSummary: Sendable, Equatable {
    /// The device's availability.
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// Retained `online`, and heard from within three health intervals.
        case online
        /// Retained `offline` (a clean stop or the last will).
        case offline
        /// Retained `online`, but neither data nor a health report for more than three health intervals.
        case stale
        /// Messages seen, but no retained availability (not an agent of the contract, or one being set up).
        case unknown
    }

    /// One service of the device.
    public struct Service: Sendable, Equatable {
        /// The service.
        public var service: MotionService
        /// Its retained status, if one was seen.
        public var status: ServiceStatus?
        /// Data messages per second measured while listening, msg/s; `nil` when not measured.
        public var measuredRate: Double?
        /// Messages lost while listening, from gaps in `seq`.
        public var lost: UInt64

        /// `active`, `stopped`, `unavailable` or `unknown` (no status seen).
        public var state: String {
            guard let status else { return "unknown" }
            if !status.available { return "unavailable" }
            return status.active ? "active" : "stopped"
        }
    }

    /// Highlights of the last health report.
    public struct Health: Sendable, Equatable {
        /// Device faults since the agent started.
        public var faults: Int
        /// The current device fault, while there is one.
        public var fault: String?
        /// Broker reconnections since the agent started.
        public var reconnects: Int
        /// Messages in the offline buffer.
        public var queueDepth: Int
        /// Messages dropped: forced out of the buffer, dropped while disconnected, or expired in it.
        public var dropped: Int
        /// The agent's uptime at the report, s.
        public var uptime: Double

        /// Creates the highlights.
        public init(faults: Int, fault: String?, reconnects: Int, queueDepth: Int, dropped: Int, uptime: Double) {
            self.faults = faults
            self.fault = fault
            self.reconnects = reconnects
            self.queueDepth = queueDepth
            self.dropped = dropped
            self.uptime = uptime
        }
    }

    /// The device identifier.
    public var deviceID: String
    /// Its availability.
    public var state: State
    /// When the agent started (its `info`), ISO 8601.
    public var started: String?
    /// When it was last heard from (its last data message or health report), Unix time, s.
    public var lastSeen: Double?
    /// Seconds between its health reports, when it reports.
    public var healthInterval: Double?
    /// The agent's version.
    public var agentVersion: String?
    /// The contract version the agent speaks (`major.minor`; nil before contract 1.7).
    public var contractVersion: String?
    /// The IMU: chip, else the device specification.
    public var imu: String?
    /// The device's sample rate, Hz.
    public var sampleRateHz: Double?
    /// Its services in the contract's order.
    public var services: [Service]
    /// The last health report's highlights.
    public var health: Health?
    /// `{group_id}/{edge_node_id}` when the agent was heard on Sparkplug B too (or only there).
    public var sparkplug: String?

    /// The summary as a JSON object (for `--json`).
    public func write(into writer: inout JSONWriter) {
        writer.field("device", deviceID)
        writer.field("state", state.rawValue)
        if let started { writer.field("started", started) }
        if let lastSeen { writer.field("last_seen", (lastSeen * 1_000).rounded() / 1_000) }
        if let healthInterval { writer.field("health_interval", healthInterval) }
        if let agentVersion { writer.field("agent_version", agentVersion) }
        if let contractVersion { writer.field("contract", contractVersion) }
        if let imu { writer.field("imu", imu) }
        if let sampleRateHz { writer.field("sample_rate_hz", sampleRateHz) }
        if let sparkplug { writer.field("sparkplug", sparkplug) }
        writer.object("services") { entries in
            for service in services {
                entries.object(service.service.topicName) { entry in
                    entry.field("state", service.state)
                    if let status = service.status {
                        entry.field("configured_rate_hz", status.publishedRateHz)
                        if let error = status.error { entry.field("error", error) }
                    }
                    if let rate = service.measuredRate { entry.field("measured_rate_hz", (rate * 10).rounded() / 10) }
                    entry.field("lost", service.lost)
                }
            }
        }
        if let health {
            writer.object("health") { entry in
                entry.field("uptime", health.uptime)
                entry.field("faults", health.faults)
                if let fault = health.fault { entry.field("fault", fault) }
                entry.field("reconnects", health.reconnects)
                entry.field("queue_depth", health.queueDepth)
                entry.field("dropped", health.dropped)
            }
        }
    }
}
