// allocation-probe: how many heap allocations the agent makes per message on its steady path (issue 36).
//
//   allocation-probe --broker URL [--seconds S] [--warmup S] [--device SPEC]
//
// Runs a MotionAgent in this process, in the configuration of `motion-bench all` (the simulated IMU at
// 1 kHz, accelerometer, gyro, magnetometer and device motion at 100 Hz, QoS 0, the rest at its defaults),
// publishing through a real MQTTClient to the broker at URL. After the warm-up (2 s) it counts, for S
// seconds (3), every allocation the process makes (CAllocationCounter replaces the C allocator's entry
// points in this executable, so the Swift runtime's, libmosquitto's and the agent's all count, on every
// thread) and the messages the client published, and prints one line:
//
//   allocations=A messages=M seconds=S per_message=X per_second=Y
//
// (the simulator hands its samples over every 10 ms, four messages a delivery). Exit 0, or 1 when the
// agent cannot run or published nothing. MotionAgentIntegrationTests runs it against a
// private mosquitto and holds the figure to a budget.
import CAllocationCounter
import MQTT
import MotionAgent
import MotionCommandLine
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Prints `message` on standard error and exits with `code`.
func fail(_ message: String, code: Int32 = 1) -> Never {
    let text = Array("allocation-probe: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(code)
}

func sleep(seconds: Double) {
    var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var left = timespec()
    while nanosleep(&pause, &left) != 0 { pause = left }
}

let options: ArgumentScanner
do {
    options = try ArgumentScanner(Array(CommandLine.arguments.dropFirst()), valued: ["--broker", "--seconds", "--warmup", "--device"])
    try options.expectPositional(atMost: 0)
} catch {
    fail("\(error)", code: 64)
}
if options.helpRequested {
    print("usage: allocation-probe --broker URL [--seconds S] [--warmup S] [--device SPEC]   (defaults: 3, 2, sim:rate=1000)")
    exit(0)
}
guard let broker = options["--broker"] else { fail("--broker URL is required", code: 64) }
let seconds: Double
let warmup: Double
do {
    seconds = try options.number("--seconds", atLeast: 0.5, atMost: 600) ?? 3
    warmup = try options.number("--warmup", atLeast: 0, atMost: 600) ?? 2
} catch {
    fail("\(error)", code: 64)
}
let device = options["--device"] ?? "sim:rate=1000"

var services = ["accelerometer", "gyro", "magnetometer", "device-motion"].map {
    "\"\($0)\": {\"enabled\": true, \"rate_hz\": 100, \"qos\": 0}"
}
services += ["steps", "activity", "altitude", "vibration"].map { "\"\($0)\": {\"enabled\": false}" }
let document = """
    {"device_id": "probe", "topic_prefix": "motion", "device": "\(device)", "broker": {"url": "\(broker)"},
     "health_interval": 0, "services": {\(services.joined(separator: ", "))}}
    """

/// The client the agent made, to read its publication count.
let madeClient = Mutex<MQTTClient?>(nil)
let agent: MotionAgent
do {
    let configuration = try AgentConfiguration.parse(Array(document.utf8))
    agent = try MotionAgent(configuration: configuration, version: "probe") { configuration, events throws(MQTTError) in
        let client = try MQTTClient(configuration: configuration, events: events)
        madeClient.withLock { $0 = client }
        return client
    }
    try agent.start()
} catch {
    fail("the agent cannot run: \(error)")
}

sleep(seconds: warmup)
func published() -> Int { madeClient.withLock { $0?.statistics.messagesPublished } ?? 0 }
let (allocationsBefore, messagesBefore) = (allocation_count(), published())
sleep(seconds: seconds)
let (allocationsAfter, messagesAfter) = (allocation_count(), published())
agent.shutdown()

let allocations = allocationsAfter - allocationsBefore
let messages = messagesAfter - messagesBefore
guard messages > 0 else { fail("nothing published in the window (is the broker at \(broker) up?)") }
/// Two decimals.
func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
print(
    "allocations=\(allocations) messages=\(messages) seconds=\(seconds)",
    "per_message=\(rounded(Double(allocations) / Double(messages))) per_second=\(rounded(Double(allocations) / seconds))")
