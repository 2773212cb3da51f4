import MotionContract
import MotionMath
import Testing

/// The bytes of `{base}/info`, a command's answer and `{base}/error`, recorded from the agent on the
/// simulated IMU before the contract had a module of its own (issue 13), and every payload decoded back.
@Suite struct ContractGoldenTests {
    static let info = InfoPayload(
        agent: "motion-agent", version: "0.1.0", deviceID: "golden",
        device: .init(specification: "sim", driver: "sim", chip: "simulated 9-axis IMU", sampleRateHz: 200),
        services: MotionService.sensorServices.map { service in
            .init(service: service, topic: "motion/golden/\(service.topicName)", units: InfoPayload.units(of: service), mode: "latest")
        },
        started: "2026-12-01T12:52:16Z")

    @Test func infoIsByteIdentical() throws {
        let recorded = #"{"agent":"motion-agent","version":"0.1.0","device_id":"golden","device":{"spec":"sim","driver":"sim","chip":"simulated 9-axis IMU","sample_rate_hz":200.0},"services":{"accelerometer":{"topic":"motion/golden/accelerometer","units":"acceleration: g","mode":"latest","format":"json"},"gyro":{"topic":"motion/golden/gyro","units":"rotationRate: rad/s","mode":"latest","format":"json"},"magnetometer":{"topic":"motion/golden/magnetometer","units":"magneticField: µT","mode":"latest","format":"json"},"device-motion":{"topic":"motion/golden/device-motion","units":"attitude: rad, rotationRate: rad/s, gravity and userAcceleration: g, magneticField: µT, heading: degrees","mode":"latest","format":"json"}},"started":"2026-12-01T12:52:16Z"}"#
        // Since 1.7 the agent says which contract it speaks, after its version; an agent before said
        // nothing, and its info reads back without a contract.
        let current = recorded.replacing(#""version":"0.1.0","#, with: #""version":"0.1.0","contract":"1.9","#)
        #expect(Self.info.json() == current)
        #expect(try InfoPayload(payload: Array(current.utf8)) == Self.info)
        var older = Self.info
        older.contract = nil
        #expect(older.json() == recorded)
        #expect(try InfoPayload(payload: Array(recorded.utf8)) == older)
        // Contract 1.5's services follow the recorded ones, and read back.
        var newer = Self.info
        newer.services = MotionService.allCases.map { service in
            .init(service: service, topic: "motion/golden/\(service.topicName)", units: InfoPayload.units(of: service), mode: "latest")
        }
        // Found first, then required: Swift Testing 6.0's #require cannot take the optional chain itself.
        let found = recorded.range(of: #""services":{"#).map { recorded[$0.lowerBound...] }?.components(separatedBy: #"},"started""#).first
        let sensorEntries = try #require(found)
        #expect(newer.json().contains(sensorEntries + #","steps":{"topic":"motion/golden/steps""#))
        #expect(try InfoPayload(payload: Array(newer.json().utf8)) == newer)
        // Without an open device the description is the specification alone.
        var closed = Self.info
        closed.device = .init(specification: "i2c:/dev/i2c-1@0x68")
        #expect(try InfoPayload(payload: Array(closed.json().utf8)) == closed)
        // Since 1.9 a driver that knows its accelerometer's filter states it after the rate.
        var filtered = Self.info
        filtered.device = .init(
            specification: "i2c:/dev/i2c-1@0x6a,sensors=accelerometer,rate=max", driver: "lsm6dsox",
            chip: "ST LSM6DSOX at 0x6a, accelerometer only", sampleRateHz: 6667, accelerometerBandwidthHz: 3333.5)
        #expect(filtered.json().contains(#""sample_rate_hz":6667.0,"accelerometer_bandwidth_hz":3333.5}"#))
        #expect(try InfoPayload(payload: Array(filtered.json().utf8)) == filtered)
    }

    @Test func answersAreByteIdentical() throws {
        #expect(CommandAnswer.accepted.json() == #"{"ok":true}"#)
        let unknownField = CommandAnswer.refusal(
            "bogus: unknown field (known: active, interval)", service: .gyro, payload: Array(#"{"bogus":1}"#.utf8))
        let recorded = #"{"ok":false,"service":"gyro","error":"bogus: unknown field (known: active, interval)","command":"{\"bogus\":1}"}"#
        #expect(unknownField.json() == recorded)
        #expect(try CommandAnswer(payload: Array(recorded.utf8)) == unknownField)
        let notJSON = CommandAnswer.refusal(
            "expected start, stop or a JSON object: not valid JSON (line 1, column 3: invalid token near 'not')",
            service: .gyro, payload: Array("not json".utf8))
        #expect(notJSON.json() == #"{"ok":false,"service":"gyro","error":"expected start, stop or a JSON object: not valid JSON (line 1, column 3: invalid token near 'not')","command":"not json"}"#)
        #expect(try CommandAnswer(payload: Array(#"{"ok":true}"#.utf8)) == .accepted)
        // The refused payload is quoted up to 200 bytes.
        let long = CommandAnswer.refusal("too long", service: .magnetometer, payload: Array(repeating: UInt8(ascii: "a"), count: 500))
        #expect(long.command?.utf8.count == CommandAnswer.quotedCommandLength)
    }

    @Test func statusesDecodeBack() throws {
        for status in [
            ServiceStatus(available: true, active: true, interval: 0.02),
            ServiceStatus(available: true, active: false, interval: 0.05, referenceFrame: "xMagneticNorthZVertical"),
            ServiceStatus(available: false, active: true, interval: 1, error: "the device has no magnetometer"),
        ] {
            #expect(try ServiceStatus(payload: Array(status.json().utf8)) == status)
        }
        #expect(throws: PayloadError(fieldPath: "active", reason: "is required")) {
            try ServiceStatus(payload: Array(#"{"available":true,"interval":0.02}"#.utf8))
        }
        #expect(throws: PayloadError(fieldPath: "interval", reason: "must be a number")) {
            try ServiceStatus(payload: Array(#"{"available":true,"active":true,"interval":"fast"}"#.utf8))
        }
    }

    /// A device-motion sample as the agent's fusion made it (full-precision values, a low-accuracy field).
    static let motion = DeviceMotionSample(
        timestamp: 11052.537661835,
        attitude: Quaternion(w: 0.6783676357856111, x: 0.2028646030318887, y: -0.08799801594244677, z: -0.70065658688515),
        rotationRate: SIMD3(0.16766052719067223, 0.32789033559009473, 0.23270958170061576),
        gravity: SIMD3(0.16488682866286367, -0.39854634129245725, -0.9022046040538142),
        userAcceleration: SIMD3(0.0001435161614059821, -0.00034689151042888167, -0.0007852715867400217),
        magneticField: SIMD3(7.384948744292167, 0.0024031681667380095, -47.94600481524212), magneticAccuracy: .low,
        heading: 4.010669717779691)

    /// Times exact, measurements as the single-precision floats they are written as.
    @Test func samplesDecodeBackToTheSameFloats() throws {
        let encoder = SamplePayloadEncoder(wallClockOffset: 1_796_118_483.67683)
        let samples = (0..<3).map { VectorSample(timestamp: 11052.5 + Double($0) / 200, value: SIMD3(0.1 * Double($0), -1 / 3, 9.81)) }
        for service in [MotionService.accelerometer, .gyro, .magnetometer] {
            let single = try SamplePayloadDecoder.vectors(encoder.encode([samples[0]], service: service, seq: 7), service: service)
            #expect(single.sequence == 7 && single.samples.map(\.inSinglePrecision) == [samples[0].inSinglePrecision] && !single.isBatch)
            #expect(single.unixTimes == [samples[0].timestamp + encoder.wallClockOffset])
            let batch = try SamplePayloadDecoder.vectors(encoder.encode(samples, service: service, seq: 8), service: service)
            #expect(batch.sequence == 8 && batch.samples.map(\.inSinglePrecision) == samples.map(\.inSinglePrecision) && batch.isBatch)
        }
        let motion = Self.motion
        var sixAxis = motion
        sixAxis.heading = -1
        sixAxis.magneticAccuracy = .uncalibrated
        let decoded = try SamplePayloadDecoder.deviceMotion(encoder.encode([motion, sixAxis], seq: 9))
        #expect(decoded.samples.map(\.inSinglePrecision) == [motion, sixAxis].map(\.inSinglePrecision))
        // A payload of the wrong topic, or a broken one, names the field.
        #expect(throws: PayloadError(fieldPath: "rotationRate", reason: "is required")) {
            try SamplePayloadDecoder.vectors(encoder.encode([samples[0]], service: .accelerometer, seq: 1), service: .gyro)
        }
        #expect(throws: PayloadError(fieldPath: "samples[1].timestamp", reason: "must be a number")) {
            try SamplePayloadDecoder.vectors(
                Array(#"{"seq":1,"samples":[{"timestamp":1,"ts":2,"rotationRate":{"x":0,"y":0,"z":0}},{"timestamp":"x","ts":2}]}"#.utf8),
                service: .gyro)
        }
        #expect(throws: PayloadError.self) { try SamplePayloadDecoder.vectors(Array("{\"seq\":-1}".utf8), service: .gyro) }
    }

    @Test func healthDecodesBack() throws {
        let health = HealthPayload(
            uptime: 12.346, connected: true,
            device: .init(driver: "sim", running: true, configuredRateHz: 200, achievedRateHz: 200, samples: 123_456, faults: 1, fault: "stalled"),
            mqtt: .init(
                protocolVersion: "5", published: 1234, publishErrors: 1, reconnects: 2, queueDepth: 3, queuedBytes: 456,
                droppedFromBuffer: 4, droppedWhileDisconnected: 5, expiredInBuffer: 6, queueDurable: true, commandsDropped: 7),
            services: [
                .init(service: .accelerometer, active: true, messages: 500, samples: 2000, rateHz: 50, error: nil),
                .init(service: .deviceMotion, active: false, messages: 0, samples: 0, rateHz: nil, error: "no data"),
            ],
            fusion: [.init(frame: "xMagneticNorthZVertical", initialized: true, gyroBias: SIMD3(1e-4, -2e-5, 0))])
        #expect(try HealthPayload(payload: Array(health.json().utf8)) == health)
        // Contract 1.1: the report's time and interval, absent from 1.0 agents' reports.
        var stamped = health
        stamped.ts = 1_796_139_113.457
        stamped.interval = 10
        #expect(try HealthPayload(payload: Array(stamped.json().utf8)) == stamped)
        #expect(stamped.json().hasPrefix(#"{"uptime":12.346,"ts":1796139113.457,"interval":10.0,"connected":true,"#))
        #expect(try HealthPayload(payload: Array(health.json().utf8)).ts == nil)
        // Contract 1.3: the filter's uncertainty, rounded to 0.01°.
        var uncertain = health
        uncertain.fusion[0].uncertainty = AttitudeUncertaintyEstimate(heading: 1.8349, inclination: 0.6)
        #expect(uncertain.json().contains(#""gyro_bias":{"x":0.0001,"y":-2e-05,"z":0.0},"uncertainty":{"heading":1.83,"inclination":0.6}}"#))
        #expect(try HealthPayload(payload: Array(uncertain.json().utf8)).fusion[0].uncertainty == AttitudeUncertaintyEstimate(heading: 1.83, inclination: 0.6))
        // Contract 1.4: the detectors' state and event counts; absent from older agents' reports.
        var counted = health
        counted.detectors = .init(running: true, events: ["free_fall": 3, "impact": 3, "tap": 0])
        #expect(counted.json().hasSuffix(#","detectors":{"running":true,"events":{"free_fall":3,"impact":3,"tap":0}}}"#))
        #expect(try HealthPayload(payload: Array(counted.json().utf8)) == counted)
        #expect(try HealthPayload(payload: Array(health.json().utf8)).detectors == nil)
        #expect(throws: PayloadError(fieldPath: "detectors.events.tap", reason: "must be a count (a whole number ≥ 0)")) {
            try HealthPayload(payload: Array(counted.json().replacing(#""tap":0"#, with: #""tap":-1"#).utf8))
        }
        // Contract 1.9: the wall clock, errors in ms to the microsecond, the last step in s.
        var clocked = health
        clocked.clock = .init(
            synchronized: false, estimatedError: 0.016, maximumError: 15.9, source: "systemd-timesyncd", steps: 2, lastStep: 3600.25)
        #expect(clocked.json().hasSuffix(
            #","clock":{"synchronized":false,"estimated_error_ms":16.0,"maximum_error_ms":15900.0,"source":"systemd-timesyncd","steps":2,"last_step_s":3600.25}}"#))
        #expect(try HealthPayload(payload: Array(clocked.json().utf8)) == clocked)
        #expect(try HealthPayload(payload: Array(health.json().utf8)).clock == nil)
    }

    /// Measurements are written in single precision, so a decoder that took a finite double beyond its range
    /// would hand on a value that encodes as `null` and cannot be read back (found by fuzz-payloads).
    @Test func measurementsBeyondSinglePrecisionAreRefusedByName() throws {
        let health = #"{"uptime":1,"connected":true,"device":{"running":true,"configured_rate_hz":200,"achieved_rate_hz":200,"samples":1,"faults":0},"mqtt":{"published":0,"publish_errors":0,"reconnects":0,"queue_depth":0,"queued_bytes":0,"dropped_from_buffer":0,"dropped_while_disconnected":0},"services":{},"fusion":[{"frame":"xArbitraryZVertical","initialized":true,"gyro_bias":{"x":0,"y":0,"z":1e39}}]}"#
        #expect(throws: PayloadError(fieldPath: "fusion[0].gyro_bias.z", reason: "must be a measurement within ±3.4e38")) {
            try HealthPayload(payload: Array(health.utf8))
        }
        #expect(try HealthPayload(payload: Array(health.replacingOccurrences(of: "1e39", with: "3e38").utf8)).fusion[0].gyroBias.z == 3e38)
        let gyro = #"{"seq":1,"ts":1796000000,"timestamp":1,"rotationRate":{"x":-1e300,"y":0,"z":0}}"#
        #expect(throws: PayloadError(fieldPath: "rotationRate.x", reason: "must be a measurement within ±3.4e38")) {
            try SamplePayloadDecoder.vectors(Array(gyro.utf8), service: .gyro)
        }
    }

    @Test func deviceMotionCarriesTheFiltersUncertaintyInBothFormats() throws {
        let encoder = SamplePayloadEncoder(wallClockOffset: 1_796_118_483.67683)
        var motion = Self.motion
        motion.uncertainty = AttitudeUncertaintyEstimate(heading: 2.25, inclination: 0.5)
        let json = encoder.encode([motion], seq: 3)
        #expect(String(decoding: json, as: UTF8.self).hasSuffix(#""heading":4.0106697,"uncertainty":{"heading":2.25,"inclination":0.5}}"#))
        for payload in [json, encoder.encode([motion], seq: 3, format: .cbor), encoder.encode([motion, motion], seq: 4, format: .cbor)] {
            let decoded = try SamplePayloadDecoder.deviceMotion(payload)
            #expect(decoded.samples.allSatisfy { $0.uncertainty == motion.uncertainty })
        }
        // Without one (an older agent, or a filter without an attitude yet) the field is absent and reads as nil.
        let plain = encoder.encode([Self.motion], seq: 5)
        #expect(!String(decoding: plain, as: UTF8.self).contains("uncertainty"))
        #expect(try SamplePayloadDecoder.deviceMotion(plain).samples[0].uncertainty == nil)
        #expect(throws: PayloadError(fieldPath: "uncertainty.inclination", reason: "is required")) {
            try SamplePayloadDecoder.deviceMotion(Array(plain.dropLast()) + Array(#","uncertainty":{"heading":1}}"#.utf8))
        }
    }

    @Test func commandsRoundTrip() throws {
        for command in [
            ControlCommand(active: true), ControlCommand(active: false), ControlCommand(interval: 0.05),
            ControlCommand(active: true, interval: 0.1, referenceFrame: .xArbitraryZVertical),
        ] {
            #expect(try ControlCommand.parse(command.payload(), for: .deviceMotion) == command)
        }
        #expect(String(decoding: ControlCommand(active: true).payload(), as: UTF8.self) == "start")
    }

    @Test func topicsNameTheirKind() {
        let topics = TopicLayout(prefix: "motion", deviceID: "pi-4")
        #expect(topics.kind(ofTopic: "motion/pi-4/status") == .availability)
        #expect(topics.kind(ofTopic: "motion/pi-4/info") == .info)
        #expect(topics.kind(ofTopic: "motion/pi-4/health") == .health)
        #expect(topics.kind(ofTopic: "motion/pi-4/error") == .error)
        #expect(topics.kind(ofTopic: "motion/pi-4/device-motion") == .data(.deviceMotion))
        #expect(topics.kind(ofTopic: "motion/pi-4/gyro/status") == .status(.gyro))
        #expect(topics.kind(ofTopic: "motion/pi-4/gyro/set") == .control(.gyro))
        #expect(topics.kind(ofTopic: "motion/pi-4/config") == .configuration)
        #expect(topics.kind(ofTopic: "motion/pi-4/config/set") == .configurationControl)
        #expect(topics.kind(ofTopic: "motion/pi-4/config/status") == nil)
        #expect(topics.kind(ofTopic: "motion/pi-4/compass") == nil)
        #expect(topics.kind(ofTopic: "motion/pi-5/gyro") == nil)
        #expect(TopicLayout.deviceID(inTopic: "motion/pi-4/gyro", prefix: "motion") == "pi-4")
        #expect(TopicLayout.deviceID(inTopic: "other/pi-4/gyro", prefix: "motion") == nil)
        #expect(ContractVersion.text == "1.9")
    }
}

/// Home Assistant discovery payloads as values: topics, keys and templates.
@Suite struct HomeAssistantDiscoveryPayloadTests {
    @Test func sensorsPerServiceWithTheirTopicsAndAvailability() throws {
        let discovery = HomeAssistantDiscovery(
            discoveryPrefix: "homeassistant", topics: TopicLayout(prefix: "motion", deviceID: "shelf-3"),
            model: "ICM-20948", version: "1.2.0")
        #expect(discovery.sensors(of: .gyro).map(\.topic) == ["x", "y", "z", "rate"].map { "homeassistant/sensor/shelf-3/gyro_\($0)/config" })
        #expect(discovery.sensors(of: .deviceMotion).map(\.topic).map { $0.split(separator: "/")[3] } == ["roll", "pitch", "heading", "device-motion_rate"])
        let x = try #require(discovery.sensors(of: .accelerometer).first).payload
        #expect(x.hasPrefix(#"{"name":"Acceleration x","unique_id":"motionbridge_shelf-3_accelerometer_x","state_topic":"motion/shelf-3/accelerometer","#))
        #expect(x.contains(#""unit_of_measurement":"g","state_class":"measurement","availability":[{"topic":"motion/shelf-3/status","payload_available":"online","payload_not_available":"offline"},{"topic":"motion/shelf-3/accelerometer/status","#))
        #expect(x.contains(#""device":{"identifiers":["motionbridge_shelf-3"],"name":"shelf-3","manufacturer":"MotionBridge","model":"ICM-20948","sw_version":"1.2.0"}"#))
        let rate = try #require(discovery.sensors(of: .magnetometer).last).payload
        #expect(rate.contains(#""state_topic":"motion/shelf-3/health""#) && rate.contains(#""device_class":"frequency","entity_category":"diagnostic""#))
    }
}

/// A sample's measurements rounded to single precision (its time kept): what a subscriber reads back.
private func singlePrecision(_ value: Double) -> Double { Double(Float(value)) }
private func singlePrecision(_ value: SIMD3<Double>) -> SIMD3<Double> { SIMD3(singlePrecision(value.x), singlePrecision(value.y), singlePrecision(value.z)) }

extension VectorSample {
    fileprivate var inSinglePrecision: VectorSample { VectorSample(timestamp: timestamp, value: singlePrecision(value)) }
}

extension DeviceMotionSample {
    fileprivate var inSinglePrecision: DeviceMotionSample {
        DeviceMotionSample(
            timestamp: timestamp,
            attitude: Quaternion(
                w: singlePrecision(attitude.w), x: singlePrecision(attitude.x), y: singlePrecision(attitude.y), z: singlePrecision(attitude.z)),
            rotationRate: singlePrecision(rotationRate), gravity: singlePrecision(gravity),
            userAcceleration: singlePrecision(userAcceleration), magneticField: singlePrecision(magneticField),
            magneticAccuracy: magneticAccuracy, heading: singlePrecision(heading))
    }
}
