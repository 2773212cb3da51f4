import MotionContract
@testable import MotionFleet
import Testing

/// The fleet ledger on messages as the contract writes them: availability with staleness, services,
/// rates, losses, and health highlights; and the device patterns.
@Suite struct FleetLedgerTests {
    private static let now = 1_796_139_113.0

    private static func health(ts: Double?, interval: Double?, reconnects: Int = 0, dropped: Int = 0, fault: String? = nil) -> [UInt8] {
        Array(HealthPayload(
            uptime: 60, ts: ts, interval: interval, connected: true,
            device: .init(driver: "sim", running: true, configuredRateHz: 200, achievedRateHz: 200, samples: 12_000, faults: fault == nil ? 0 : 1, fault: fault),
            mqtt: .init(
                protocolVersion: "5", published: 100, publishErrors: 0, reconnects: reconnects, queueDepth: 3, queuedBytes: 300,
                droppedFromBuffer: dropped, droppedWhileDisconnected: 0, expiredInBuffer: 0, queueDurable: false, commandsDropped: 0),
            services: [], fusion: []
        ).json().utf8)
    }

    private static func info(_ id: String) -> [UInt8] {
        Array(InfoPayload(
            agent: "motion-agent", version: "1.4.0", deviceID: id,
            device: .init(specification: "sim", driver: "sim", chip: "simulated 9-axis IMU", sampleRateHz: 200),
            services: [], started: "2026-12-01T15:00:00Z"
        ).json().utf8)
    }

    private static func gyro(seq: UInt64) -> [UInt8] {
        SamplePayloadEncoder(wallClockOffset: now).encode(
            [VectorSample(timestamp: 1, value: SIMD3(0.1, 0, 0))], service: .gyro, seq: seq)
    }

    /// A ledger with `id` announced as `availability` and its retained info, gyro status and health.
    private static func ledger(_ entries: [(id: String, availability: String, healthTs: Double?)]) -> FleetLedger {
        var ledger = FleetLedger(prefix: "motion")
        for entry in entries {
            let base = "motion/\(entry.id)"
            ledger.receive(topic: "\(base)/status", payload: Array(entry.availability.utf8), retained: true, arrival: now - 1)
            ledger.receive(topic: "\(base)/info", payload: info(entry.id), retained: true, arrival: now - 1)
            ledger.receive(
                topic: "\(base)/gyro/status", payload: Array(ServiceStatus(available: true, active: true, interval: 0.02).json().utf8),
                retained: true, arrival: now - 1)
            ledger.receive(topic: "\(base)/health", payload: health(ts: entry.healthTs, interval: 10), retained: true, arrival: now - 1)
        }
        return ledger
    }

    @Test("online, offline and stale: a retained online with a report older than 3 intervals is stale")
    func statesFollowAvailabilityAndTheLastReport() {
        let ledger = Self.ledger([
            ("fresh", "online", Self.now - 25), ("old", "online", Self.now - 31), ("gone", "offline", Self.now - 500),
        ])
        let states = ledger.summaries(now: Self.now, listened: 2).map { "\($0.deviceID) \($0.state.rawValue)" }
        #expect(states == ["fresh online", "gone offline", "old stale"])
        let fresh = ledger.summaries(matching: try! DevicePattern("fresh"), now: Self.now, listened: 2)[0]
        #expect(fresh.started == "2026-12-01T15:00:00Z" && fresh.agentVersion == "1.4.0" && fresh.imu == "simulated 9-axis IMU")
        #expect(fresh.lastSeen == Self.now - 25 && fresh.healthInterval == 10)
        #expect(fresh.services.map(\.state) == ["unknown", "active", "unknown", "unknown"])
        #expect(fresh.services[1].status?.publishedRateHz == 50)
        #expect(fresh.health == DeviceSummary.Health(faults: 0, fault: nil, reconnects: 0, queueDepth: 3, dropped: 0, uptime: 60))
    }

    @Test("live data keeps a device online whose last report is old, and gives the measured rate and the losses")
    func liveDataIsASignOfLife() {
        var ledger = Self.ledger([("busy", "online", Self.now - 100)])
        for seq: UInt64 in [1, 2, 3, 7, 8] {  // 4, 5 and 6 lost
            ledger.receive(topic: "motion/busy/gyro", payload: Self.gyro(seq: seq), retained: false, arrival: Self.now - 0.5)
        }
        let busy = ledger.summaries(now: Self.now, listened: 2)[0]
        #expect(busy.state == .online && busy.lastSeen == Self.now - 0.5)
        #expect(busy.services[1].measuredRate == 2.5 && busy.services[1].lost == 3)
        #expect(busy.services[0].measuredRate == 0)
        // A retained data message (some other client's) is not a sign of life.
        var replayed = Self.ledger([("quiet", "online", Self.now - 100)])
        replayed.receive(topic: "motion/quiet/gyro", payload: Self.gyro(seq: 1), retained: true, arrival: Self.now)
        #expect(replayed.summaries(now: Self.now, listened: 2)[0].state == .stale)
    }

    @Test("without health reports staleness is not judged; a cleared report is forgotten; garbage is ignored")
    func edgeCases() {
        var ledger = FleetLedger(prefix: "motion")
        ledger.receive(topic: "motion/old-agent/status", payload: Array("online".utf8), retained: true, arrival: Self.now - 1)
        ledger.receive(topic: "motion/old-agent/health", payload: Self.health(ts: nil, interval: nil), retained: true, arrival: Self.now - 1)
        ledger.receive(topic: "motion/silent/status", payload: Array("online".utf8), retained: true, arrival: Self.now - 1)
        ledger.receive(topic: "motion/silent/health", payload: Self.health(ts: Self.now - 999, interval: 1), retained: true, arrival: Self.now - 1)
        ledger.receive(topic: "motion/silent/health", payload: [], retained: true, arrival: Self.now - 1)
        ledger.receive(topic: "motion/silent/info", payload: Array("{not json".utf8), retained: true, arrival: Self.now - 1)
        ledger.receive(topic: "motion/stray/gyro", payload: Self.gyro(seq: 1), retained: false, arrival: Self.now - 1)
        ledger.receive(topic: "elsewhere/x/status", payload: Array("online".utf8), retained: true, arrival: Self.now - 1)
        let summaries = ledger.summaries(now: Self.now, listened: 1)
        #expect(summaries.map { "\($0.deviceID) \($0.state.rawValue)" } == ["old-agent online", "silent online", "stray unknown"])
        #expect(summaries[1].health == nil && summaries[1].started == nil)
    }

    @Test func tableAndJSONForms() {
        let ledger = Self.ledger([("fresh", "online", Self.now - 25), ("gone", "offline", Self.now - 500)])
        let summaries = ledger.summaries(now: Self.now, listened: 2)
        let table = FleetTable.render(summaries, now: Self.now).split(separator: "\n").map(String.init)
        #expect(table.count == 3)
        #expect(table[0].hasPrefix("DEVICE  STATE    STARTED (UTC)"))
        #expect(table[1].hasPrefix("fresh   online   12-01 15:00:00  25s ago    1.4.0, contract \(ContractVersion.text)  simulated 9-axis IMU @ 200 Hz  acc unknown  gyro 50/0"), "\(table[1])")
        #expect(table[1].contains("gyro 50/0") && table[1].hasSuffix("3 buffered"), "\(table[1])")
        #expect(table[2].hasPrefix("gone    offline") && table[2].contains("8m ago"), "\(table[2])")
        let json = FleetTable.json(summaries, now: Self.now)
        #expect(json.hasPrefix(#"{"ts":1796139113.0,"devices":[{"device":"fresh","state":"online","started":"2026-12-01T15:00:00Z","last_seen":1796139088.0,"health_interval":10.0,"agent_version":"1.4.0","contract":"\#(ContractVersion.text)""#), "\(json)")
        #expect(json.contains(#""gyro":{"state":"active","configured_rate_hz":50.0,"measured_rate_hz":0.0,"lost":0}"#), "\(json)")
    }

    @Test("the agent column says which contract a device speaks, and marks another major version")
    func contractVersions() {
        var summary = DeviceSummary(
            deviceID: "a", state: .online, started: nil, lastSeen: nil, healthInterval: nil, agentVersion: "0.9.0",
            contractVersion: nil, imu: nil, sampleRateHz: nil, services: [], health: nil)
        #expect(FleetTable.agent(summary) == "0.9.0")
        summary.contractVersion = "\(ContractVersion.major).99"
        #expect(FleetTable.agent(summary) == "0.9.0, contract \(ContractVersion.major).99")
        summary.contractVersion = "\(ContractVersion.major + 1).0"
        #expect(FleetTable.agent(summary) == "0.9.0, contract \(ContractVersion.major + 1).0 (not \(ContractVersion.major).x)")
        summary.contractVersion = "1.7\u{1B}[2J"
        #expect(!FleetTable.agent(summary).contains("\u{1B}"))
    }

    @Test("device patterns are shell globs over device ids, checked for characters no id has")
    func patterns() throws {
        let pattern = try DevicePattern("board-[1-3]*")
        #expect(pattern.matches("board-1") && pattern.matches("board-27") && !pattern.matches("board-4") && !pattern.matches("xboard-1"))
        #expect(try DevicePattern("shelf-?").matches("shelf-a") && !(try DevicePattern("shelf-?").matches("shelf-ab")))
        #expect(try DevicePattern("exact").isLiteral && !(try DevicePattern("ex*").isLiteral))
        #expect(DevicePattern.all.matches("anything"))
        for bad in ["", "Board", "a/b", "a+b", "a b"] {
            #expect(throws: DevicePatternError.self, "\(bad)") { try DevicePattern(bad) }
        }
    }
}
