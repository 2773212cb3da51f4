import Foundation
import MQTT
import Synchronization

/// `motionctl watch`: the live table of every device under the prefix (or one device).
enum WatchCommand {
    static let usage = """
        usage: motionctl watch \(BrokerCommandOptions.usage) [--device ID] [--duration SECONDS]
          live table of every device under the prefix (or one device), refreshed 4 times a second;
          when standard output is not a terminal, prints a snapshot every second instead
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: BrokerCommandOptions.valued.union(["--device", "--duration"]), usage: usage)
        guard options.positional.isEmpty else { options.fail("watch takes no positional arguments") }
        let connection = BrokerCommandOptions(options)
        let duration = options.number("--duration", atLeast: .leastNonzeroMagnitude)
        let board = WatchBoard(prefix: connection.prefix)
        let filter = "\(connection.prefix)/\(options["--device"] ?? "+")/#"
        /// The client, for the event handler to subscribe on every (re)connect.
        let clientBox = Mutex<MQTTClient?>(nil)
        do {
            let client = try MQTTClient(
                configuration: MQTTClientConfiguration(
                    broker: connection.broker, clientID: "motionctl-watch-\(ProcessInfo.processInfo.processIdentifier)")
            ) { event in
                switch event {
                case .connected:
                    _ = try? clientBox.withLock { try $0?.subscribe(filter, qos: .atMostOnce) }
                case .message(let message):
                    board.receive(topic: message.topic, payload: message.payload, arrival: ProcessInfo.processInfo.systemUptime)
                case .connectionRefused(_, let reason), .disconnected(_, let reason), .offlineBufferProblem(let reason):
                    FileHandle.standardError.write(Data("motionctl: broker \(connection.broker): \(reason)\n".utf8))
                case .published:
                    break
                }
            }
            clientBox.withLock { $0 = client }
            try client.start()
        } catch {
            CommandOptions.exit("cannot connect to \(connection.broker): \(error)", status: 69)  // EX_UNAVAILABLE
        }
        let interactive = isatty(STDOUT_FILENO) == 1
        let start = ProcessInfo.processInfo.systemUptime
        while true {
            let now = ProcessInfo.processInfo.systemUptime
            let finished = duration.map { now - start >= $0 } ?? false
            let table = board.render(now: now)
            let screen =
                interactive
                ? "\u{1B}[H\u{1B}[2J" + "motionctl watch \(connection.broker) \(filter)   (Ctrl-C to quit)\n\n" + table
                : table + "----\n"
            FileHandle.standardOutput.write(Data(screen.utf8))
            if finished { break }
            Thread.sleep(forTimeInterval: interactive ? 0.25 : 1)
        }
        clientBox.withLock { $0?.shutdown(timeout: .seconds(1)) }
        exit(0)
    }
}
