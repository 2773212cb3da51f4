import MotionContract

/// One command sent to many devices and the answers that come back: a pure value. Each device's
/// command carries the round's MQTT 5 response topic and correlation data naming the round and the
/// device; an answer is matched by that correlation data only (anyone allowed to write to the replies
/// tree could send one), so answers of other rounds and forged device names are ignored.
public struct CommandRound: Sendable {
    /// What became of the command for one device.
    public enum Outcome: Sendable, Equatable {
        /// Sent, not answered yet.
        case pending
        /// Answered `{"ok":true}`: applied.
        case confirmed
        /// Answered `{"ok":false,…}`: refused, with the agent's reason.
        case refused(String)
        /// Not sent: the device's retained status says `offline`.
        case offline
        /// Not sent, or the send failed: the reason.
        case notSent(String)
        /// Sent, and no answer came before the deadline.
        case noAnswer

        /// Whether the device confirmed.
        public var isConfirmed: Bool { self == .confirmed }
    }

    /// The round's identifier: random, in the response topic and every correlation datum.
    public let token: String
    /// Where the devices answer: ``responseTopic(token:account:)`` of the round's token (the default account).
    public var responseTopic: String { Self.responseTopic(token: token) }

    /// Where the devices answer a round: `motionctl/{account}/replies/{token}` (outside every device's
    /// subtree, where the fleet ACL lets devices write and the operator account `account` read).
    /// - Parameter account: the operator's broker user name; `operator` without one, or when the name
    ///   cannot be a topic level (empty, or holding `/`, `+` or `#`).
    public static func responseTopic(token: String, account: String? = nil) -> String {
        let level = account.flatMap { TopicLayout.isTopicLevel($0) ? $0 : nil } ?? "operator"
        return "motionctl/\(level)/replies/\(token)"
    }
    /// Each device's outcome.
    public private(set) var outcomes: [String: Outcome]

    /// A round for `devices`; those with `offline` availability are not sent to.
    /// - Parameters:
    ///   - token: a random identifier of `[a-z0-9]` (the caller draws it).
    ///   - devices: each device id with whether it can be sent to (online or stale) or is offline.
    public init(token: String, devices: [(id: String, reachable: Bool)]) {
        self.token = token
        outcomes = Dictionary(uniqueKeysWithValues: devices.map { ($0.id, $0.reachable ? Outcome.pending : .offline) })
    }

    /// The devices to send to, sorted.
    public var targets: [String] { outcomes.filter { $0.value == .pending }.keys.sorted() }

    /// The correlation data of the command to `deviceID`: `{token}/{device id}`.
    public func correlationData(for deviceID: String) -> [UInt8] { Array("\(token)/\(deviceID)".utf8) }

    /// Records that sending to `deviceID` failed.
    public mutating func sendFailed(_ deviceID: String, reason: String) {
        guard outcomes[deviceID] == .pending else { return }
        outcomes[deviceID] = .notSent(reason)
    }

    /// Takes in a message that arrived on the response topic.
    /// - Returns: the device it answered for, or `nil` when it is not an answer of this round (other
    ///   correlation data, an unknown or already answered device, or a payload that is not an answer).
    @discardableResult
    public mutating func receive(answer payload: [UInt8], correlationData: [UInt8]?) -> String? {
        guard let data = correlationData, data.starts(with: Array("\(token)/".utf8)) else { return nil }
        let deviceID = String(decoding: data.dropFirst(token.utf8.count + 1), as: UTF8.self)
        guard outcomes[deviceID] == .pending, let answer = try? CommandAnswer(payload: payload) else { return nil }
        outcomes[deviceID] = answer.ok ? .confirmed : .refused(answer.error ?? "refused")
        return deviceID
    }

    /// Whether every command sent has been answered.
    public var isComplete: Bool { !outcomes.values.contains(.pending) }

    /// Ends the round: every device still pending has not answered.
    public mutating func finish() {
        for (id, outcome) in outcomes where outcome == .pending { outcomes[id] = .noAnswer }
    }

    /// The devices that did not confirm, sorted.
    public var unconfirmed: [String] { outcomes.filter { !$0.value.isConfirmed }.keys.sorted() }

    /// The result table: `DEVICE  RESULT  ERROR`, one line per device.
    public func render() -> String {
        var rows = [["DEVICE", "RESULT", "ERROR"]]
        for id in outcomes.keys.sorted() {
            let (result, error) = Self.describe(outcomes[id]!)
            rows.append([id, result, error])
        }
        return TextTable.render(rows)
    }

    /// The JSON form: `{"results":[{"device":…,"result":…[,"error":…]}, …]}`.
    public func json() -> String {
        var writer = JSONWriter()
        writer.array("results", objects: outcomes.keys.sorted()) { id, entry in
            let (result, error) = Self.describe(outcomes[id]!)
            entry.field("device", id)
            entry.field("result", result)
            if !error.isEmpty { entry.field("error", error) }
        }
        return writer.finished() + "\n"
    }

    private static func describe(_ outcome: Outcome) -> (result: String, error: String) {
        switch outcome {
        case .pending: ("pending", "")
        case .confirmed: ("ok", "")
        case .refused(let reason): ("refused", reason)
        case .offline: ("offline", "the device is offline; not sent")
        case .notSent(let reason): ("not sent", reason)
        case .noAnswer: ("no answer", "no answer before the timeout")
        }
    }
}
