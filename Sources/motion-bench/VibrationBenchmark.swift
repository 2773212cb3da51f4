import Foundation
import MQTT
import MotionCommandLine
import MotionContract
import PrivateBroker

/// `motion-bench vibration`: the vibration service's own CPU cost. At each sample rate the agent runs
/// twice on the simulated machine (`sim:motion=machine,rpm=1480,severity=5.0,rate=R`) against the same
/// broker: once with only the accelerometer at 1 Hz (detectors off; the cost of reading the device at
/// that rate), once with the vibration service on as well (default settings: 800 lines, 8 averages, a
/// summary every 10 s, a spectrum every 60 s). The difference is the service's cost. Beside them, the C
/// floor program (`Benchmarks/c-floor/floor.c`) told the same sample rate, woken every 10 ms as the
/// simulator delivers. A run fails unless summaries arrived on `{base}/vibration` during the window.
enum VibrationBenchmark {
    static let usage = """
        usage: motion-bench vibration [--agent PATH] [--floor PATH] [--rates HZ,HZ] [--seconds S] [--warmup S]
                                      [--broker URL] [--json]
          at each rate (default 1600,6660 Hz) runs the agent on sim:motion=machine,rpm=1480,severity=5.0,rate=R
          with only the accelerometer at 1 Hz, then with the vibration service on too (defaults), then the C
          floor at that rate; prints CPU % of one core without and with the service, their difference and
          RssAnon with it. --seconds (default 20) should be at least 10, the summary interval: a run with no
          summary on {base}/vibration in its window fails
        """

    /// The figures at one sample rate.
    struct Row: Codable {
        /// The device's sample rate, Hz.
        let rate: Int
        /// The agent reading the device, the accelerometer at 1 Hz.
        let withoutService: PublisherProcessBenchmark.Result
        /// The same with the vibration service on.
        let withService: PublisherProcessBenchmark.Result
        /// Summaries received on `{base}/vibration` during the window of `withService`.
        let summaries: Int
        /// The C floor at the same sample rate.
        let floor: PublisherProcessBenchmark.Result?
        /// The agent's configuration documents, without and with the service.
        let configurations: [String]

        /// The service's own cost, percent of one core.
        var serviceCPUPercent: Double { withService.cpuPercent - withoutService.cpuPercent }
    }

    /// The device ID the agent runs as.
    static let deviceID = "bench"

    static func run(_ scanner: ArgumentScanner) throws {
        try scanner.expectPositional(atMost: 0)
        let rates = try (scanner["--rates"] ?? "1600,6660").split(separator: ",").map { text in
            guard let rate = Int(text.trimmingCharacters(in: .whitespaces)), (1...8000).contains(rate) else {
                throw CommandLineError("--rates: expected sample rates 1…8000 Hz separated by commas, got \(text)")
            }
            return rate
        }
        let seconds = try scanner.number("--seconds", atLeast: 0.5) ?? 20
        let warmUp = try scanner.number("--warmup", atLeast: 0) ?? 2
        let agent = try agentExecutable(scanner["--agent"])
        let floor = try floorExecutable(scanner["--floor"])
        let startMachine = machineDescription()

        let directory = NSTemporaryDirectory() + "motion-bench-vibration-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (broker, privateBroker) = try benchmarkBroker(scanner["--broker"])
        let brokerPID = privateBroker?.processIdentifier
        defer { withExtendedLifetime(privateBroker) {} }

        var rows: [Row] = []
        for rate in rates {
            // A benchmark of one run: the agent or the floor against the broker over the same window.
            func measure(_ name: String, _ executable: String, _ arguments: [String], topics: [String]) throws
                -> PublisherProcessBenchmark.Result
            {
                try PublisherProcessBenchmark(
                    name: name, executable: executable, arguments: arguments, topics: topics, broker: broker,
                    brokerPID: brokerPID, warmUpSeconds: warmUp, seconds: seconds,
                    logFile: directory + "/\(name.filter { $0.isLetter || $0.isNumber }).log"
                ).run()
            }
            let topics = TopicLayout(prefix: "motion", deviceID: deviceID)
            var configurations: [String] = []
            var results: [PublisherProcessBenchmark.Result] = []
            for withService in [false, true] {
                let configuration = agentConfiguration(rate: rate, vibration: withService, broker: broker)
                let path = directory + "/agent-\(rate)-\(withService ? "vibration" : "reading").json"
                try configuration.write(toFile: path, atomically: true, encoding: .utf8)
                configurations.append(configuration)
                results.append(
                    try measure(
                        withService ? "agent + vibration \(rate)" : "agent reading \(rate)", agent, ["--config", path],
                        topics: [topics.data(.accelerometer)] + (withService ? [topics.data(.vibration)] : [])))
            }
            let summaryRate = results[1].ratesByTopic[topics.data(.vibration)] ?? 0
            let summaries = Int((summaryRate * results[1].seconds).rounded())
            guard summaries > 0 else {
                throw BenchError(
                    "the vibration service published no summary on \(topics.data(.vibration)) in \(BenchReport.format(results[1].seconds, "s")) at \(rate) Hz"
                        + (seconds < 10 ? " (--seconds is under the 10 s summary interval)" : ""))
            }
            let base = "motion/floor-vibration"
            let floorResult = try measure(
                "C floor \(rate)", floor,
                ["--host", broker.host, "--port", String(broker.port), "--base", base, "--rate", String(rate),
                 "--decimation", String(rate), "--batch", String(max(1, Int((Double(rate) / 100).rounded()))), "--direct", "1"],
                topics: MotionService.sensorServices.map { "\(base)/\($0.topicName)" })
            rows.append(
                Row(rate: rate, withoutService: results[0], withService: results[1], summaries: summaries, floor: floorResult,
                    configurations: configurations))
        }
        try printReport(rows, machineAtStart: startMachine, json: scanner.has("--json")) { text(rows, machine: $0, seconds: seconds) }
    }

    /// The agent's configuration: the simulated machine at `rate`, the accelerometer at 1 Hz, every other
    /// service and the detectors off, the vibration service on with its defaults when `vibration`.
    static func agentConfiguration(rate: Int, vibration: Bool, broker: MQTTBrokerAddress) -> String {
        let services = MotionService.allCases.map { service in
            switch service {
            case .accelerometer: "\"\(service.topicName)\": {\"enabled\": true, \"rate_hz\": 1, \"qos\": 0}"
            case .vibration: "\"\(service.topicName)\": {\"enabled\": \(vibration)}"
            default: "\"\(service.topicName)\": {\"enabled\": false}"
            }
        }
        return """
            {"device_id": "\(deviceID)", "topic_prefix": "motion", "device": "sim:motion=machine,rpm=1480,severity=5.0,rate=\(rate)", \
            "broker": {"url": "\(broker)"}, "detectors": {"enabled": false}, "services": {\(services.joined(separator: ", "))}}
            """
    }

    /// The table, then the commands and configurations that made it.
    static func text(_ rows: [Row], machine: String, seconds: Double) -> String {
        var out = "motion-bench vibration: \(machine)\n"
        let window = rows.first.map { BenchReport.format($0.withService.seconds, "s") } ?? BenchReport.format(seconds, "s")
        out += "\nVibration service on sim:motion=machine,rpm=1480,severity=5.0,rate=R (CPU % of one core over \(window) after the warm-up)\n"
        var table = [[
            "rate (Hz)", "agent, accel 1 Hz", "agent + vibration", "vibration service", "RssAnon with (MB)",
            "summaries", "C floor at R",
        ]]
        for row in rows {
            table.append([
                "\(row.rate)", BenchReport.format(row.withoutService.cpuPercent, "%"), BenchReport.format(row.withService.cpuPercent, "%"),
                BenchReport.format(row.serviceCPUPercent, "%"), BenchReport.format(row.withService.anonymousResidentMegabytes),
                "\(row.summaries)", row.floor.map { BenchReport.format($0.cpuPercent, "%") } ?? "-",
            ])
        }
        out += BenchReport.table(table)
        out += """
              vibration service = agent + vibration − agent, accel 1 Hz: Welch spectra (800 lines, 8 averages, 2048-sample
              segments, 50 % overlap) and statistics of every sample; a spectrum is due only every 60 s, so a window
              under 60 s may hold none. summaries = messages on motion/bench/vibration in the window (10 s interval).
              C floor at R = floor.c --rate R --decimation R --batch R/100 --direct 1: woken every 10 ms as the
              simulator delivers, it counts R samples a second but generates, reads and analyses none; it is the
              floor of the reading run's wake-ups, not of the simulator's sample generation or of the spectra.

            """
        for row in rows {
            for run in [row.withoutService, row.withService] + (row.floor.map { [$0] } ?? []) {
                let busy = run.threads.filter { $0.cpuPercent >= 0.05 }.prefix(6)
                let listed = busy.map { "\($0.name) \(BenchReport.format($0.cpuPercent, "%"))" }
                out += "  \(run.name): \(BenchReport.format(run.cpuPercent, "%")), RssAnon \(BenchReport.format(run.anonymousResidentMegabytes)) MB, "
                out += "threads \(listed.isEmpty ? "all idle" : listed.joined(separator: ", "))"
                out += run.cleanExit ? "\n" : ", NOT a clean exit on SIGTERM\n"
                out += "    $ \(run.commandLine.joined(separator: " "))\n"
            }
            for configuration in row.configurations { out += "    config: \(configuration)\n" }
        }
        return out
    }
}
