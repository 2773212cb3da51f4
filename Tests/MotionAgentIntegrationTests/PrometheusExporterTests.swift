import AgentTestSupport
import Foundation
import MotionTestSupport
import MotionHAL
import Testing

/// Deploy/prometheus/: Debian's prometheus-mqtt-exporter with the repository's configuration, run
/// against a real mosquitto and a real agent, serves the agent's health as metrics over loopback; the
/// alert rules pass promtool's check and their unit tests.
@Suite(.serialized) struct PrometheusExporterTests {
    static let directory = Repository.schemas.deletingLastPathComponent().appendingPathComponent("Deploy/prometheus")

    @Test("the exporter turns a real agent's health into metrics")
    func theExporterServesTheFleetsHealth() throws {
        let running = try RunningAgent.start(
            configuration: #"{"health_interval": 1, "services": {"device-motion": {"frame": "xMagneticNorthZVertical"}, "vibration": {"enabled": true, "interval": 1, "lines": 100}}}"#,
            device: "sim:rate=1000")
        defer { running.cleanUp() }
        #expect(running.subscriber.waitForCount(on: running.topics.health, count: 2, timeout: .seconds(10)))

        let deployed = try String(contentsOf: Self.directory.appendingPathComponent("mqtt-exporter.yaml"), encoding: .utf8)
        #expect(deployed.contains("  server: tcp://127.0.0.1:1883\n"))
        let port = try MosquittoBroker.freeLoopbackPort()
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("exporter-\(UUID().uuidString).yaml")
        try Data(deployed.replacingOccurrences(of: "tcp://127.0.0.1:1883", with: "tcp://127.0.0.1:\(running.broker.port)").utf8)
            .write(to: configuration)
        defer { try? FileManager.default.removeItem(at: configuration) }
        let exporter = try CommandLineTool.spawn(
            "/usr/bin/prometheus-mqtt-exporter",
            ["-config", configuration.path, "-listen-address", "127.0.0.1", "-listen-port", "\(port)", "-log-level", "warn"],
            outputPath: FileManager.default.temporaryDirectory.appendingPathComponent("exporter-\(port).log").path)
        defer { kill(exporter, SIGTERM); waitpid(exporter, nil, 0) }

        let label = #"{sensor="\#(running.deviceID)",topic="\#(running.topics.health)"}"#
        var metrics: [String: Double] = [:]
        _ = eventually(within: .seconds(15)) {
            metrics = Self.scrape(port: port, label: label)
            return metrics["motion_health_interval_seconds"] != nil && metrics["motion_gyro_message_rate_hz"] != nil
                && metrics["motion_vibration_zone"] != nil
        }
        #expect(metrics["motion_health_interval_seconds"] == 1, "\(metrics)")
        #expect(metrics["motion_broker_connected"] == 1 && metrics["motion_device_running"] == 1)
        #expect(abs((metrics["motion_health_timestamp_seconds"] ?? 0) - Date().timeIntervalSince1970) < 5)
        #expect((metrics["motion_device_achieved_rate_hz"] ?? 0) > 0.9 * (metrics["motion_device_configured_rate_hz"] ?? .infinity))
        #expect((metrics["motion_gyro_message_rate_hz"] ?? 0) > 10 && metrics["motion_gyro_active"] == 1)
        #expect(metrics["motion_steps_active"] == 1 && metrics["motion_activity_active"] == 1, "contract 1.5's services")
        #expect(metrics["motion_magnetic_disturbance"] == 0, "a magnetic frame runs: the field's state is exported")
        #expect((metrics["motion_mqtt_published_total"] ?? 0) > 0 && metrics["motion_mqtt_reconnects_total"] == 0)
        #expect(metrics["motion_detectors_running"] == 1 && metrics["motion_free_falls_total"] == 0 && metrics["motion_taps_total"] == 0,
                "the detectors' counters are exported from the first report")
        #expect((1...4).contains(metrics["motion_vibration_zone"] ?? 0) && (metrics["motion_vibration_velocity_rms_mm_per_second"] ?? -1) >= 0,
                "the vibration service's zone and velocity, contract 1.8")
        let kernel = try #require(KernelClockStatus.current())
        #expect(metrics["motion_clock_synchronized"] == (kernel.synchronized ? 1 : 0), "contract 1.9's clock")
        #expect(metrics["motion_clock_steps_total"] == 0 && (metrics["motion_clock_maximum_error_milliseconds"] ?? -1) >= 0)
    }

    @Test("the alert rules pass promtool check rules and their unit tests")
    func alertRules() throws {
        let rules = Self.directory.appendingPathComponent("motionbridge-alerts.yml").path
        let check = try CommandLineTool.run("/usr/bin/promtool", ["check", "rules", rules])
        #expect(check.status == 0 && check.output.contains("SUCCESS: 7 rules found"), "\(check.output)")
        let unit = try CommandLineTool.run(
            "/usr/bin/promtool", ["test", "rules", Self.directory.appendingPathComponent("motionbridge-alerts.test.yml").path])
        #expect(unit.status == 0 && unit.output.contains("SUCCESS"), "\(unit.output)")
    }

    /// The samples of the exporter's /metrics with exactly `label`, by metric name (python3's urllib:
    /// the test process itself keeps to loopback sockets it owns).
    static func scrape(port: Int, label: String) -> [String: Double] {
        guard let result = try? CommandLineTool.run(
            "/usr/bin/python3", ["-c", "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:\(port)/metrics', timeout=2).read().decode())"])
        else { return [:] }
        var metrics: [String: Double] = [:]
        for line in result.output.split(separator: "\n") where !line.hasPrefix("#") {
            guard let brace = line.firstIndex(of: "{"), let close = line.firstIndex(of: "}"), String(line[brace...close]) == label else { continue }
            let fields = line[line.index(after: close)...].split(separator: " ")
            if let value = fields.first.flatMap({ Double($0) }) { metrics[String(line[..<brace])] = value }
        }
        return metrics
    }
}
