import Foundation
import MQTT

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
        let client = connection.subscriber(to: [filter], command: "watch") { message in
            board.receive(topic: message.topic, payload: message.payload, arrival: ProcessInfo.processInfo.systemUptime)
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
        client.shutdown(timeout: .seconds(1))
        exit(0)
    }
}
