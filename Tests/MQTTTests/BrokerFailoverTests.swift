import Testing

@testable import MQTT

/// The order in which a client with several brokers (a cluster's nodes) tries them.
@Suite struct BrokerFailoverTests {
    @Test func oneBrokerAlwaysWaitsTheBackoff() {
        var failover = BrokerFailover(count: 1)
        #expect(failover.next(afterAcceptedConnection: true) == (0, true))
        #expect(failover.next(afterAcceptedConnection: false) == (0, true))
        #expect(BrokerFailover(count: 0).count == 1, "no list is one broker")
    }

    @Test func aLostNodeIsReplacedAtOnceAndAClusterThatIsDownIsNotHammered() {
        var failover = BrokerFailover(count: 3)
        #expect(failover.current == 0)
        #expect(failover.next(afterAcceptedConnection: true) == (1, false), "connected node lost: the next one at once")
        #expect(failover.next(afterAcceptedConnection: false) == (2, false), "that one failed too: the third at once")
        #expect(failover.next(afterAcceptedConnection: false) == (0, true), "all three failed since the last connection: back off")
        #expect(failover.next(afterAcceptedConnection: false) == (1, true), "still all down: every attempt backs off")
        #expect(failover.next(afterAcceptedConnection: true) == (2, false), "connected again and lost: at once again")
        #expect(failover.next(afterAcceptedConnection: false) == (0, false))
    }

    @Test func twoNodesAlternate() {
        var failover = BrokerFailover(count: 2)
        let steps = (0..<4).map { _ in failover.next(afterAcceptedConnection: false) }
        #expect(steps.map(\.broker) == [1, 0, 1, 0])
        #expect(steps.map(\.waits) == [false, true, true, true], "the first failure moves on at once, then both failed")
    }
}
