import MotionContract
import MotionFleet
import Testing

/// A command round on answers as the agent writes them: matched by each device's response topic and secret.
@Suite struct CommandRoundTests {
    private static let accepted = Array(CommandAnswer.accepted.json().utf8)

    @Test("answers are matched by each device's response topic and secret; the rest did not confirm")
    func answersAreMatchedByTopicAndCorrelationData() {
        var round = CommandRound(token: "r1", devices: [("a", true), ("b", true), ("c", true), ("gone", false)])
        #expect(round.answerFilter == "motionctl/operator/replies/+/r1")
        #expect(round.responseTopic(for: "a") == "motionctl/operator/replies/a/r1")
        #expect(CommandRound.synchronizationTopic(token: "r1", account: nil) == "motionctl/operator/replies/sync.r1")
        #expect(CommandRound(token: "r1", account: "alice", devices: [("a", true)]).responseTopic(for: "a") == "motionctl/alice/replies/a/r1",
                "the operator's own account, as the fleet ACL reads")
        for unusable in ["", "a/b", "a+b", "#"] {
            #expect(CommandRound.repliesTree(account: unusable) == "motionctl/operator/replies", "\(unusable)")
        }
        #expect(round.targets == ["a", "b", "c"])
        let secretA = round.correlationData(for: "a")
        #expect(secretA.starts(with: Array("r1/".utf8)) && secretA.count == 3 + 32, "the token and 128 bits in hex")
        #expect(Set(["a", "b", "c"].map(round.correlationData(for:))).count == 3, "a secret per device")
        #expect(round.correlationData(for: "gone").isEmpty, "nothing is sent to an offline device")
        #expect(round.receive(answer: Self.accepted, topic: round.responseTopic(for: "a"), correlationData: secretA) == "a")
        let refusal = Array(CommandAnswer.refusal("no gyroscope", service: .gyro, payload: Array("start".utf8)).json().utf8)
        #expect(round.receive(answer: refusal, topic: round.responseTopic(for: "b"), correlationData: round.correlationData(for: "b")) == "b")
        // Another round's answer, a second answer, a device not in the round, garbage: ignored.
        let secretC = round.correlationData(for: "c")
        #expect(round.receive(answer: Self.accepted, topic: "motionctl/operator/replies/c/r2", correlationData: secretC) == nil)
        #expect(round.receive(answer: Self.accepted, topic: round.responseTopic(for: "b"), correlationData: round.correlationData(for: "b")) == nil)
        #expect(round.receive(answer: Self.accepted, topic: round.responseTopic(for: "zzz"), correlationData: Array("r1/zzz".utf8)) == nil)
        #expect(round.receive(answer: Array("{".utf8), topic: round.responseTopic(for: "c"), correlationData: secretC) == nil)
        #expect(round.receive(answer: Self.accepted, topic: round.responseTopic(for: "c"), correlationData: nil) == nil)
        #expect(!round.isComplete)
        round.finish()
        #expect(round.isComplete)
        #expect(round.outcomes == ["a": .confirmed, "b": .refused("no gyroscope"), "c": .noAnswer, "gone": .offline])
        #expect(round.unconfirmed == ["b", "c", "gone"])
        #expect(round.render() == """
            DEVICE  RESULT     ERROR
            a       ok         
            b       refused    no gyroscope
            c       no answer  no answer before the timeout
            gone    offline    the device is offline; not sent

            """)
        #expect(round.json().hasPrefix(#"{"results":[{"device":"a","result":"ok"},{"device":"b","result":"refused","error":"no gyroscope"}"#))
    }

    /// Issue 29, F1: device `a` learns the round's token from its own command and answers for `b`. With one
    /// response topic and `{token}/{device id}` as correlation data that confirmed `b`.
    @Test("one device cannot confirm a command for another")
    func aDeviceCannotConfirmForAnother() {
        var round = CommandRound(token: "r1", devices: [("a", true), ("b", true)])
        let ownCorrelation = round.correlationData(for: "a")
        // What `a` sees and could try: the old correlation form, its own secret on b's topic (the fleet ACL
        // refuses that publish; the round must not rely on it alone), b's name on its own topic, the sync topic.
        let forgeries: [(topic: String, correlation: [UInt8])] = [
            (round.responseTopic(for: "b"), Array("r1/b".utf8)),
            (round.responseTopic(for: "b"), ownCorrelation),
            (round.responseTopic(for: "a"), Array("r1/b".utf8)),
            (CommandRound.synchronizationTopic(token: "r1", account: nil), Array("r1/b".utf8)),
            ("motionctl/operator/replies/a/b/r1", ownCorrelation),
        ]
        for forgery in forgeries {
            #expect(round.receive(answer: Self.accepted, topic: forgery.topic, correlationData: forgery.correlation) == nil, "\(forgery)")
        }
        #expect(round.outcomes["b"] == .pending)
        #expect(round.receive(answer: Self.accepted, topic: round.responseTopic(for: "a"), correlationData: ownCorrelation) == "a")
        #expect(round.outcomes["b"] == .pending, "a's own answer confirms only a")
    }

    @Test("a confirmation's warning (a document kept in memory only) is shown beside it")
    func aWarningIsShown() {
        var round = CommandRound(token: "t", devices: [("a", true)])
        let answer = Array(CommandAnswer.accepted(version: 3, warning: "remote configuration kept in memory only (x)").json().utf8)
        #expect(round.receive(answer: answer, topic: round.responseTopic(for: "a"), correlationData: round.correlationData(for: "a")) == "a")
        #expect(round.outcomes["a"] == .confirmed && round.warnings["a"] == "remote configuration kept in memory only (x)")
        #expect(round.render().contains("a       ok      warning: remote configuration kept in memory only (x)"), "\(round.render())")
        #expect(round.json().contains(#""warning":"remote configuration kept in memory only (x)""#))
    }

    @Test func aFailedSendIsNotSent() {
        var round = CommandRound(token: "r", devices: [("a", true)])
        round.sendFailed("a", reason: "not connected")
        #expect(round.outcomes["a"] == .notSent("not connected") && round.isComplete && round.unconfirmed == ["a"])
    }
}
