import MotionContract
import MotionFleet
import Testing

/// A command round on answers as the agent writes them: matched by correlation data only.
@Suite struct CommandRoundTests {
    private static let accepted = Array(CommandAnswer.accepted.json().utf8)

    @Test("answers are matched by the round's correlation data; the rest did not confirm")
    func answersAreMatchedByCorrelationData() {
        var round = CommandRound(token: "r1", devices: [("a", true), ("b", true), ("c", true), ("gone", false)])
        #expect(round.responseTopic == "motionctl/operator/replies/r1")
        #expect(CommandRound.responseTopic(token: "r1", account: "alice") == "motionctl/alice/replies/r1", "the operator's own account, as the fleet ACL reads")
        for unusable in ["", "a/b", "a+b", "#"] {
            #expect(CommandRound.responseTopic(token: "r1", account: unusable) == "motionctl/operator/replies/r1", "\(unusable)")
        }
        #expect(round.targets == ["a", "b", "c"])
        #expect(round.correlationData(for: "a") == Array("r1/a".utf8))
        #expect(round.receive(answer: Self.accepted, correlationData: round.correlationData(for: "a")) == "a")
        let refusal = Array(CommandAnswer.refusal("no gyroscope", service: .gyro, payload: Array("start".utf8)).json().utf8)
        #expect(round.receive(answer: refusal, correlationData: Array("r1/b".utf8)) == "b")
        // Another round's answer, a second answer, a device not in the round, garbage: ignored.
        #expect(round.receive(answer: Self.accepted, correlationData: Array("r2/c".utf8)) == nil)
        #expect(round.receive(answer: Self.accepted, correlationData: Array("r1/b".utf8)) == nil)
        #expect(round.receive(answer: Self.accepted, correlationData: Array("r1/zzz".utf8)) == nil)
        #expect(round.receive(answer: Array("{".utf8), correlationData: Array("r1/c".utf8)) == nil)
        #expect(round.receive(answer: Self.accepted, correlationData: nil) == nil)
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

    @Test func aFailedSendIsNotSent() {
        var round = CommandRound(token: "r", devices: [("a", true)])
        round.sendFailed("a", reason: "not connected")
        #expect(round.outcomes["a"] == .notSent("not connected") && round.isComplete && round.unconfirmed == ["a"])
    }
}
