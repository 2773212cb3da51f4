import Foundation
import MotionContract
import MQTT

/// `motionctl watch`: the live table of every device under the prefix, or one device's service as
/// scrolling charts.
enum WatchCommand {
    static let usage = """
        usage: motionctl watch [DEVICE_ID [SERVICE]] \(BrokerCommandOptions.usage) [--device ID] [--duration SECONDS]
          without DEVICE_ID: live table of every device under the prefix (or the one --device names)
          with DEVICE_ID: that device's SERVICE (default device-motion: roll, pitch, yaw and heading; steps,
          activity and altitude have three charts each) as scrolling charts, one per axis, with the measured
          rate and the messages lost; fits 80×24
          refreshed 4 times a second; when standard output is not a terminal, a snapshot every second
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: BrokerCommandOptions.valued.union(["--device", "--duration"]), usage: usage)
        guard options.positional.count <= 2 else { options.fail("watch takes at most DEVICE_ID and SERVICE") }
        let connection = BrokerCommandOptions(options)
        let duration = options.number("--duration", atLeast: .leastNonzeroMagnitude)
        let render: (Double) -> String
        let filter: String
        let client: MQTTClient
        if let deviceID = options.positional.first {
            guard TopicLayout.isTopicLevel(deviceID) else {
                options.fail("DEVICE_ID \(deviceID) is not one topic level")
            }
            let serviceName = options.positional.count == 2 ? options.positional[1] : MotionService.deviceMotion.topicName
            guard let service = MotionService(topicName: serviceName) else {
                options.fail("unknown service \(serviceName) (one of \(MotionService.allCases.map(\.topicName).joined(separator: ", ")))")
            }
            let board = ChartBoard(topics: TopicLayout(prefix: connection.prefix, deviceID: deviceID), service: service)
            filter = "\(board.topics.base)/#"
            render = { now in
                let size = terminalSize()
                return board.render(now: now, width: size.columns, height: size.rows - 1)
            }
            client = startClient(connection, filter) { board.receive(topic: $0.topic, payload: $0.payload, arrival: $1) }
        } else {
            let board = WatchBoard(prefix: connection.prefix)
            filter = "\(connection.prefix)/\(options["--device"] ?? "+")/#"
            render = { now in "motionctl watch \(connection.broker) \(filter)   (Ctrl-C to quit)\n\n" + board.render(now: now) }
            client = startClient(connection, filter) { board.receive(topic: $0.topic, payload: $0.payload, arrival: $1) }
        }
        let interactive = isatty(STDOUT_FILENO) == 1
        let pause = interactive ? 0.25 : 1
        // A reader that goes away (`| head`) ends the watch quietly instead of killing it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let start = ProcessInfo.processInfo.systemUptime
        Thread.sleep(forTimeInterval: pause)  // the retained topics first
        while true {
            let now = ProcessInfo.processInfo.systemUptime
            let finished = duration.map { now - start >= $0 } ?? false
            let screen = interactive ? "\u{1B}[H\u{1B}[2J" + render(now) : render(now) + "----\n"
            guard writeToStandardOutput(screen) else { break }
            if finished { break }
            Thread.sleep(forTimeInterval: pause)
        }
        client.shutdown(timeout: .seconds(1))
        exit(0)
    }

    /// Subscribes to `filter` and hands each message with its arrival time (system uptime, s) to `receive`.
    private static func startClient(
        _ connection: BrokerCommandOptions, _ filter: String, receive: @escaping @Sendable (MQTTMessage, Double) -> Void
    ) -> MQTTClient {
        connection.subscriber(to: [filter], command: "watch") { message in
            receive(message, ProcessInfo.processInfo.systemUptime)
        }
    }

    /// Writes `text` to standard output; false when the reader has gone (EPIPE) or it cannot be written.
    private static func writeToStandardOutput(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// The terminal's size, 80 × 24 when it cannot be read (also `vibration`'s live view).
    static func terminalSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
