/// The retained `{base}/info` message: which agent, which device, which topics with their units and
/// sampling modes, and when the agent started (docs/MQTT-CONTRACT.md).
public struct InfoPayload: Sendable, Equatable {
    /// The program publishing (`motion-agent`).
    public var agent: String
    /// Its version.
    public var version: String
    /// The contract version it speaks (``ContractVersion/text``, `major.minor`), so that a subscriber can
    /// tell whether it reads this device's payloads; nil from agents before contract 1.7.
    public var contract: String?
    /// The device id (the topic level).
    public var deviceID: String
    /// The IMU.
    public var device: Device
    /// One entry per service, in the contract's order.
    public var services: [Service]
    /// When the agent started, ISO 8601 in UTC (e.g. `2026-12-01T12:52:16Z`).
    public var started: String

    /// The IMU's description.
    public struct Device: Sendable, Equatable {
        /// The device specification configured (`sim`, `iio:mpu6050`, `i2c:/dev/i2c-1@0x68`, …).
        public var specification: String
        /// The driver, chip and default rate, when the device is open.
        public var driver: String?
        /// The chip, for people.
        public var chip: String?
        /// The rate the device runs at, Hz.
        public var sampleRateHz: Double?
        /// The −3 dB bandwidth of the accelerometer's own filter at that rate, Hz, when the driver knows it
        /// (since 1.9).
        public var accelerometerBandwidthHz: Double?

        /// Creates a device description.
        /// - Parameters:
        ///   - specification: the device string configured.
        ///   - driver: the driver's name.
        ///   - chip: the chip, for people.
        ///   - sampleRateHz: the rate the device runs at, Hz.
        ///   - accelerometerBandwidthHz: the accelerometer filter's −3 dB bandwidth, Hz.
        public init(
            specification: String, driver: String? = nil, chip: String? = nil, sampleRateHz: Double? = nil,
            accelerometerBandwidthHz: Double? = nil
        ) {
            self.specification = specification
            self.driver = driver
            self.chip = chip
            self.sampleRateHz = sampleRateHz
            self.accelerometerBandwidthHz = accelerometerBandwidthHz
        }
    }

    /// One service's data topic.
    public struct Service: Sendable, Equatable {
        /// The service.
        public var service: MotionService
        /// Its data topic.
        public var topic: String
        /// Its units, for people (``InfoPayload/units(of:)``).
        public var units: String
        /// Its sampling mode (`latest` or `mean`).
        public var mode: String
        /// How its payloads are written (since contract 1.2; older agents write JSON and do not say).
        public var format: PayloadFormat
        /// The vibration service only (since 1.8): the band it can measure at the device's rate, Hz — the
        /// configured band with its top clipped to the spectrum's last line, rate ÷ 2.56 (below the 0.4 ×
        /// rate an accelerometer's anti-aliasing filter passes); nil before the device's rate is known.
        public var band: ClosedRange<Double>?

        /// Creates a service entry.
        public init(
            service: MotionService, topic: String, units: String, mode: String, format: PayloadFormat = .json, band: ClosedRange<Double>? = nil
        ) {
            self.service = service
            self.topic = topic
            self.units = units
            self.mode = mode
            self.format = format
            self.band = band
        }
    }

    /// Creates the message.
    /// - Parameters:
    ///   - contract: the contract version the agent speaks; this module's by default.
    public init(
        agent: String, version: String, deviceID: String, device: Device, services: [Service], started: String,
        contract: String? = ContractVersion.text
    ) {
        self.agent = agent
        self.version = version
        self.contract = contract
        self.deviceID = deviceID
        self.device = device
        self.services = services
        self.started = started
    }

    /// The units a service's payload carries, as `{base}/info` states them.
    public static func units(of service: MotionService) -> String {
        switch service {
        case .accelerometer: "acceleration: g"
        case .gyro: "rotationRate: rad/s"
        case .magnetometer: "magneticField: µT"
        case .deviceMotion:
            "attitude: rad, rotationRate: rad/s, gravity and userAcceleration: g, magneticField: µT, heading: degrees"
        case .steps: "steps, floorsAscended, floorsDescended: counts; distance: m; cadence: steps/s; pace: s/m"
        case .activity: "activity, confidence: names; since: s"
        case .altitude: "relativeAltitude, absoluteAltitude: m; pressure: kPa"
        case .vibration: "velocity: mm/s RMS; acceleration, peak, peak amplitude: g; frequency, band, rate: Hz; spectrum lines: mg RMS"
        }
    }

    /// The JSON payload.
    public func json() -> String {
        var writer = JSONWriter()
        writer.field("agent", agent)
        writer.field("version", version)
        if let contract { writer.field("contract", contract) }
        writer.field("device_id", deviceID)
        writer.object("device") { entry in
            entry.field("spec", device.specification)
            if let driver = device.driver { entry.field("driver", driver) }
            if let chip = device.chip { entry.field("chip", chip) }
            if let rate = device.sampleRateHz { entry.field("sample_rate_hz", rate) }
            if let bandwidth = device.accelerometerBandwidthHz { entry.field("accelerometer_bandwidth_hz", bandwidth) }
        }
        writer.object("services") { entries in
            for service in services {
                entries.object(service.service.topicName) { entry in
                    entry.field("topic", service.topic)
                    entry.field("units", service.units)
                    entry.field("mode", service.mode)
                    entry.field("format", service.format.rawValue)
                    if let band = service.band {
                        entry.object("band") { edges in
                            edges.field("low", band.lowerBound)
                            edges.field("high", band.upperBound)
                        }
                    }
                }
            }
        }
        writer.field("started", started)
        return writer.finished()
    }

    /// Decodes a `{base}/info` payload (unknown services are skipped).
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8]) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(bytes: payload)
        let device = try root.required("device", root.object)
        let services = try root.required("services", root.object)
        var entries: [Service] = []
        for service in MotionService.allCases {
            guard let entry = try services.object(service.topicName) else { continue }
            let formatName = try entry.string("format") ?? PayloadFormat.json.rawValue
            guard let format = PayloadFormat(rawValue: formatName) else {
                throw PayloadError(fieldPath: entry.fieldPath("format"), reason: "unknown format \"\(formatName)\"")
            }
            var band: ClosedRange<Double>?
            if let edges = try entry.object("band") {
                let low = try edges.required("low", edges.number), high = try edges.required("high", edges.number)
                guard low < high else { throw PayloadError(fieldPath: entry.fieldPath("band"), reason: "must have low < high") }
                band = low...high
            }
            entries.append(Service(
                service: service, topic: try entry.required("topic", entry.string),
                units: try entry.required("units", entry.string), mode: try entry.required("mode", entry.string), format: format, band: band))
        }
        self.init(
            agent: try root.required("agent", root.string), version: try root.required("version", root.string),
            deviceID: try root.required("device_id", root.string),
            device: Device(
                specification: try device.required("spec", device.string), driver: try device.string("driver"),
                chip: try device.string("chip"), sampleRateHz: try device.number("sample_rate_hz"),
                accelerometerBandwidthHz: try device.number("accelerometer_bandwidth_hz")),
            services: entries, started: try root.required("started", root.string), contract: try root.string("contract"))
    }
}
