import Testing

import MotionContract

@testable import motionctl

/// `motionctl watch`'s live table, from payloads as the broker delivers them.
@Suite struct WatchBoardTests {
    @Test func watchBoardShowsValuesRatesAndLoss() {
        let board = WatchBoard(prefix: "motion", rateWindow: 1)
        board.receive(topic: "motion/pi/status", payload: Array("online".utf8), arrival: 0)
        board.receive(topic: "motion/pi/gyro/status", payload: Array(#"{"available":true,"active":true,"interval":0.1,"rate_hz":10}"#.utf8), arrival: 0)
        board.receive(topic: "motion/pi/magnetometer/status",
                      payload: Array(#"{"available":false,"active":false,"interval":0.1,"rate_hz":10,"error":"no magnetometer"}"#.utf8), arrival: 0)
        for (index, seq) in [1, 2, 3, 4, 5, 8, 9, 10].enumerated() {
            board.receive(topic: "motion/pi/gyro", payload: Array(#"{"seq":\#(seq),"timestamp":\#(seq),"ts":\#(seq),"rotationRate":{"x":0.5,"y":-1,"z":0.125}}"#.utf8),
                          arrival: 0.1 * Double(index + 1))
        }
        let table = board.render(now: 0.85)
        #expect(table.contains("motion/pi  [online]"))
        #expect(table.contains("active @ 10 Hz"))
        #expect(table.contains("unavailable: no magnetometer"))
        #expect(table.contains("x   +0.500  y   -1.000  z   +0.125 rad/s"))
        #expect(table.contains("(2 lost)"))
        #expect(table.contains("8.0"), "8 messages within the last second: \(table)")
        #expect(!table.contains("detectors"), "no detector line before the device has states or events")
    }

    @Test func watchBoardShowsTheDetectorsStatesAndTheLastEvent() {
        let board = WatchBoard(prefix: "motion", rateWindow: 1)
        board.receive(topic: "motion/crate/status", payload: Array("online".utf8), arrival: 0)
        for (name, fields) in [("moving", #""moving":false"#), ("orientation", #""orientation":"face_up""#),
                               ("tilt", #""tilted":true,"angle":34.25"#)] {
            board.receive(topic: "motion/crate/state/\(name)", payload: Array(#"{"timestamp":1,"ts":2,\#(fields)}"#.utf8), arrival: 0)
        }
        #expect(board.render(now: 1).contains("detectors      still · face_up · tilted 34.3°   no event yet"), "\(board.render(now: 1))")
        board.receive(topic: "motion/crate/events", payload: Array(#"{"seq":1,"type":"impact","timestamp":5,"ts":6,"duration":0.035,"magnitude":18.6,"unit":"g"}"#.utf8), arrival: 10)
        board.receive(topic: "motion/crate/state/tilt", payload: [], arrival: 11)  // switched off: removed
        #expect(board.render(now: 13).contains("detectors      still · face_up   last event impact 18.6 g in 0.035 s, 3 s ago"), "\(board.render(now: 13))")
        board.receive(topic: "motion/crate/events", payload: Array(#"{"seq":2,"type":"levitation","timestamp":5,"ts":6,"duration":1,"magnitude":1,"unit":"m"}"#.utf8), arrival: 12)
        #expect(board.render(now: 13).contains("last event impact"), "an event type this version does not know is skipped, as the contract says")
    }

    /// Issue 29, F2: a device's status, info, service status, states and events reach the terminal escaped.
    @Test func whatADeviceSendsIsEscaped() {
        let board = WatchBoard(prefix: "motion", rateWindow: 1)
        let hostile = "\u{1b}]0;owned\u{07}\r\nmotion/dev-b  [online]"
        board.receive(topic: "motion/evil\u{1b}[2J/status", payload: Array(hostile.utf8), arrival: 0)
        board.receive(topic: "motion/evil\u{1b}[2J/gyro/status",
                      payload: Array(#"{"available":false,"active":false,"interval":0.1,"rate_hz":10,"error":"x\n\u001b[1A"}"#.utf8), arrival: 0)
        board.receive(topic: "motion/evil\u{1b}[2J/state/orientation", payload: Array(#"{"timestamp":1,"ts":2,"orientation":"up\r\u001b[K"}"#.utf8), arrival: 0)
        let table = board.render(now: 1)
        #expect(!table.unicodeScalars.contains { $0 == "\u{1b}" || $0 == "\r" || $0 == "\u{07}" }, "\(table)")
        #expect(!table.split(separator: "\n").contains { $0.hasPrefix("motion/dev-b") }, "a forged device line: \(table)")
    }
}

/// `motionctl watch DEVICE [SERVICE]`'s charts, from payloads as the broker delivers them.
@Suite struct ChartBoardTests {
    @Test("a chart puts the newest value at the right edge, between its scale's minimum and maximum")
    func aChartScalesAndScrolls() {
        let chart = TextChart(title: "x", unit: "rad/s", window: 10)
        let points = (0..<100).map { (time: Double($0) * 0.1, value: Double($0 % 20) - 10) }  // a saw tooth
        let lines = chart.render(points, now: 10, width: 60, height: 8)
        #expect(lines.count == 9 && lines.allSatisfy { $0.count <= 60 })
        #expect(lines[0] == "x (rad/s)  now +9.000")
        #expect(lines[1].hasPrefix("    +9.000│") && lines[8].hasPrefix("    -10.00│"), "\(lines.joined(separator: "\n"))")
        #expect(lines[1].hasSuffix("•"), "the newest value is the maximum: top right")
        #expect(lines.dropFirst().allSatisfy { $0.contains("│") })
        #expect(chart.render([], now: 10, width: 60, height: 4)[0] == "x (rad/s)  no data")
        #expect(TextChart.format(-12.3456) == "-12.35" && TextChart.format(123_456) == "+1.2e5" && TextChart.format(0.0001) == "+1.0e-4")
    }

    @Test("the device-motion view: roll, pitch and yaw charts, heading, measured rate and losses in 80×24")
    func theAttitudeView() {
        let board = ChartBoard(topics: TopicLayout(prefix: "motion", deviceID: "pi"), service: .deviceMotion, window: 10)
        board.receive(topic: "motion/pi/status", payload: Array("online".utf8), arrival: 0)
        board.receive(topic: "motion/pi/device-motion/status", payload: Array(#"{"available":true,"active":true,"interval":0.1,"rate_hz":10}"#.utf8), arrival: 0)
        for (index, seq) in [1, 2, 3, 6, 7].enumerated() {
            let payload = #"{"seq":\#(seq),"timestamp":\#(100 + Double(index) * 0.1),"ts":1.0,"attitude":{"quaternion":{"x":0,"y":0,"z":0.3826834,"w":0.9238795},"roll":0,"pitch":0,"yaw":0.785398},"rotationRate":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1},"userAcceleration":{"x":0,"y":0,"z":0},"magneticField":{"field":{"x":20,"y":0,"z":-40},"accuracy":"low"},"heading":315.0}"#
            board.receive(topic: "motion/pi/device-motion", payload: Array(payload.utf8), arrival: 1 + Double(index) * 0.1)
        }
        let screen = board.render(now: 1.5, width: 80, height: 24).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(screen.count <= 24 && screen.allSatisfy { $0.count <= 80 }, "\(screen.count) lines")
        #expect(screen[0] == "motion/pi [online]  device-motion: active @ +10.00 Hz")
        #expect(screen[1] == "measured +2.500 msg/s  lost 2  heading +315.0°")
        #expect(screen.contains { $0.hasPrefix("roll (°)") } && screen.contains { $0.hasPrefix("pitch (°)") })
        #expect(screen.contains("yaw (°)  now +45.00"), "\(screen.joined(separator: "\n"))")
    }
}
