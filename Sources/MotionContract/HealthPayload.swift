/// The periodic `{base}/health` message: uptime, the device's achieved rate and faults, the broker
/// connection, each service's throughput and the fusion state (docs/MQTT-CONTRACT.md).
public struct HealthPayload: Sendable, Equatable {
    /// Seconds since the agent started (written to the millisecond).
    public var uptime: Double
    /// When the report was made, Unix time, s (since contract 1.1; `nil` from older agents).
    public var ts: Double?
    /// Seconds between reports (the agent's `health_interval`; since contract 1.1, `nil` from older
    /// agents). A device is stale when it sends nothing for three of these.
    public var interval: Double?
    /// Whether the broker connection is up.
    public var connected: Bool
    /// The IMU.
    public var device: Device
    /// The broker connection and the offline buffer.
    public var mqtt: Connection
    /// One entry per service, in the contract's order.
    public var services: [Service]
    /// The attitude filters in use.
    public var fusion: [Fusion]
    /// Whether a frame that uses the magnetometer rejects it now as magnetically disturbed (since
    /// contract 1.1; `nil` when no such frame runs, and from older agents).
    public var magneticDisturbance: Bool?

    /// The IMU's part of the report.
    public struct Device: Sendable, Equatable {
        /// Driver name (`sim`, `iio`, `mpu6050`, …); nil without a device.
        public var driver: String?
        /// Whether the device runs.
        public var running: Bool
        /// The rate the device is configured for, Hz.
        public var configuredRateHz: Double
        /// Samples per second over the last ~2 s, Hz (written to 0.1 Hz).
        public var achievedRateHz: Double
        /// Samples received since the agent started.
        public var samples: UInt64
        /// Fault episodes since the agent started.
        public var faults: Int
        /// The current fault; nil when healthy.
        public var fault: String?

        /// Creates the device part.
        public init(
            driver: String?, running: Bool, configuredRateHz: Double, achievedRateHz: Double, samples: UInt64, faults: Int,
            fault: String?
        ) {
            self.driver = driver
            self.running = running
            self.configuredRateHz = configuredRateHz
            self.achievedRateHz = achievedRateHz
            self.samples = samples
            self.faults = faults
            self.fault = fault
        }
    }

    /// The broker connection's part of the report (counters since the agent started).
    public struct Connection: Sendable, Equatable {
        /// `5` or `3.1.1`; nil before the first connection.
        public var protocolVersion: String?
        /// Messages handed to the broker.
        public var published: Int
        /// Publications that failed.
        public var publishErrors: Int
        /// Connections made again after a loss.
        public var reconnects: Int
        /// Messages waiting in the offline buffer.
        public var queueDepth: Int
        /// Their payload bytes.
        public var queuedBytes: Int
        /// Messages the buffer dropped, oldest first, to stay within its bounds.
        public var droppedFromBuffer: Int
        /// QoS 0 messages dropped while disconnected.
        public var droppedWhileDisconnected: Int
        /// Buffered messages whose MQTT 5 expiry passed before they could be sent.
        public var expiredInBuffer: Int
        /// Whether the buffer is on disk (survives a restart).
        public var queueDurable: Bool
        /// Commands dropped unhandled because too many were waiting.
        public var commandsDropped: Int
        /// Messages in the buffer's file that another device (or this one at another broker) left there:
        /// kept for it, not sent (since contract 1.6; `nil` without a file on disk, and from older agents).
        public var queueOthers: Int? = nil
        /// The newest problem of the buffer's file (damaged, changed while in use, not writable, holding
        /// another device's messages), since the agent started (since contract 1.6).
        public var queueProblem: String? = nil

        /// Creates the connection part.
        public init(
            protocolVersion: String?, published: Int, publishErrors: Int, reconnects: Int, queueDepth: Int, queuedBytes: Int,
            droppedFromBuffer: Int, droppedWhileDisconnected: Int, expiredInBuffer: Int, queueDurable: Bool,
            commandsDropped: Int
        ) {
            self.protocolVersion = protocolVersion
            self.published = published
            self.publishErrors = publishErrors
            self.reconnects = reconnects
            self.queueDepth = queueDepth
            self.queuedBytes = queuedBytes
            self.droppedFromBuffer = droppedFromBuffer
            self.droppedWhileDisconnected = droppedWhileDisconnected
            self.expiredInBuffer = expiredInBuffer
            self.queueDurable = queueDurable
            self.commandsDropped = commandsDropped
        }
    }

    /// One service's throughput.
    public struct Service: Sendable, Equatable {
        /// The service.
        public var service: MotionService
        /// Whether it publishes.
        public var active: Bool
        /// Messages published on its data topic since the start (its last `seq`).
        public var messages: UInt64
        /// Samples taken in since the start.
        public var samples: UInt64
        /// Messages per second since the previous report, Hz (written to 0.1 Hz); nil in the first report.
        public var rateHz: Double?
        /// Why it cannot deliver, when it cannot.
        public var error: String?

        /// Creates a service entry.
        public init(service: MotionService, active: Bool, messages: UInt64, samples: UInt64, rateHz: Double?, error: String?) {
            self.service = service
            self.active = active
            self.messages = messages
            self.samples = samples
            self.rateHz = rateHz
            self.error = error
        }
    }

    /// The motion detectors (contract 1.4): whether they run and the events published since the agent
    /// started, by type; nil from older agents.
    public var detectors: Detectors?
    /// Why accepted remote configuration documents are kept in memory only (the state file cannot be
    /// written), while that is so (since contract 1.6).
    public var stateFileProblem: String? = nil

    /// The vibration service's last judgement (since contract 1.8), while it runs and has one.
    public var vibration: Vibration? = nil

    /// The wall clock's state (since contract 1.9).
    public var clock: Clock? = nil

    /// The vibration service's last summary, for monitoring: Prometheus reads numbers, so the zone is also
    /// a level (A 1 … D 4).
    public struct Vibration: Sendable, Equatable {
        /// The last interval's velocity RMS, mm/s.
        public var velocityRMS: Double
        /// ISO 20816's zone, `A`…`D`.
        public var zone: String

        /// The zone as a number: A 1, B 2, C 3, D 4.
        public var zoneLevel: Int { (VibrationPayload.zones.firstIndex(of: zone) ?? -1) + 1 }

        /// Creates the entry.
        public init(velocityRMS: Double, zone: String) {
            self.velocityRMS = velocityRMS
            self.zone = zone
        }
    }

    /// The motion detectors' counters.
    public struct Detectors: Sendable, Equatable {
        /// Whether the detectors run now.
        public var running: Bool
        /// Events published on `{base}/events` since the agent started, by type (`free_fall`, …).
        public var events: [String: UInt64]

        /// Creates the entry.
        public init(running: Bool, events: [String: UInt64]) {
            self.running = running
            self.events = events
        }
    }

    /// One attitude filter's state.
    public struct Fusion: Sendable, Equatable {
        /// Its reference frame (``ReferenceFrameName``).
        public var frame: String
        /// Whether it has an attitude yet.
        public var initialized: Bool
        /// Its gyroscope bias estimate, rad/s, device axes.
        public var gyroBias: SIMD3<Double>
        /// The filter's own estimate of its errors, 1 σ, degrees (`uncertainty`, contract 1.3); nil before
        /// it has an attitude or from an older agent.
        public var uncertainty: AttitudeUncertaintyEstimate?

        /// Creates a fusion entry.
        public init(frame: String, initialized: Bool, gyroBias: SIMD3<Double>, uncertainty: AttitudeUncertaintyEstimate? = nil) {
            self.frame = frame
            self.initialized = initialized
            self.gyroBias = gyroBias
            self.uncertainty = uncertainty
        }
    }

    /// Creates a report.
    public init(
        uptime: Double, ts: Double? = nil, interval: Double? = nil, connected: Bool, device: Device, mqtt: Connection,
        services: [Service], fusion: [Fusion], magneticDisturbance: Bool? = nil, detectors: Detectors? = nil
    ) {
        self.magneticDisturbance = magneticDisturbance
        self.detectors = detectors
        self.uptime = uptime
        self.ts = ts
        self.interval = interval
        self.connected = connected
        self.device = device
        self.mqtt = mqtt
        self.services = services
        self.fusion = fusion
    }

    /// The JSON payload (uptime to the millisecond, rates to 0.1 Hz).
    public func json() -> String {
        var writer = JSONWriter()
        writer.field("uptime", (uptime * 1_000).rounded() / 1_000)
        if let ts { writer.field("ts", (ts * 1_000).rounded() / 1_000) }
        if let interval { writer.field("interval", interval) }
        writer.field("connected", connected)
        writer.object("device") { entry in
            if let driver = device.driver { entry.field("driver", driver) }
            entry.field("running", device.running)
            entry.field("configured_rate_hz", device.configuredRateHz)
            entry.field("achieved_rate_hz", (device.achievedRateHz * 10).rounded() / 10)
            entry.field("samples", device.samples)
            entry.field("faults", device.faults)
            if let fault = device.fault { entry.field("fault", fault) }
        }
        writer.object("mqtt") { entry in
            if let version = mqtt.protocolVersion { entry.field("protocol", version) }
            entry.field("published", mqtt.published)
            entry.field("publish_errors", mqtt.publishErrors)
            entry.field("reconnects", mqtt.reconnects)
            entry.field("queue_depth", mqtt.queueDepth)
            entry.field("queued_bytes", mqtt.queuedBytes)
            entry.field("dropped_from_buffer", mqtt.droppedFromBuffer)
            entry.field("dropped_while_disconnected", mqtt.droppedWhileDisconnected)
            entry.field("expired_in_buffer", mqtt.expiredInBuffer)
            entry.field("queue_durable", mqtt.queueDurable)
            entry.field("commands_dropped", mqtt.commandsDropped)
            if let others = mqtt.queueOthers { entry.field("queue_others", others) }
            if let problem = mqtt.queueProblem { entry.field("queue_problem", ContractText.sanitized(problem, limit: ContractText.maximumReasonLength)) }
        }
        writer.object("services") { entries in
            for health in services {
                entries.object(health.service.topicName) { entry in
                    entry.field("active", health.active)
                    entry.field("messages", health.messages)
                    entry.field("samples", health.samples)
                    if let rate = health.rateHz { entry.field("rate_hz", (rate * 10).rounded() / 10) }
                    if let error = health.error { entry.field("error", ContractText.sanitized(error, limit: ContractText.maximumReasonLength)) }
                }
            }
        }
        writer.array("fusion", objects: fusion) { state, entry in
            entry.field("frame", state.frame)
            entry.field("initialized", state.initialized)
            entry.vector("gyro_bias", x: state.gyroBias.x, y: state.gyroBias.y, z: state.gyroBias.z)
            if let uncertainty = state.uncertainty {
                entry.object("uncertainty") { estimate in
                    estimate.field("heading", (uncertainty.heading * 100).rounded() / 100)
                    estimate.field("inclination", (uncertainty.inclination * 100).rounded() / 100)
                }
            }
        }
        if let magneticDisturbance { writer.field("magnetic_disturbance", magneticDisturbance) }
        if let stateFileProblem {
            writer.field("state_file_problem", ContractText.sanitized(stateFileProblem, limit: ContractText.maximumReasonLength))
        }
        if let vibration {
            writer.object("vibration") { entry in
                entry.measurement("velocity_rms", vibration.velocityRMS)
                entry.field("zone", vibration.zone)
                entry.field("zone_level", vibration.zoneLevel)
            }
        }
        clock?.write(into: &writer)
        if let detectors {
            writer.object("detectors") { entry in
                entry.field("running", detectors.running)
                entry.object("events") { counts in
                    for type in detectors.events.keys.sorted() { counts.field(type, detectors.events[type]!) }
                }
            }
        }
        return writer.finished()
    }

    /// Decodes a `{base}/health` payload (services in the contract's order; unknown services are skipped,
    /// so that a newer agent's report still reads).
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8]) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(bytes: payload)
        let device = try root.required("device", root.object)
        let mqtt = try root.required("mqtt", root.object)
        let services = try root.required("services", root.object)
        var serviceEntries: [Service] = []
        for service in MotionService.allCases {
            guard let entry = try services.object(service.topicName) else { continue }
            serviceEntries.append(Service(
                service: service, active: try entry.required("active", entry.bool),
                messages: try entry.required("messages", entry.count), samples: try entry.required("samples", entry.count),
                rateHz: try entry.number("rate_hz"), error: try entry.string("error")))
        }
        var fusionEntries: [Fusion] = []
        for entry in try root.objects("fusion") ?? [] {
            fusionEntries.append(Fusion(
                frame: try entry.required("frame", entry.string), initialized: try entry.required("initialized", entry.bool),
                gyroBias: try entry.required("gyro_bias", entry.vector),
                uncertainty: try AttitudeUncertaintyEstimate.decode(in: entry)))
        }
        var detectors: Detectors?
        if let entry = try root.object("detectors") {
            let counts = try entry.required("events", entry.object)
            var events: [String: UInt64] = [:]
            for type in counts.members.keys { events[type] = try counts.required(type, counts.count) }
            detectors = Detectors(running: try entry.required("running", entry.bool), events: events)
        }
        var connection = Connection(
            protocolVersion: try mqtt.string("protocol"), published: try mqtt.required("published", mqtt.integer),
            publishErrors: try mqtt.required("publish_errors", mqtt.integer),
            reconnects: try mqtt.required("reconnects", mqtt.integer),
            queueDepth: try mqtt.required("queue_depth", mqtt.integer),
            queuedBytes: try mqtt.required("queued_bytes", mqtt.integer),
            droppedFromBuffer: try mqtt.required("dropped_from_buffer", mqtt.integer),
            droppedWhileDisconnected: try mqtt.required("dropped_while_disconnected", mqtt.integer),
            expiredInBuffer: try mqtt.integer("expired_in_buffer") ?? 0,
            queueDurable: try mqtt.bool("queue_durable") ?? false,
            commandsDropped: try mqtt.integer("commands_dropped") ?? 0)
        connection.queueOthers = try mqtt.integer("queue_others")
        connection.queueProblem = try mqtt.string("queue_problem")
        self.init(
            uptime: try root.required("uptime", root.number), ts: try root.number("ts"), interval: try root.number("interval"),
            connected: try root.required("connected", root.bool),
            device: Device(
                driver: try device.string("driver"), running: try device.required("running", device.bool),
                configuredRateHz: try device.required("configured_rate_hz", device.number),
                achievedRateHz: try device.required("achieved_rate_hz", device.number),
                samples: try device.required("samples", device.count), faults: try device.required("faults", device.integer),
                fault: try device.string("fault")),
            mqtt: connection,
            services: serviceEntries, fusion: fusionEntries, magneticDisturbance: try root.bool("magnetic_disturbance"),
            detectors: detectors)
        stateFileProblem = try root.string("state_file_problem")
        if let entry = try root.object("vibration") {
            vibration = Vibration(velocityRMS: try entry.required("velocity_rms", entry.measurement), zone: try entry.required("zone", entry.string))
        }
        clock = try Clock.decode(in: root)
    }
}
