// motion-bench: measures motion-agent and the MQTT client against the issue's targets, beside a minimal
// C libmosquitto publisher as the floor. See docs/BENCHMARKS.md.
import MotionContract
import Foundation
import MQTT
import MotionAgent
import MotionCommandLine
import PrivateBroker

/// The directory holding this executable (release build products sit side by side).
func executableDirectory() -> String {
    let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return (path as NSString).deletingLastPathComponent
}

/// The C floor program: `--floor`, else `motion-floor` next to this executable, else built from
/// `Benchmarks/c-floor/floor.c` (relative to the working directory) with gcc.
func floorExecutable(_ option: String?) throws -> String {
    if let option { return option }
    let path = executableDirectory() + "/motion-floor"
    if FileManager.default.isExecutableFile(atPath: path) { return path }
    let source = FileManager.default.currentDirectoryPath + "/Benchmarks/c-floor/floor.c"
    guard FileManager.default.fileExists(atPath: source) else {
        throw BenchError("\(path) is missing and \(source) not found: run Benchmarks/run.sh or pass --floor")
    }
    let compiler = try ChildProcess(
        executable: "/usr/bin/gcc", arguments: ["-O2", "-o", path, source, "-lmosquitto"], logFile: "/dev/stderr")
    guard compiler.waitForExit(timeout: .seconds(60)) == 0 else { throw BenchError("gcc could not build \(source)") }
    return path
}

/// The agent to measure: `option`, else `motion-agent` next to this executable.
func agentExecutable(_ option: String?) throws -> String {
    let agent = option ?? executableDirectory() + "/motion-agent"
    guard FileManager.default.isExecutableFile(atPath: agent) else {
        throw BenchError("\(agent) not found: build it with `swift build -c release` or pass --agent")
    }
    return agent
}

/// The broker a benchmark measures against: `url`, else a private mosquitto on a free loopback port
/// (stopped when the returned one is released).
func benchmarkBroker(_ url: String?) throws -> (address: MQTTBrokerAddress, privateBroker: MosquittoBroker?) {
    if let url { return (try MQTTBrokerAddress(url: url), nil) }
    do {
        let broker = try MosquittoBroker()
        return (broker.address, broker)
    } catch {
        throw BenchError("cannot start mosquitto: \(error)")
    }
}

/// A standalone benchmark's JSON document.
struct BenchDocument<Row: Encodable>: Encodable {
    let machine: String
    let rows: [Row]
}

/// Prints a standalone benchmark's rows: as one JSON document `{"machine": …, "rows": […]}` when `json`,
/// else `text(machine)`. `machine` is the one described at the start with the load average at the end
/// added (other processes during the runs show there).
func printReport<Row: Encodable>(_ rows: [Row], machineAtStart: String, json: Bool, text: (String) -> String) throws {
    let load = (ProcFS.read("/proc/loadavg") ?? "").split(separator: " ").prefix(3).joined(separator: " ")
    let machine = "\(machineAtStart), \(load) at the end"
    guard json else { return print(text(machine), terminator: "") }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(BenchDocument(machine: machine, rows: rows)), as: UTF8.self))
}

/// Host name, cores and load average, so readers know how busy the machine was.
func machineDescription() -> String {
    let load = (ProcFS.read("/proc/loadavg") ?? "").split(separator: " ").prefix(3).joined(separator: " ")
    return "\(ProcessInfo.processInfo.hostName), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load) at start"
}

/// The agent run: a temporary config with the device and four services at 100 Hz, QoS 0.
func runAgent(_ options: BenchCommandLine, broker: MQTTBrokerAddress, brokerPID: pid_t?, directory: String) throws
    -> PublisherProcessBenchmark.Result
{
    let agent = options.agentPath ?? executableDirectory() + "/motion-agent"
    guard FileManager.default.isExecutableFile(atPath: agent) else {
        throw BenchError("\(agent) not found: build it with `swift build -c release` or pass --agent")
    }
    let deviceID = "bench"
    // The four sensor topics the C floor publishes too; the others off (without a rate: the vibration
    // service refuses a summary interval under 1 s even when off).
    let services = MotionService.allCases.map { service in
        MotionService.sensorServices.contains(service)
            ? "\"\(service.topicName)\": {\"enabled\": true, \"rate_hz\": 100, \"qos\": 0}"
            : "\"\(service.topicName)\": {\"enabled\": false}"
    }
    let configuration = """
        {"device_id": "\(deviceID)", "topic_prefix": "motion", "device": "\(options.device)",
         "broker": {"url": "\(broker)"}, "services": {\(services.joined(separator: ", "))}}
        """
    let configurationPath = directory + "/agent.json"
    try configuration.write(toFile: configurationPath, atomically: true, encoding: .utf8)
    let topics = TopicLayout(prefix: "motion", deviceID: deviceID)
    return try PublisherProcessBenchmark(
        name: "motion-agent", executable: agent, arguments: ["--config", configurationPath],
        topics: MotionService.sensorServices.map { topics.data($0) }, broker: broker, brokerPID: brokerPID,
        warmUpSeconds: options.warmUpSeconds, seconds: options.seconds, logFile: directory + "/motion-agent.log"
    ).run()
}

/// The C floor's agent-like run (four topics at 100 Hz from 1 kHz samples): `batched` false wakes per
/// sample and lets libmosquitto's loop thread write; `batched` true has the agent's delivery structure
/// (a wake-up per 10 samples, packets written by the waking thread).
func runFloor(
    _ options: BenchCommandLine, floor: String, batched: Bool, broker: MQTTBrokerAddress, brokerPID: pid_t?,
    directory: String
) throws -> PublisherProcessBenchmark.Result {
    let base = batched ? "motion/floor-batched" : "motion/floor"
    let structure = batched ? ["--batch", "10", "--direct", "1"] : ["--batch", "1", "--direct", "0"]
    return try PublisherProcessBenchmark(
        name: batched ? "C batched" : "C floor", executable: floor,
        arguments: ["--host", broker.host, "--port", String(broker.port), "--base", base, "--rate", "1000", "--decimation", "10"]
            + structure,
        topics: MotionService.sensorServices.map { "\(base)/\($0.topicName)" }, broker: broker, brokerPID: brokerPID,
        warmUpSeconds: options.warmUpSeconds, seconds: options.seconds,
        logFile: directory + (batched ? "/motion-floor-batched.log" : "/motion-floor.log")
    ).run()
}

func run(_ options: BenchCommandLine) throws {
    let directory = NSTemporaryDirectory() + "motion-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var report = BenchReport(machine: machineDescription())

    var privateBroker: MosquittoBroker?
    let address: MQTTBrokerAddress
    if let url = options.brokerURL {
        address = try MQTTBrokerAddress(url: url)
    } else {
        let broker: MosquittoBroker
        do {
            broker = try MosquittoBroker()
        } catch {
            throw BenchError("cannot start mosquitto: \(error)")
        }
        privateBroker = broker
        address = broker.address
    }
    let brokerPID = privateBroker?.processIdentifier
    let throughput = ThroughputBenchmark(
        broker: address, brokerPID: brokerPID, messages: options.messages, payloadBytes: options.payloadBytes,
        window: options.window)
    let needsFloor = options.command == .floor || options.command == .all
    let floor = needsFloor ? try floorExecutable(options.floorPath) : ""

    if options.command == .agent || options.command == .all {
        report.agent = try runAgent(options, broker: address, brokerPID: brokerPID, directory: directory)
    }
    if needsFloor {
        report.floor = try runFloor(
            options, floor: floor, batched: false, broker: address, brokerPID: brokerPID, directory: directory)
        report.batchedFloor = try runFloor(
            options, floor: floor, batched: true, broker: address, brokerPID: brokerPID, directory: directory)
    }
    if options.command == .throughput || options.command == .all {
        report.throughputSwift = try throughput.runSwift()
    }
    if needsFloor {
        report.throughputC = try throughput.runC(floorExecutable: floor, logDirectory: directory)
    }
    print(options.json ? try report.json() : report.text(), terminator: "")
    withExtendedLifetime(privateBroker) {}
}

/// Runs a command that needs no broker and has its own options (`broad`, `payloads`), and exits: 0 when
/// it ran, 64 for a usage error, 1 when it failed.
func runStandalone(
    _ arguments: [String], valued: Set<String>, switches: Set<String> = ["--json"], usage: String,
    _ body: (ArgumentScanner) throws -> Void
) -> Never {
    do {
        let scanner = try ArgumentScanner(arguments, valued: valued, switches: switches)
        if scanner.helpRequested {
            print(usage)
            exit(0)
        }
        try body(scanner)
        exit(0)
    } catch let error as CommandLineError {
        FileHandle.standardError.write(Data("motion-bench: \(error)\n\(usage)\n".utf8))
        exit(CommandLineError.exitStatus)
    } catch {
        FileHandle.standardError.write(Data("motion-bench: \(error)\n".utf8))
        exit(1)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "broad":
    // The attitude filter over BROAD recordings.
    runStandalone(
        Array(arguments.dropFirst()), valued: ["--plots", "--vqf", "--set", "--filter"], switches: ["--json", "--cross-validate"],
        usage: BroadBenchmark.usage, BroadBenchmark.run)
case "broad-variants":
    // The trials as other sensors, mountings and rates would have recorded them.
    runStandalone(Array(arguments.dropFirst()), valued: ["--out", "--variant"], switches: [], usage: BroadVariants.usage, BroadVariants.run)
case "payloads":
    // The data topics' payload formats.
    runStandalone(Array(arguments.dropFirst()), valued: ["--device", "--samples"], usage: PayloadBenchmark.usage, PayloadBenchmark.run)
case "vibration":
    // The vibration service's CPU cost beside the reading alone and the C floor (starts its own broker).
    runStandalone(
        Array(arguments.dropFirst()), valued: ["--agent", "--floor", "--rates", "--seconds", "--warmup", "--broker"],
        usage: VibrationBenchmark.usage, VibrationBenchmark.run)
case "formats":
    // The agent's CPU with each payload format, beside the batched C floor (starts its own broker).
    runStandalone(
        Array(arguments.dropFirst()), valued: ["--agent", "--floor", "--device", "--seconds", "--warmup", "--broker"],
        usage: FormatsBenchmark.usage, FormatsBenchmark.run)
default:
    break
}
if arguments.contains(where: { $0 == "--help" || $0 == "-h" || $0 == "help" }) {
    print(BenchCommandLine.usage + "\n" + BroadBenchmark.usage + "\n" + BroadVariants.usage + "\n" + PayloadBenchmark.usage + "\n" + VibrationBenchmark.usage + "\n" + FormatsBenchmark.usage)
    exit(0)
}
let options: BenchCommandLine
do {
    options = try BenchCommandLine(arguments: arguments)
} catch {
    FileHandle.standardError.write(Data("motion-bench: \(error)\n\(BenchCommandLine.usage)\n".utf8))
    exit(CommandLineError.exitStatus)
}
do {
    try run(options)
} catch {
    FileHandle.standardError.write(Data("motion-bench: \(error)\n".utf8))
    exit(1)
}
