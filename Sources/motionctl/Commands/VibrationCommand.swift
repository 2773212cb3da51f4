import Foundation
import MotionContract
import MotionFleet
import MQTT
import Synchronization

/// `motionctl vibration DEVICE`: one machine's vibration service (contract 1.8) live: zone, levels,
/// running speed, the spectrum as a bar chart with its peaks, and the peak table (``VibrationView``), asking
/// the device for its spectrum at the start; `--plot` writes the last spectrum and the velocity trend as SVG
/// when it ends (``VibrationPlot``). Exit status 0, 1 when `--timeout` passed before `--count` summaries,
/// 64 usage error, 69 broker unreachable, 73 the plot cannot be written.
enum VibrationCommand {
    /// The command's usage, printed by `--help` and with a usage error.
    static let usage = """
        usage: motionctl vibration DEVICE_ID [--count N] [--timeout SECONDS] [--plot FILE.svg] [--no-request]
                                   \(BrokerCommandOptions.usage)
          shows the device's vibration service (contract 1.8): online or offline, the ISO 20816 zone with its
          limits and machine class, velocity RMS (mm/s), acceleration RMS (g), crest factor, kurtosis, the
          running speed (rpm), the spectrum as a bar chart of the vector's lines (mg, peaks marked ▲) and the
          peak table (frequency, mg, mm/s, order, axis); re-drawn on each summary and spectrum, and printed
          once per summary when standard output is not a terminal
          asks the device for its spectrum at once (the `spectrum` command, with a response topic; a
          refusal is shown; while no spectrum came, asked again after a summary, 3 times at most)
          --count N        stop after N summaries
          --timeout S      stop after S seconds; exit status 1 if fewer than N summaries (one without
                           --count) arrived by then
          --plot FILE.svg  when it ends, write the last spectrum (x, y, z; log mg over Hz; peaks labelled
                           with their order) and the velocity RMS of every summary over the zones A–D there
          --no-request     do not ask for a spectrum: wait for the device's own (spectrum_interval)
          exit status: 0, 1 too few summaries before --timeout, 64 usage error, 69 broker unreachable,
          73 the plot cannot be written
        """

    /// The most times the spectrum is asked for.
    static let maximumRequests = 3

    /// Runs the command with `arguments` (those after `vibration`) and exits.
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: BrokerCommandOptions.valued.union(["--count", "--timeout", "--plot"]), switches: ["--no-request"], usage: usage)
        guard options.positional.count == 1, let deviceID = options.positional.first else { options.fail("vibration takes one DEVICE_ID") }
        guard TopicLayout.isTopicLevel(deviceID) else { options.fail("DEVICE_ID \(deviceID) is not one topic level") }
        let connection = BrokerCommandOptions(options)
        let count = options.number("--count", atLeast: 1, atMost: 1e9).map { Int($0) }
        let timeout = options.number("--timeout", atLeast: .leastNonzeroMagnitude, atMost: 1e9)
        let plot = options["--plot"]
        if let plot { checkPlotPath(plot, options) }
        let board = VibrationBoard(topics: TopicLayout(prefix: connection.prefix, deviceID: deviceID))
        let requester = options.flags.contains("--no-request") ? nil : SpectrumRequester(deviceID: deviceID, topics: board.topics, account: connection.username)
        let screen = Screen(interactive: isatty(STDOUT_FILENO) == 1, count: count)
        let connected = Mutex(false)
        // A reader that goes away (`| head`) ends the command quietly instead of killing it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let client = connection.subscriber(
            to: board.filters + (requester.map { [$0.answerFilter] } ?? []), command: "vibration",
            onSubscribed: { client in
                let first = connected.withLock { connected in
                    defer { connected = true }
                    return !connected
                }
                guard first else { return }
                screen.show(board.snapshot)
                requester?.send(with: client, board: board)
            }
        ) { message in
            if let requester, requester.receive(message, board: board, screen: screen) {
                screen.show(board.snapshot)
                return
            }
            switch board.receive(topic: message.topic, payload: message.payload) {
            case .summary?:
                screen.summaryArrived(board.snapshot)
                requester?.repeatIfUnanswered(board: board)
            case .spectrum?:
                screen.show(board.snapshot)
            case .other?, nil:
                break
            }
        }
        guard BrokerCommandOptions.wait(until: Date().addingTimeInterval(5), for: { connected.withLock { $0 } }) else {
            client.shutdown(timeout: .seconds(1))
            CommandOptions.exit("no connection to \(connection.broker) within 5 s", status: 69)
        }
        let started = Date()
        DispatchQueue(label: "motionctl.vibration.stop").async {
            CommandOptions.waitForStop(after: timeout)
            screen.finish()
        }
        screen.waitUntilFinished()
        client.shutdown(timeout: .seconds(1))
        let view = board.snapshot
        if let plot {
            do {
                try Data(VibrationPlot.svg(view).utf8).write(to: URL(fileURLWithPath: plot))
            } catch {
                CommandOptions.exit("cannot write \(plot): \(error.localizedDescription)", status: 73)  // EX_CANTCREAT
            }
            FileHandle.standardError.write(Data("motionctl: wrote \(plot)\n".utf8))
        }
        let wanted = count ?? 1
        if let timeout, Date().timeIntervalSince(started) >= timeout, view.trend.count < wanted {
            CommandOptions.exit(
                "\(view.trend.count) of \(wanted) summar\(wanted == 1 ? "y" : "ies") from \(DeviceText.id(board.topics.base)) within "
                    + "\(VibrationView.compact(timeout)) s", status: 1)
        }
        exit(0)
    }

    /// Refuses a `--plot` path whose directory does not exist or that names a directory, before anything
    /// is measured.
    private static func checkPlotPath(_ path: String, _ options: CommandOptions) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            options.fail("--plot: \(path) is a directory")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            options.fail("--plot: no directory \(directory)")
        }
    }
}
