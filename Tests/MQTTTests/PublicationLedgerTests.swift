import Testing

@testable import MQTT

/// The bookkeeping of publications owed an outcome, without a broker.
@Suite struct PublicationLedgerTests {
    @Test func aDirectPublicationIsPendingUntilCompleted() {
        var ledger = PublicationLedger()
        #expect(ledger.registerSent(7, acknowledged: .atLeastOnce, journalKey: 42) == nil)
        #expect(ledger.isPending(7) && !ledger.wasPublished(7) && ledger.awaitingAcknowledgement == [7])
        let (published, key) = ledger.complete(7)
        #expect(published == 7 && key == 42)
        #expect(!ledger.isPending(7) && ledger.wasPublished(7) && ledger.awaitingAcknowledgement.isEmpty)
        // QoS 0: nothing to acknowledge, no journal.
        #expect(ledger.registerSent(8, acknowledged: .atMostOnce, journalKey: nil) == nil)
        #expect(ledger.awaitingAcknowledgement.isEmpty && ledger.isPending(8))
    }

    @Test func aCompletionThatBeatsItsRegistrationIsNotLost() {
        var ledger = PublicationLedger()
        // The network thread acknowledged message 9 before `publish` returned its ID.
        #expect(ledger.complete(9) == (9, nil))
        // Registering it then finds it done: its journal key is to be deleted, nothing stays pending.
        #expect(ledger.registerSent(9, acknowledged: .atLeastOnce, journalKey: 5) == 5)
        #expect(!ledger.isPending(9) && ledger.wasPublished(9) && ledger.awaitingAcknowledgement.isEmpty)
    }

    @Test func qos0MessagesCompletedInsidePublishLeaveNothingBehind() {
        var ledger = PublicationLedger()
        // libmosquitto completes a QoS 0 message inside mosquitto_publish, before its registration.
        for id in Int32(1)...100 {
            #expect(ledger.complete(id) == (id, nil))
            #expect(ledger.registerSent(id, acknowledged: .atMostOnce, journalKey: nil) == nil)
            #expect(ledger.wasPublished(id) && !ledger.isPending(id))
        }
        #expect(ledger == PublicationLedger())
    }

    @Test func severalEarlyCompletionsAreEachFoundAtTheirRegistration() {
        var ledger = PublicationLedger()
        // Three completions overtake their registrations (the network thread raced ahead), found in
        // another order than they came.
        for id: Int32 in [4, 5, 6] { _ = ledger.complete(id) }
        for id: Int32 in [5, 6, 4] {
            #expect(ledger.registerSent(id, acknowledged: .atLeastOnce, journalKey: Int64(id) * 10) == Int64(id) * 10, "\(id)")
            #expect(!ledger.isPending(id), "\(id)")
        }
        #expect(ledger == PublicationLedger())
        // A registration that no completion overtook stays pending.
        #expect(ledger.registerSent(7, acknowledged: .atMostOnce, journalKey: nil) == nil && ledger.isPending(7))
    }

    @Test func aFlushedBufferedMessageCompletesUnderItsBufferedID() {
        var ledger = PublicationLedger()
        ledger.registerBuffered(-1)
        #expect(ledger.isPending(-1))
        ledger.recordFlushed(-1, as: 3, qos: .exactlyOnce, journalKey: 11)
        #expect(ledger.awaitingAcknowledgement == [3])
        #expect(ledger.complete(3) == (-1, 11))
        #expect(ledger.wasPublished(-1) && !ledger.isPending(3))
    }

    @Test func anAbandonedBufferedMessageWasNotPublished() {
        var ledger = PublicationLedger()
        ledger.registerBuffered(-2)
        ledger.abandon(-2)
        #expect(!ledger.isPending(-2) && !ledger.wasPublished(-2))
    }

    @Test func theMemoryOfEarlyCompletionsIsBounded() {
        var ledger = PublicationLedger()
        for id in 1...Int32(PublicationLedger.memoryLimit * 3) { _ = ledger.complete(id) }
        // Still consistent after the set was emptied: a late registration is simply pending.
        #expect(ledger.registerSent(1, acknowledged: .atLeastOnce, journalKey: nil) == nil)
        #expect(ledger.isPending(1))
    }
}

/// The reconnect and protocol-fallback decision, without a broker.
@Suite struct ReconnectPolicyTests {
    private let backoff = MQTTReconnectBackoff(minimumDelay: 1, maximumDelay: 30, seed: 7)

    @Test func failuresBackOffAndAnAcceptedConnectionStartsOver() {
        var policy = ReconnectPolicy(backoff: backoff, allowsFallback: true)
        let refusedByNetwork = ReconnectPolicy.Outcome(protocolVersion: .v311, connackReasonCode: nil, result: .systemError)
        #expect(policy.next(after: refusedByNetwork) == .retry(after: backoff.duration(afterFailedAttempts: 1)))
        #expect(policy.next(after: refusedByNetwork) == .retry(after: backoff.duration(afterFailedAttempts: 2)))
        #expect(policy.failedAttempts == 2)
        // The connection was up (CONNACK 0) and then lost: the schedule starts again.
        let lostAfterAccept = ReconnectPolicy.Outcome(protocolVersion: .v311, connackReasonCode: 0, result: .connectionLost)
        #expect(policy.next(after: lostAfterAccept) == .retry(after: backoff.duration(afterFailedAttempts: 1)))
    }

    @Test func mqtt5FallsBackWhenTheBrokerRefusesTheVersion() {
        var policy = ReconnectPolicy(backoff: backoff, allowsFallback: true)
        for code in [ReconnectPolicy.unsupportedProtocolVersion, ReconnectPolicy.unacceptableProtocolVersion] {
            #expect(policy.next(after: .init(protocolVersion: .v5, connackReasonCode: code, result: .connectionLost)) == .fallBackToMQTT311)
        }
        // A 3.1.1 connection refused the same way just retries; so does MQTT 5 without fallback.
        #expect(policy.next(after: .init(protocolVersion: .v311, connackReasonCode: 1, result: .connectionLost)) != .fallBackToMQTT311)
        var strict = ReconnectPolicy(backoff: backoff, allowsFallback: false)
        #expect(strict.next(after: .init(protocolVersion: .v5, connackReasonCode: 0x84, result: .connectionLost)) != .fallBackToMQTT311)
        // Other refusals (bad credentials, 0x87) never fall back.
        #expect(policy.next(after: .init(protocolVersion: .v5, connackReasonCode: 0x87, result: .connectionLost)) != .fallBackToMQTT311)
    }

    @Test func twoConnectionsClosedBeforeAnyConnackFallBack() {
        var policy = ReconnectPolicy(backoff: backoff, allowsFallback: true)
        let closed = ReconnectPolicy.Outcome(protocolVersion: .v5, connackReasonCode: nil, result: .connectionLost)
        #expect(policy.next(after: closed) != .fallBackToMQTT311)
        #expect(policy.next(after: closed) == .fallBackToMQTT311)
        // Something else in between (a refused TCP connection) resets the count.
        var interrupted = ReconnectPolicy(backoff: backoff, allowsFallback: true)
        _ = interrupted.next(after: closed)
        _ = interrupted.next(after: .init(protocolVersion: .v5, connackReasonCode: nil, result: .systemError))
        #expect(interrupted.next(after: closed) != .fallBackToMQTT311)
    }

    @Test func resultsAreTyped() {
        #expect(MosquittoResult.success.isSuccess && !MosquittoResult.noConnection.isSuccess)
        let dropped = [MosquittoResult.noConnection, .connectionLost, .systemError].allSatisfy { $0.meansConnectionDropped }
        #expect(dropped)
        #expect(!MosquittoResult.invalid.meansConnectionDropped && !MosquittoResult.payloadTooLarge.meansConnectionDropped)
        #expect(MosquittoResult(0) == .success)
    }
}
