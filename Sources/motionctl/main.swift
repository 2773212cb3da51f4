// motionctl: the fleet tool. `watch` shows the live values of devices; `set` sends a control command;
// `hardware` lists the board's IMUs; `record` writes an IMU's samples to a recording; `calibrate` guides a
// person through calibrating an IMU;
// `fuse` and `bench broad` run the attitude filter over recordings; `provision` prepares a new device's
// credentials for the fleet's broker.
import MotionContract
import Foundation
import MQTT
import MotionAgent
import Synchronization

let usage = """
    usage: motionctl watch [--broker mqtt://HOST:PORT] [--prefix motion] [--device ID] [--duration SECONDS]
           motionctl set DEVICE_ID SERVICE COMMAND [--broker mqtt://HOST:PORT] [--prefix motion]
      watch      live table of every device under the prefix (or one device), refreshed 4 times a second;
                 when standard output is not a terminal, prints a snapshot every second instead
      set        publishes COMMAND (start, stop, or JSON such as {"interval":0.1}) to {prefix}/{id}/{service}/set
    \(FuseCommand.usage)
    \(HardwareCommand.usage)
    \(RecordCommand.usage)
    \(CalibrateCommand.usage)
    \(ProvisionCommand.usage)
    \(BroadBenchmark.usage)
    """

func fail(_ message: String, status: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("motionctl: \(message)\n".utf8))
    if status == 64 { FileHandle.standardError.write(Data((usage + "\n").utf8)) }
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let subcommand = arguments.first else { fail("missing command") }
arguments.removeFirst()
// The offline commands (no broker) have their own options.
if subcommand == "fuse" { FuseCommand.run(arguments) }
if subcommand == "hardware" { HardwareCommand.run(arguments) }
if subcommand == "record" { RecordCommand.run(arguments) }
if subcommand == "calibrate" { CalibrateCommand.run(arguments) }
if subcommand == "provision" { ProvisionCommand.run(arguments) }
if subcommand == "bench" {
    guard arguments.first == "broad" else { fail("bench: the only benchmark is `bench broad DIR`") }
    BroadBenchmark.run(Array(arguments.dropFirst()))
}
var options: [String: String] = [:]
var positional: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if ["--broker", "--prefix", "--device", "--duration"].contains(argument) {
        guard !arguments.isEmpty else { fail("\(argument) needs a value") }
        options[argument] = arguments.removeFirst()
    } else if argument.hasPrefix("--") {
        fail("unknown option \(argument)")
    } else {
        positional.append(argument)
    }
}
let broker: MQTTBrokerAddress
do {
    broker = try MQTTBrokerAddress(url: options["--broker"] ?? "mqtt://127.0.0.1:1883")
} catch {
    fail("--broker: \(error)")
}
let prefix = options["--prefix"] ?? "motion"
let clientID = "motionctl-\(subcommand)-\(ProcessInfo.processInfo.processIdentifier)"

/// The client, for the event handler to subscribe on every (re)connect.
let clientBox = Mutex<MQTTClient?>(nil)

switch subcommand {
case "watch":
    guard positional.isEmpty else { fail("watch takes no positional arguments") }
    let duration = options["--duration"].map { Double($0) ?? -1 }
    if let duration, duration <= 0 { fail("--duration must be a positive number of seconds") }
    let board = WatchBoard(prefix: prefix)
    let filter = "\(prefix)/\(options["--device"] ?? "+")/#"
    do {
        let client = try MQTTClient(
            configuration: MQTTClientConfiguration(broker: broker, clientID: clientID)
        ) { event in
            switch event {
            case .connected:
                _ = try? clientBox.withLock { try $0?.subscribe(filter, qos: .atMostOnce) }
            case .message(let message):
                board.receive(topic: message.topic, payload: message.payload, arrival: ProcessInfo.processInfo.systemUptime)
            case .connectionRefused(_, let reason), .disconnected(_, let reason), .offlineBufferProblem(let reason):
                FileHandle.standardError.write(Data("motionctl: broker \(broker): \(reason)\n".utf8))
            case .published:
                break
            }
        }
        clientBox.withLock { $0 = client }
        try client.start()
    } catch {
        fail("cannot connect to \(broker): \(error)", status: 69)
    }
    let interactive = isatty(STDOUT_FILENO) == 1
    let start = ProcessInfo.processInfo.systemUptime
    while true {
        let now = ProcessInfo.processInfo.systemUptime
        let finished = duration.map { now - start >= $0 } ?? false
        let table = board.render(now: now)
        let screen = interactive
            ? "\u{1B}[H\u{1B}[2J" + "motionctl watch \(broker) \(filter)   (Ctrl-C to quit)\n\n" + table
            : table + "----\n"
        FileHandle.standardOutput.write(Data(screen.utf8))
        if finished { break }
        Thread.sleep(forTimeInterval: interactive ? 0.25 : 1)
    }
    clientBox.withLock { $0?.shutdown(timeout: .seconds(1)) }

case "set":
    guard positional.count == 3 else { fail("set needs DEVICE_ID SERVICE COMMAND") }
    guard let service = MotionService(topicName: positional[1]) else {
        fail("unknown service \(positional[1]) (one of \(MotionService.allCases.map(\.topicName).joined(separator: ", ")))")
    }
    let topic = TopicLayout(prefix: prefix, deviceID: positional[0]).control(service)
    do {
        let client = try MQTTClient(configuration: MQTTClientConfiguration(broker: broker, clientID: clientID)) { _ in }
        try client.start()
        guard client.waitUntilConnected(timeout: .seconds(5)) else { fail("cannot connect to \(broker)", status: 69) }
        let messageID = try client.publish(MQTTMessage(topic: topic, string: positional[2], qos: .atLeastOnce, retain: false))
        _ = client.waitUntilPublished(messageID: messageID, timeout: .seconds(5))
        client.shutdown(timeout: .seconds(1))
        print("sent \(positional[2]) to \(topic)")
    } catch {
        fail("\(error)", status: 69)
    }

default:
    fail("unknown command \(subcommand)")
}
