import MotionContract
@testable import MotionFleet
import Testing

/// Issue 29, F2 and F14: what a hostile device publishes in its own subtree (info, status, health, events,
/// states) as `motionctl devices`, `events` and `config get` show it. A device can publish anything there, so
/// its text must neither draw rows for other devices nor reach the terminal as control sequences.
@Suite struct HostileDeviceTextTests {
    static let now = 1_796_139_113.0
    /// A line break that would draw a row for `dev-b`, ESC (colour, cursor), an OSC title, CR, a C1 CSI and
    /// a right-to-left override.
    static let forgedRow = "chip\ndev-b     online  12-01 16:02:52  0s ago  0.1.0  faked"
    static let terminalSequences = "\u{1b}[2J\u{1b}]0;owned\u{07}\r\u{9b}31m\u{202e}"

    static func info(chip: String, version: String = "1.0", started: String = "2026-12-01T15:00:00Z") -> [UInt8] {
        Array(InfoPayload(
            agent: "motion-agent", version: version, deviceID: "x",
            device: .init(specification: "sim", driver: "sim", chip: chip, sampleRateHz: 200), services: [], started: started
        ).json().utf8)
    }

    /// Every character that reaches the screen is printable or a line break of the renderer's own.
    static func expectPrintable(_ output: String, lines expected: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = output.unicodeScalars.filter { scalar in
            scalar != "\n" && [.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
        }
        #expect(controls.isEmpty, "control characters reach the terminal: \(controls.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
        #expect(output.split(separator: "\n", omittingEmptySubsequences: false).count == expected + 1, "\(output)", sourceLocation: sourceLocation)
    }

    @Test("motionctl devices: a device's info, health and id cannot add rows or control the terminal")
    func theDeviceTableEscapesWhatDevicesSend() {
        var ledger = FleetLedger(prefix: "motion")
        let hostile = "evil\u{1b}[31m"
        ledger.receive(topic: "motion/\(hostile)/status", payload: Array("online".utf8), retained: true, arrival: Self.now)
        ledger.receive(topic: "motion/\(hostile)/info", payload: Self.info(chip: Self.forgedRow, version: Self.terminalSequences), retained: true, arrival: Self.now)
        ledger.receive(topic: "motion/dev-a/status", payload: Array("online".utf8), retained: true, arrival: Self.now)
        ledger.receive(topic: "motion/dev-a/info", payload: Self.info(chip: "real chip"), retained: true, arrival: Self.now)
        let table = FleetTable.render(ledger.summaries(now: Self.now, listened: 1), now: Self.now)
        Self.expectPrintable(table, lines: 3)
        #expect(!table.split(separator: "\n").contains { $0.hasPrefix("dev-b") }, "a forged row: \(table)")
        #expect(table.contains("chip\\u{a}dev-b"), "the line break is shown as an escape")
        #expect(table.contains("evil\\u{1b}[31m"))
    }

    @Test("a 60,000-character device id is cut, not padded into every row; a bad start time and rate show ?")
    func hugeIdsBadTimesAndRatesStayReadable() {
        var ledger = FleetLedger(prefix: "motion")
        let long = String(repeating: "a", count: 60_000)
        for id in [long, "dev-a"] {
            ledger.receive(topic: "motion/\(id)/status", payload: Array("online".utf8), retained: true, arrival: Self.now)
        }
        ledger.receive(topic: "motion/dev-a/info", payload: Self.info(chip: "c", started: "2026-12-01\n15:00:00Zjunkjunk"), retained: true, arrival: Self.now)
        ledger.receive(topic: "motion/dev-a/gyro/status", payload: Array(#"{"available":true,"active":true,"interval":1e-320,"rate_hz":0}"#.utf8),
                       retained: true, arrival: Self.now)
        let table = FleetTable.render(ledger.summaries(now: Self.now, listened: 1), now: Self.now)
        #expect(table.utf8.count < 1_000, "\(table.utf8.count) bytes")
        #expect(table.contains("aaaa… (60000 bytes)"))
        let row = table.split(separator: "\n").first { $0.hasPrefix("dev-a") } ?? ""
        #expect(row.contains(" ? ") && row.contains("gyro ?") && !row.contains("inf"), "\(row)")
        #expect(FleetTable.shortTime("2026-12-01T15:31:53.25+01:00") == "12-01 15:31:53")
        for bad in ["", "2026-12-01", "2026-12-01T15:31:5", "2026-12-01 15:31:53Z", "２０２６-12-01T15:31:53Z", "\u{1b}026-12-01T15:31:53Z"] {
            #expect(FleetTable.shortTime(bad) == "?", "\(bad)")
        }
    }

    @Test("motionctl events: an unknown event type is skipped; ids and states are escaped")
    func theEventLogSkipsUnknownTypesAndEscapes() throws {
        let log = FleetEventLog(prefix: "motion", includesStates: true)
        let unknown = #"{"seq":1,"type":"teleport\u001b[2J","timestamp":1,"ts":1796139113,"duration":0.1,"magnitude":1,"unit":"g"}"#
        #expect(log.entry(topic: "motion/dev-a/events", payload: Array(unknown.utf8)) == nil, "the contract: skip a type you do not know")
        let later = #"{"seq":1,"type":"levitation","timestamp":1,"ts":1796139113,"duration":0.1,"magnitude":1,"unit":"g"}"#
        #expect(log.entry(topic: "motion/dev-a/events", payload: Array(later.utf8)) == nil, "a later minor version's type")
        let impact = #"{"seq":2,"type":"impact","timestamp":1,"ts":1796139113,"duration":0.1,"magnitude":3,"unit":"g\r\u001b[1A"}"#
        let event = try #require(log.entry(topic: "motion/dev\u{1b}]0;x\u{07}/events", payload: Array(impact.utf8)))
        Self.expectPrintable(FleetEventLog.text(event), lines: 0)
        let state = #"{"timestamp":1,"ts":1796139113,"orientation":"face_up\ndev-b  moving"}"#
        let entry = try #require(log.entry(topic: "motion/dev-a/state/orientation", payload: Array(state.utf8)))
        Self.expectPrintable(FleetEventLog.text(entry), lines: 0)
    }

    @Test("command results and motionctl config get escape the devices' answers and values")
    func roundResultsAndConfigurationTablesEscape() throws {
        var round = CommandRound(token: "t", devices: [("dev-a", true)])
        let refusal = Array(#"{"ok":false,"error":"no\ndev-b       ok\u001b[2K"}"#.utf8)
        round.receive(answer: refusal, topic: round.responseTopic(for: "dev-a"), correlationData: round.correlationData(for: "dev-a"))
        Self.expectPrintable(round.render(), lines: 2)
        let report = #"{"version":1,"hash":"\#(String(repeating: "ab", count: 32))","ts":1796139113,"config":{"services":{"gyro":{"mode":"x\ny"}}},"sources":{},"error":"e\r"}"#
        let table = ConfigurationTable.render(try ConfigurationReport(payload: Array(report.utf8)), deviceID: "dev-a")
        #expect(!table.unicodeScalars.contains { $0 == "\u{1b}" || $0 == "\r" } && table.contains("x\\u{a}y"), "\(table)")
    }
}
