import MotionContract

/// One command sent to many devices and the answers that come back: a pure value.
///
/// **Why an answer can be trusted.** Each device's command names a response topic of its own,
/// `motionctl/{account}/replies/{device id}/{token}`, and correlation data `{token}/{secret}` with a
/// secret drawn for that device and this round only. An answer counts for a device only when it arrives
/// on that device's response topic with that device's correlation data. Under the fleet ACL
/// (`Deploy/mosquitto/motionbridge.acl`) a device may write answers only under its own id level and read
/// only its own commands, so another device can neither publish on the victim's response topic nor learn
/// its secret: either rule alone stops a forged confirmation. Answers of other rounds, of devices not in
/// the round, second answers and payloads that are not answers are ignored.
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

    /// The round's identifier: random, the last level of every response topic and the first part of
    /// every correlation datum.
    public let token: String
    /// The operator account's topic level in the response topics (see ``repliesTree(account:)``).
    public let account: String
    /// Each device's outcome.
    public private(set) var outcomes: [String: Outcome]
    /// What confirming devices added to their answer (a document kept in memory only), by device.
    public private(set) var warnings: [String: String] = [:]
    /// Each device's secret, in its correlation data only.
    private let secrets: [String: String]

    /// The tree the devices answer an operator account in: `motionctl/{account}/replies` (outside every
    /// device's subtree; under the fleet ACL the account reads it and each device writes only its own
    /// level of it).
    /// - Parameter account: the operator's broker user name; `operator` without one, or when the name
    ///   cannot be a topic level (empty, or holding `/`, `+` or `#`).
    public static func repliesTree(account: String?) -> String {
        "motionctl/\(level(of: account))/replies"
    }

    /// A topic of the account's own in its replies tree, `motionctl/{account}/replies/sync.{token}`: a tool
    /// publishes there to learn that the retained messages of its subscriptions have arrived. Under the
    /// fleet ACL a device writes only `…/replies/{its id}` and below, and no device id has a dot.
    public static func synchronizationTopic(token: String, account: String?) -> String {
        "\(repliesTree(account: account))/sync.\(token)"
    }

    private static func level(of account: String?) -> String {
        account.flatMap { TopicLayout.isTopicLevel($0) ? $0 : nil } ?? "operator"
    }

    /// A round for `devices`; those with `offline` availability are not sent to. Each reachable device gets
    /// a secret of 128 bits from `generator`.
    /// - Parameters:
    ///   - token: a random identifier of `[a-z0-9]` (the caller draws it).
    ///   - account: the operator's broker user name (see ``repliesTree(account:)``).
    ///   - devices: each device id with whether it can be sent to (online or stale) or is offline.
    ///   - generator: the source of the secrets; the system's (`getrandom`) by default.
    public init(
        token: String, account: String? = nil, devices: [(id: String, reachable: Bool)],
        using generator: inout some RandomNumberGenerator
    ) {
        self.token = token
        self.account = Self.level(of: account)
        outcomes = Dictionary(uniqueKeysWithValues: devices.map { ($0.id, $0.reachable ? Outcome.pending : .offline) })
        var secrets: [String: String] = [:]
        for device in devices where device.reachable {
            secrets[device.id] = (0..<2).map { _ in
                let word = String(generator.next() as UInt64, radix: 16)
                return String(repeating: "0", count: 16 - word.count) + word
            }.joined()
        }
        self.secrets = secrets
    }

    /// A round with secrets from the system's random number generator.
    public init(token: String, account: String? = nil, devices: [(id: String, reachable: Bool)]) {
        var generator = SystemRandomNumberGenerator()
        self.init(token: token, account: account, devices: devices, using: &generator)
    }

    /// The devices to send to, sorted.
    public var targets: [String] { outcomes.filter { $0.value == .pending }.keys.sorted() }

    /// The filter that receives every answer of the round: `motionctl/{account}/replies/+/{token}`.
    public var answerFilter: String { Self.answerFilter(token: token, account: account) }

    /// The filter that receives every answer of round `token` in `account`'s replies tree (a tool subscribes
    /// before it knows the devices).
    public static func answerFilter(token: String, account: String?) -> String { "\(repliesTree(account: account))/+/\(token)" }

    /// Where `deviceID` answers: `motionctl/{account}/replies/{device id}/{token}`.
    public func responseTopic(for deviceID: String) -> String { "\(Self.repliesTree(account: account))/\(deviceID)/\(token)" }

    /// The correlation data of the command to `deviceID`: `{token}/{secret}` (empty for a device that is
    /// not sent to).
    public func correlationData(for deviceID: String) -> [UInt8] {
        secrets[deviceID].map { Array("\(token)/\($0)".utf8) } ?? []
    }

    /// Records that sending to `deviceID` failed.
    public mutating func sendFailed(_ deviceID: String, reason: String) {
        guard outcomes[deviceID] == .pending else { return }
        outcomes[deviceID] = .notSent(reason)
    }

    /// Takes in a message that arrived on one of the round's response topics (``answerFilter``).
    /// - Returns: the device it answered for, or `nil` when it is not an answer of this round: another
    ///   topic, a device not sent to or already answered, correlation data other than that device's, or a
    ///   payload that is not an answer.
    @discardableResult
    public mutating func receive(answer payload: [UInt8], topic: String, correlationData: [UInt8]?) -> String? {
        let tree = Self.repliesTree(account: account) + "/"
        let suffix = "/" + token
        guard topic.hasPrefix(tree), topic.hasSuffix(suffix), topic.utf8.count > tree.utf8.count + suffix.utf8.count else { return nil }
        let deviceID = String(decoding: topic.utf8.dropFirst(tree.utf8.count).dropLast(suffix.utf8.count), as: UTF8.self)
        guard outcomes[deviceID] == .pending, let correlationData, correlationData == self.correlationData(for: deviceID),
              let answer = try? CommandAnswer(payload: payload)
        else { return nil }
        outcomes[deviceID] = answer.ok ? .confirmed : .refused(answer.error ?? "refused")
        if answer.ok, let warning = answer.warning { warnings[deviceID] = warning }
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

    /// The result table: `DEVICE  RESULT  ERROR`, one line per device (a confirmed device's warning in the
    /// last column).
    public func render() -> String {
        var rows = [["DEVICE", "RESULT", "ERROR"]]
        for id in outcomes.keys.sorted() {
            let (result, error) = Self.describe(outcomes[id]!)
            rows.append([DeviceText.id(id), result, DeviceText.text(warnings[id].map { "warning: \($0)" } ?? error, limit: 300)])
        }
        return TextTable.render(rows)
    }

    /// The JSON form: `{"results":[{"device":…,"result":…[,"error":…][,"warning":…]}, …]}`.
    public func json() -> String {
        var writer = JSONWriter()
        writer.array("results", objects: outcomes.keys.sorted()) { id, entry in
            let (result, error) = Self.describe(outcomes[id]!)
            entry.field("device", id)
            entry.field("result", result)
            if !error.isEmpty { entry.field("error", error) }
            if let warning = warnings[id] { entry.field("warning", warning) }
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
