import Foundation
import MotionContract
import MotionFleet
import MQTT
import Synchronization

extension VibrationCommand {
    /// Where the view goes: re-drawn in place on a terminal, printed once per summary otherwise; counts the
    /// summaries and says when the command is finished (`--count` reached, the reader gone, or stopped).
    ///
    /// Thread-safe: called on the MQTT client's thread and the stopping one.
    final class Screen: Sendable {
        /// Whether standard output is a terminal.
        let interactive: Bool
        /// The summaries after which it finishes, if any.
        let count: Int?
        private let summaries = Mutex((count: 0, finished: false))
        private let finished = DispatchSemaphore(value: 0)

        /// Creates a screen for standard output.
        init(interactive: Bool, count: Int?) {
            self.interactive = interactive
            self.count = count
        }

        /// Re-draws `view` on a terminal (the spectrum, a status, an answer changed); nothing otherwise.
        func show(_ view: VibrationView) {
            guard interactive else { return }
            summaries.withLock { state in
                guard !state.finished else { return }
                draw(view, finished: &state.finished)
            }
        }

        /// Counts a summary and shows `view`, which holds it; finishes at the `--count`-th.
        func summaryArrived(_ view: VibrationView) {
            summaries.withLock { state in
                guard !state.finished else { return }
                state.count += 1
                draw(view, finished: &state.finished)
                if let count, state.count >= count, !state.finished {
                    state.finished = true
                    finished.signal()
                }
            }
        }

        /// Says `text` on standard error when standard output is not a terminal (on a terminal the view's
        /// note line shows it).
        func report(_ text: String) {
            guard !interactive else { return }
            FileHandle.standardError.write(Data("motionctl: \(DeviceText.escaped(text))\n".utf8))
        }

        /// Ends the command (stopped or timed out).
        func finish() {
            summaries.withLock { state in
                guard !state.finished else { return }
                state.finished = true
                finished.signal()
            }
        }

        /// Blocks until the command is finished.
        func waitUntilFinished() {
            finished.wait()
        }

        /// Writes the view: the whole screen in place on a terminal, the lines and `----` otherwise; a reader
        /// that went away finishes the command.
        private func draw(_ view: VibrationView, finished isFinished: inout Bool) {
            let text: String
            if interactive {
                let size = WatchCommand.terminalSize()
                text = "\u{1B}[H\u{1B}[2J" + view.render(width: size.columns, height: size.rows - 1)
            } else {
                text = view.render() + "----\n"
            }
            do {
                try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
            } catch {
                isFinished = true
                finished.signal()
            }
        }
    }

    /// The `spectrum` command to the device, sent with a response topic and correlation data of its own
    /// (a ``CommandRound`` of one device, as `start` and `stop` send theirs), its answer, and its repetition
    /// after a summary while no spectrum came and the last request was not confirmed (refused: the service
    /// had no spectrum yet; unanswered: the agent was not yet subscribed), at most
    /// ``VibrationCommand/maximumRequests`` in all.
    ///
    /// Thread-safe: called on the MQTT client's thread.
    final class SpectrumRequester: Sendable {
        /// The device asked.
        let deviceID: String
        /// Its topics.
        let topics: TopicLayout
        /// The operator's broker user name, for the replies tree.
        let account: String?
        /// The token of every round of this run.
        let token = String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })

        private struct State: Sendable {
            var round: CommandRound?
            var sent = 0
            var confirmed = false
            var client: MQTTClient?
        }

        private let state = Mutex(State())

        /// Creates the request for `deviceID`.
        init(deviceID: String, topics: TopicLayout, account: String?) {
            self.deviceID = deviceID
            self.topics = topics
            self.account = account
        }

        /// The filter the answers arrive on.
        var answerFilter: String { CommandRound.answerFilter(token: token, account: account) }

        /// Sends the request through `client`; a failure to send is noted on `board`.
        func send(with client: MQTTClient, board: VibrationBoard) {
            let message = state.withLock { state in
                let round = CommandRound(token: token, account: account, devices: [(deviceID, true)])
                state.round = round
                state.sent += 1
                state.confirmed = false
                state.client = client
                return MQTTMessage(
                    topic: topics.control(.vibration), payload: ControlCommand.spectrumRequest.payload(), qos: .atLeastOnce,
                    responseTopic: round.responseTopic(for: deviceID), correlationData: round.correlationData(for: deviceID))
            }
            do {
                _ = try client.publish(message)
            } catch {
                board.note("spectrum request not sent: \(error)")
            }
        }

        /// Takes in `message` when it arrived on the replies tree: the answer is noted on `board` (a refusal
        /// with its reason, also said through `screen`).
        /// - Returns: whether the message was on the replies tree (nothing else to do with it).
        func receive(_ message: MQTTMessage, board: VibrationBoard, screen: Screen) -> Bool {
            guard message.topic.hasPrefix(CommandRound.repliesTree(account: account) + "/") else { return false }
            let outcome = state.withLock { state -> CommandRound.Outcome? in
                guard var round = state.round,
                      round.receive(answer: message.payload, topic: message.topic, correlationData: message.correlationData) != nil
                else { return nil }
                state.round = round
                state.confirmed = round.outcomes[deviceID] == .confirmed
                return round.outcomes[deviceID]
            }
            if case .refused(let reason)? = outcome {
                let again = board.snapshot.spectrum == nil && state.withLock { $0.sent } < VibrationCommand.maximumRequests
                let text = "spectrum request refused: \(reason)" + (again ? " (asking again after the next summary)" : "")
                board.note(text)
                screen.report("\(DeviceText.id(deviceID)): \(text)")
            }
            return true
        }

        /// Asks again when the last request was not confirmed and no spectrum has arrived since.
        func repeatIfUnanswered(board: VibrationBoard) {
            let client = state.withLock { state -> MQTTClient? in
                guard !state.confirmed, state.sent < VibrationCommand.maximumRequests else { return nil }
                return state.client
            }
            guard let client, board.snapshot.spectrum == nil else { return }
            send(with: client, board: board)
        }
    }
}
