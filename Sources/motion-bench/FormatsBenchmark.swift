import Foundation
import MQTT
import MotionCommandLine
import MotionContract
import PrivateBroker

/// `motion-bench formats`: the agent's CPU with each payload format. The agent runs the job of
/// `motion-bench agent` (the simulated IMU at 1 kHz; accelerometer, gyro, magnetometer and device motion
/// at 100 Hz, QoS 0) once per format against the same broker: the native contract in JSON, CBOR, SenML
/// JSON and SenML CBOR, and Sparkplug B alone (`native_contract` false, each service a device). Beside
/// them, in the same run, the C floor with the agent's delivery structure (`floor.c --batch 10 --direct 1`),
/// which publishes a fixed payload and so costs the same for every format.
enum FormatsBenchmark {
    static let usage = """
        usage: motion-bench formats [--agent PATH] [--floor PATH] [--device SPEC] [--seconds S] [--warmup S]
                                    [--broker URL] [--json]
          runs the agent (--device, default sim:rate=1000; four services at 100 Hz, QoS 0) once per format:
          json, cbor, senml+json, senml+cbor and sparkplug (Sparkplug B alone), then the batched C floor;
          prints CPU % of one core, RssAnon and the messages received per second for each
          --seconds (default 20) the window of each run, after --warmup (default 3)
        """

    /// A payload format as the agent is told to use it.
    enum Format: String, CaseIterable, Codable {
        case json, cbor
        case senmlJSON = "senml+json"
        case senmlCBOR = "senml+cbor"
        case sparkplug
    }

    /// One run.
    struct Row: Codable {
        let format: String
        let result: PublisherProcessBenchmark.Result
        /// The agent's configuration document (none for the floor).
        let configuration: String?

        /// Messages received per second, every topic.
        var messagesPerSecond: Double { result.ratesByTopic.values.reduce(0, +) }
    }

    /// The device ID the agent runs as, and its Sparkplug group and edge node.
    static let deviceID = "bench"

    static func run(_ scanner: ArgumentScanner) throws {
        try scanner.expectPositional(atMost: 0)
        let seconds = try scanner.number("--seconds", atLeast: 0.5) ?? 20
        let warmUp = try scanner.number("--warmup", atLeast: 0) ?? 3
        let device = scanner["--device"] ?? "sim:rate=1000"
        let agent = try agentExecutable(scanner["--agent"])
        let floor = try floorExecutable(scanner["--floor"])
        let startMachine = machineDescription()

        let directory = NSTemporaryDirectory() + "motion-bench-formats-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (broker, privateBroker) = try benchmarkBroker(scanner["--broker"])
        defer { withExtendedLifetime(privateBroker) {} }

        func measure(_ name: String, _ executable: String, _ arguments: [String], topics: [String]) throws -> PublisherProcessBenchmark.Result {
            try PublisherProcessBenchmark(
                name: name, executable: executable, arguments: arguments, topics: topics, broker: broker,
                brokerPID: privateBroker?.processIdentifier, warmUpSeconds: warmUp, seconds: seconds,
                logFile: directory + "/\(name.filter { $0.isLetter || $0.isNumber }).log"
            ).run()
        }
        var rows: [Row] = []
        for format in Format.allCases {
            let configuration = agentConfiguration(format: format, device: device, broker: broker)
            let path = directory + "/agent-\(format.rawValue).json"
            try configuration.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try measure("motion-agent \(format.rawValue)", agent, ["--config", path], topics: topics(format))
            rows.append(Row(format: format.rawValue, result: result, configuration: configuration))
        }
        let base = "motion/floor-batched"
        let floorResult = try measure(
            "C batched", floor,
            ["--host", broker.host, "--port", String(broker.port), "--base", base, "--rate", "1000", "--decimation", "10",
             "--batch", "10", "--direct", "1"],
            topics: MotionService.sensorServices.map { "\(base)/\($0.topicName)" })
        rows.append(Row(format: "C batched floor", result: floorResult, configuration: nil))

        try printReport(rows, machineAtStart: startMachine, json: scanner.has("--json")) { text(rows, machine: $0) }
    }

    /// The data topics of the four services in `format`.
    static func topics(_ format: Format) -> [String] {
        let layout = TopicLayout(prefix: "motion", deviceID: deviceID)
        return MotionService.sensorServices.map { service in
            format == .sparkplug
                ? SparkplugTopic.message(.deviceData, group: deviceID, edgeNode: deviceID, device: service.topicName).name
                : layout.data(service)
        }
    }

    /// The agent's configuration: the four sensor services at 100 Hz, QoS 0, in `format` (Sparkplug: the
    /// native contract off and the edge node on), the others off; SenML with a fixed base name.
    static func agentConfiguration(format: Format, device: String, broker: MQTTBrokerAddress) -> String {
        let payloadFormat = format == .sparkplug ? Format.json : format
        let services = MotionService.allCases.map { service in
            MotionService.sensorServices.contains(service)
                ? "\"\(service.topicName)\": {\"enabled\": true, \"rate_hz\": 100, \"qos\": 0, \"format\": \"\(payloadFormat.rawValue)\"}"
                : "\"\(service.topicName)\": {\"enabled\": false}"
        }
        let sparkplug = format == .sparkplug ? #", "sparkplug": {"group_id": "\#(deviceID)", "native_contract": false}"# : ""
        return """
            {"device_id": "\(deviceID)", "topic_prefix": "motion", "device": "\(device)", "broker": {"url": "\(broker)"}, \
            "senml": {"base_name": "urn:dev:mac:0024beffff804ff1_\(deviceID):"}, "services": {\(services.joined(separator: ", "))}\(sparkplug)}
            """
    }

    /// The table, then the commands and configurations that made it.
    static func text(_ rows: [Row], machine: String) -> String {
        var out = "motion-bench formats: \(machine)\n"
        let window = rows.first.map { BenchReport.format($0.result.seconds, "s") } ?? "-"
        out += "\nThe agent's CPU with each payload format (four topics at 100 Hz from 1 kHz samples; % of one core over \(window) after the warm-up)\n"
        let floor = rows.last { $0.configuration == nil }?.result.cpuPercent
        var table = [["format", "CPU", "× C batched floor", "RssAnon (MB)", "messages/s received", "broker CPU"]]
        for row in rows {
            table.append([
                row.format, BenchReport.format(row.result.cpuPercent, "%"),
                floor.map { $0 > 0 ? BenchReport.format(row.result.cpuPercent / $0) : "-" } ?? "-",
                BenchReport.format(row.result.anonymousResidentMegabytes), BenchReport.format(row.messagesPerSecond),
                row.result.brokerCPUPercent.map { BenchReport.format($0, "%") } ?? "-",
            ])
        }
        out += BenchReport.table(table)
        out += """
              sparkplug = Sparkplug B alone (native_contract false): every sample a DDATA of aliased metrics through
              protobuf-c, and the edge node's own connection. The C batched floor publishes the same four topics from
              a fixed payload with the agent's delivery structure (a wake-up per 10 samples): it encodes nothing.

            """
        for row in rows {
            let busy = row.result.threads.filter { $0.cpuPercent >= 0.05 }.prefix(6)
            let listed = busy.map { "\($0.name) \(BenchReport.format($0.cpuPercent, "%"))" }
            out += "  \(row.result.name): threads \(listed.isEmpty ? "all idle" : listed.joined(separator: ", "))"
            out += row.result.cleanExit ? "\n" : ", NOT a clean exit on SIGTERM\n"
            out += "    $ \(row.result.commandLine.joined(separator: " "))\n"
            if let configuration = row.configuration { out += "    config: \(configuration)\n" }
        }
        return out
    }
}
