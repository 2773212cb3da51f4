import AgentTestSupport
import Foundation
import MotionContract
import MotionTestSupport
import Testing

@testable import motionctl

/// `motionctl vibration DEVICE`: the view and the plot from decoded payloads, and the command against a real
/// mosquitto and a real agent on the simulator's class II machine at 1480 rpm and 5.0 mm/s.
@Suite struct VibrationCommandTests {
    static let resolution = 2000.0 / 2048

    /// A summary as the agent sends it for the simulated machine.
    static func summary(seq: UInt64, ts: Double, velocity: Double = 5.02) -> VibrationPayload {
        VibrationPayload(
            seq: seq, timestamp: 100 + ts, ts: 1_796_000_000 + ts, duration: 2, rate: 2000, band: 10...781.25, velocity: SIMD3(4.21, 1.12, 2.5),
            velocityRMS: velocity,
            levels: .init(acceleration: SIMD3(0.07, 0.06, 0.05), accelerationRMS: 0.112, peak: SIMD3(0.2, 0.17, 0.13), peakVector: 0.31, kurtosis: SIMD3(1.9, 2.1, 1.5)),
            zone: "C", previousZone: seq == 2 ? "B" : nil, limits: .init(ab: 1.12, bc: 2.8, cd: 7.1), machineClass: 2,
            runningSpeed: .init(frequency: 24.67, source: .estimated), peaks: peaks)
    }

    /// 1×, 2× and a bearing tone at 3.57×.
    static let peaks: [VibrationPayload.Peak] = [
        .init(frequency: 24.67, amplitude: 0.0768, velocity: 4.18, order: 1, axis: "x"),
        .init(frequency: 49.34, amplitude: 0.02, velocity: 0.55, order: 2, axis: "x"),
        .init(frequency: 88.07, amplitude: 0.005, velocity: 0.08, order: 3.57, axis: "y"),
    ]

    /// A spectrum of 800 lines with those peaks over a floor of a few tenths of a mg.
    static var spectrum: VibrationSpectrumPayload {
        var x = (0..<800).map { 0.3 + 0.1 * Double($0 % 7) }, y = x, z = x
        x[25] = 76.8
        x[51] = 20
        y[90] = 5
        z[0] = 0
        return VibrationSpectrumPayload(
            seq: 3, timestamp: 104, ts: 1_796_000_004, rate: 2000, resolution: resolution, averages: 8, band: 10...781.25, axes: (x, y, z),
            runningSpeed: .init(frequency: 24.67, source: .estimated), peaks: peaks)
    }

    @Test("the view shows the zone, the levels, the spectrum with its peaks and the peak table; the plot has both panels")
    func theViewAndThePlotFromDecodedPayloads() throws {
        let topics = TopicLayout(prefix: "motion", deviceID: "pump-1")
        let board = VibrationBoard(topics: topics)
        #expect(board.receive(topic: topics.status, payload: Array("online".utf8)) == .other)
        #expect(board.receive(topic: topics.status(.vibration), payload: Array(ServiceStatus(available: true, active: true, interval: 2).json().utf8)) == .other)
        #expect(board.receive(topic: topics.data(.vibration), payload: Self.summary(seq: 1, ts: 0, velocity: 4.5).encoded()) == .summary)
        #expect(board.receive(topic: topics.vibrationSpectrum, payload: Self.spectrum.encoded(.cbor)) == .spectrum, "CBOR is read too")
        #expect(board.receive(topic: topics.data(.vibration), payload: Self.summary(seq: 2, ts: 2).encoded(.cbor)) == .summary)
        #expect(board.receive(topic: topics.data(.accelerometer), payload: []) == nil)
        let view = board.snapshot
        #expect(view.trend.count == 2 && view.trend[0].y == 4.5 && abs(view.trend[1].y - 5.02) < 1e-6, "CBOR carries single precision: \(view.trend)")

        let lines = view.render(width: 80, height: 30).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 } && lines.count <= 30, "\(lines.count) lines")
        #expect(lines[0] == "motion/pump-1 [online]  vibration: active, a summary every 2 s  summaries 2")
        #expect(lines[1] == "zone C  (was B)  limits A/B 1.12, B/C 2.8, C/D 7.1 mm/s, machine class 2", "\(lines[1])")
        #expect(lines[2] == "velocity RMS 5.02 mm/s (x 4.21, y 1.12, z 2.50)  acceleration RMS 0.112 g")
        #expect(lines[3] == "crest factor 2.77  kurtosis max 2.10  running speed 1480 rpm (estimated)", "\(lines[3])")
        #expect(lines.contains { $0.hasPrefix("spectrum #3: 800 lines × 0.977 Hz, 8 averages") })
        let chart = lines.filter { $0.contains("│") }
        #expect(chart.first?.hasPrefix("  76.82 mg│  █") == true, "the 1× line is the top of the scale:\n\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.hasPrefix("         0└┴") } && lines.contains { $0.hasPrefix("           0 ") && $0.hasSuffix(" Hz") })
        #expect(lines.first { $0.hasPrefix("     peaks ") }.map { $0.filter { $0 == "▲" }.count } == 3, "three peaks marked")
        let oneTimes = try #require(lines.first { $0.hasPrefix(" 1 ") }).split(separator: " ")
        #expect(oneTimes == ["1", "24.67", "Hz", "76.8", "mg", "4.18", "mm/s", "1×", "x"], "\(oneTimes)")
        #expect(lines.contains { $0.hasPrefix(" 3 ") && $0.contains("3.57×") })

        // The plot: the spectrum's three axes and the trend, the peaks by their order, the zones' bands.
        let svg = try Self.parse(VibrationPlot.svg(view))
        #expect(svg.polylines == [799, 799, 799, 2], "three axes without line 0, two summaries: \(svg.polylines)")
        for label in ["1×", "2×", "3.57×", "A", "B", "C", "D", "frequency, Hz", "acceleration RMS per line, mg", "velocity RMS, mm/s", "0.1", "100"] {
            #expect(svg.texts.contains(label), "\(label) in \(svg.texts)")
        }
        let empty = try Self.parse(VibrationPlot.svg(VibrationView(topics: topics)))
        #expect(empty.polylines.isEmpty, "\(empty.polylines)")
        #expect(empty.texts.contains("no spectrum received") && empty.texts.contains("no summary received"))
    }

    @Test("what a device sends reaches the terminal escaped, and a spectrum that cannot be drawn is skipped")
    func whatADeviceSendsIsEscaped() {
        let topics = TopicLayout(prefix: "motion", deviceID: "evil")
        let board = VibrationBoard(topics: topics)
        board.receive(topic: topics.status, payload: Array("online\u{1b}]0;owned\u{07}\r\nzone A".utf8))
        board.receive(topic: topics.status(.vibration), payload: Array(#"{"available":false,"active":false,"interval":2,"rate_hz":0.5,"error":"x\n\u001b[1A"}"#.utf8))
        var spectrum = Self.spectrum
        spectrum.resolution = 0
        #expect(board.receive(topic: topics.vibrationSpectrum, payload: spectrum.encoded()) == nil)
        board.receive(topic: topics.data(.vibration), payload: Self.summary(seq: 1, ts: 0).encoded())
        let text = board.snapshot.render()
        #expect(!text.unicodeScalars.contains { $0 == "\u{1b}" || $0 == "\r" || $0 == "\u{07}" }, "\(text.debugDescription)")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("zone A") }, "a forged line: \(text)")
        #expect(text.contains("spectrum: none yet") && text.contains("resolution of 0.0 Hz was skipped"), "\(text)")
    }

    @Test("usage errors name the option and exit 64; too few summaries before --timeout exit 1 and still write the plot")
    func usageErrorsAndTimeout() throws {
        for (arguments, expected) in [
            (["vibration"], "vibration takes one DEVICE_ID"), (["vibration", "a/b"], "DEVICE_ID a/b is not one topic level"),
            (["vibration", "pump", "--count", "0"], "--count"), (["vibration", "pump", "--timeout", "soon"], "--timeout"),
            (["vibration", "pump", "--plot", "/nonexistent/plot.svg"], "--plot: no directory /nonexistent"),
        ] {
            let run = try AgentProcess.run("motionctl", arguments: arguments)
            #expect(run.status == 64 && run.log.contains(expected), "\(arguments): \(run.status.map(String.init) ?? "running") \(run.log)")
        }
        let broker = try MosquittoBroker()
        let plot = FileManager.default.temporaryDirectory.appendingPathComponent("vibration-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: plot) }
        let run = try AgentProcess.run(
            "motionctl", arguments: ["vibration", "nobody", "--broker", broker.url, "--timeout", "1", "--plot", plot], timeout: .seconds(15))
        #expect(run.status == 1 && run.log.contains("0 of 1 summary from motion/nobody within 1 s"), "\(run.log)")
        #expect(try Self.parse(String(contentsOfFile: plot, encoding: .utf8)).texts.contains("no spectrum received"))
    }

    @Test("against the real agent: zone C at 5 mm/s, the 1× peak at 24.7 Hz, the spectrum on request, and the plot")
    func followsTheSimulatedMachine() throws {
        let running = try RunningAgent.start(
            configuration: #"{"services": {"vibration": {"enabled": true, "interval": 2}}}"#, device: "sim:motion=machine,rpm=1480,severity=5.0,rate=2000")
        defer { running.cleanUp() }
        let plot = FileManager.default.temporaryDirectory.appendingPathComponent("vibration-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: plot) }
        let run = try AgentProcess.run(
            "motionctl", arguments: ["vibration", running.deviceID, "--broker", running.broker.url, "--count", "2", "--timeout", "30", "--plot", plot],
            timeout: .seconds(45))
        #expect(run.status == 0, "\(run.log)")
        let views = run.output.components(separatedBy: "----\n").filter { !$0.isEmpty }
        #expect(views.count == 2, "one view per summary: \(run.output)")
        let lines = try #require(views.last).split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("\(running.deviceID) [online]") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("zone C ") && $0.hasSuffix("machine class 2") }, "\(lines)")
        let velocityLine = try #require(lines.first { $0.hasPrefix("velocity RMS ") })
        let velocity = try #require(Double(velocityLine.split(separator: " ")[2]))
        #expect(abs(velocity / 5 - 1) < 0.05, "\(velocity) mm/s")
        // Peak rows: `#  FREQUENCY Hz  AMPLITUDE mg  VELOCITY mm/s  ORDER  AXIS`.
        let peaks: [[Substring]] = lines.map { $0.split(separator: " ") }.filter { (cells: [Substring]) in
            cells.count == 9 && cells[2] == "Hz" && cells[4] == "mg"
        }
        #expect(peaks.contains { (cells: [Substring]) in abs((Double(cells[1]) ?? 0) - 24.667) < 1 && cells[7] == "1×" }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("spectrum #") }, "the spectrum, asked for at the start: \(lines)")

        let svg = try Self.parse(String(contentsOfFile: plot, encoding: .utf8))
        #expect(svg.polylines.count == 4 && svg.polylines.last == 2, "three axes and the two summaries: \(svg.polylines)")
        #expect(svg.texts.contains("1×") && ["A", "B", "C", "D"].allSatisfy(svg.texts.contains), "\(svg.texts)")
    }

    /// An SVG document as python3's `xml.etree` reads it: each polyline's number of points, and every text.
    static func parse(_ svg: String) throws -> (polylines: [Int], texts: [String]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vibration-\(UUID().uuidString).svg")
        try Data(svg.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import json, sys, xml.etree.ElementTree as tree
            svg = "{http://www.w3.org/2000/svg}"
            root = tree.parse(sys.argv[1]).getroot()
            assert root.tag == svg + "svg", root.tag
            print(json.dumps({"polylines": [len(line.get("points").split()) for line in root.iter(svg + "polyline")],
                              "texts": ["".join(text.itertext()) for text in root.iter(svg + "text")]}))
            """
        let result = try CommandLineTool.run("/usr/bin/python3", ["-c", script, file.path], timeout: .seconds(30))
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let polylines = object["polylines"] as? [Int], let texts = object["texts"] as? [String]
        else { throw SVGReadFailure(description: "python3 could not read the SVG: \(result.output)") }
        return (polylines, texts)
    }
}

/// python3 could not read a plot.
private struct SVGReadFailure: Error, CustomStringConvertible {
    /// What it said.
    let description: String
}
