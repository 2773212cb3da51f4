import MotionContract
import Testing

@testable import MotionAgent

/// The Sparkplug B edge node's session as a pure value, against Sparkplug 3.0's rules: `bdSeq` per
/// connection, `seq` from 0 in NBIRTH, births before data, aliases, the rebirth, the primary host's STATE,
/// the store kept while the node may not publish, and the commands it takes and refuses.
@Suite struct SparkplugSessionTests {
    static let identity = SparkplugIdentity(group: "plant-1", edgeNode: "press-7", primaryHost: nil)

    static func session(primaryHost: String? = nil, storeLimit: Int = 100) -> SparkplugSession {
        var identity = identity
        identity.primaryHost = primaryHost
        var session = SparkplugSession(
            identity: identity, nodeMetrics: [SparkplugMetric(name: SparkplugMetricName.version, timestamp: 1, value: .string("1.0"))],
            storeLimit: storeLimit)
        _ = session.declareDevice(
            "accelerometer",
            metrics: [
                SparkplugMetric(name: SparkplugMetricName.running, timestamp: 1, value: .boolean(true)),
                SparkplugMetric(name: SparkplugMetricName.interval, timestamp: 1, value: .double(0.1)),
                SparkplugMetric(name: "x", timestamp: 1, nullOf: .float),
            ],
            now: 1)
        return session
    }

    static func sample(_ x: Float, at time: UInt64) -> [SparkplugMetric] {
        [SparkplugMetric(name: "x", timestamp: time, value: .float(x))]
    }

    @Test func birthsComeFirstWithSeqFromZeroAndTheConnectionsBdSeq() throws {
        var session = Self.session()
        #expect(session.update("accelerometer", Self.sample(1, at: 5), now: 5).isEmpty)  // not connected: kept
        let births = session.connected(birthDeathSequence: 7, now: 10)
        #expect(births.map(\.topic.name) == [
            "spBv1.0/plant-1/NBIRTH/press-7", "spBv1.0/plant-1/DBIRTH/press-7/accelerometer", "spBv1.0/plant-1/DDATA/press-7/accelerometer",
        ])
        #expect(births.map(\.payload.seq) == [0, 1, 2] && births.allSatisfy { $0.qos == .atMostOnce && $0.payload.timestamp == 10 })
        let nodeBirth = births[0].payload
        #expect(nodeBirth.metrics[0] == SparkplugMetric(name: "bdSeq", timestamp: 10, value: .int64(7)))
        // Node Control/Rebirth: Boolean false, without an alias; every other metric has one, unique in the node.
        let rebirth = try #require(nodeBirth.metric(named: "Node Control/Rebirth"))
        #expect(rebirth.value == .boolean(false) && rebirth.alias == nil)
        let aliases = (nodeBirth.metrics.dropFirst(2) + births[1].payload.metrics).compactMap(\.alias)
        #expect(aliases.count == 4 && Set(aliases).count == 4)
        // The device's birth: every metric, with its latest value (or null) and a timestamp.
        #expect(births[1].payload.metrics.map(\.name) == ["Control/Running", "Control/Interval", "x"])
        #expect(births[1].payload.metrics.allSatisfy { $0.timestamp != nil })
        // What was kept before the birth follows it, historical, by alias.
        let kept = births[2].payload.metrics
        #expect(kept.count == 1 && kept[0].isHistorical && kept[0].name == nil && kept[0].alias == births[1].payload.metrics[2].alias)
        #expect(kept[0].timestamp == 5)
    }

    @Test func dataCarryAliasesAndSeqWrapsAfter255() {
        var session = Self.session()
        _ = session.connected(birthDeathSequence: 0, now: 10)
        var seqs: [UInt64] = []
        for index in 0..<300 {
            let published = session.update("accelerometer", Self.sample(Float(index), at: 11), now: 11)
            #expect(published.count == 1 && published[0].topic.name == "spBv1.0/plant-1/DDATA/press-7/accelerometer")
            #expect(published[0].payload.metrics.allSatisfy { $0.name == nil && $0.alias != nil && !$0.isHistorical })
            seqs.append(published[0].payload.seq ?? 999)
        }
        #expect(seqs.first == 2 && seqs.contains(255) && seqs[254] == 0 && seqs.allSatisfy { $0 <= 255 })
    }

    @Test func aMetricNewToADeviceBirthsItAgain() {
        var session = Self.session()
        _ = session.connected(birthDeathSequence: 0, now: 10)
        let published = session.update("accelerometer", [SparkplugMetric(name: "heading", timestamp: 11, value: .float(1))], now: 11)
        #expect(published.map(\.topic.name) == ["spBv1.0/plant-1/DBIRTH/press-7/accelerometer", "spBv1.0/plant-1/DDATA/press-7/accelerometer"])
        #expect(published[0].payload.metric(named: "heading")?.value == .float(1))
        // A device removed dies; an unknown device's data are dropped.
        #expect(session.removeDevice("accelerometer", now: 12).map(\.topic.name) == ["spBv1.0/plant-1/DDEATH/press-7/accelerometer"])
        #expect(session.update("accelerometer", Self.sample(1, at: 13), now: 13).isEmpty)
    }

    @Test func aRebirthRepeatsTheBirthsWithTheSameBdSeqAndSeqFromZero() {
        var session = Self.session()
        _ = session.connected(birthDeathSequence: 42, now: 10)
        _ = session.update("accelerometer", Self.sample(3, at: 11), now: 11)
        let (commands, refusals) = session.commands(
            in: SparkplugPayload(metrics: [SparkplugMetric(name: "Node Control/Rebirth", value: .boolean(true))]), device: nil)
        #expect(commands == [.rebirth] && refusals.isEmpty)
        let births = session.rebirth(now: 20)
        #expect(births.map(\.payload.seq) == [0, 1] && births[0].payload.metrics[0].value == .int64(42))
        #expect(births[1].payload.metric(named: "x")?.value == .float(3))
        // The death of this connection carries the same bdSeq, QoS 1, no seq.
        let death = session.death(now: 30)
        #expect(death.topic.name == "spBv1.0/plant-1/NDEATH/press-7" && death.qos == .atLeastOnce && death.payload.seq == nil)
        #expect(death.payload.metrics == [SparkplugMetric(name: "bdSeq", value: .int64(42))])
        #expect(SparkplugSession.birthDeathSequence(after: nil) == 0 && SparkplugSession.birthDeathSequence(after: 41) == 42)
        #expect(SparkplugSession.birthDeathSequence(after: 255) == 0)
    }

    @Test func withAPrimaryHostTheNodeWaitsForItsNewestOnlineState() {
        var session = Self.session(primaryHost: "scada")
        #expect(session.connected(birthDeathSequence: 3, now: 10).isEmpty && session.phase == .waitingForPrimaryHost)
        _ = session.update("accelerometer", Self.sample(1, at: 11), now: 11)
        // Another host's state, and an offline state while waiting, change nothing.
        #expect(session.received(SparkplugHostState(online: true, timestamp: 100), from: "other", now: 12) == .none)
        #expect(session.received(SparkplugHostState(online: false, timestamp: 100), from: "scada", now: 12) == .none)
        guard case .publish(let births) = session.received(SparkplugHostState(online: true, timestamp: 200), from: "scada", now: 13) else {
            Issue.record("no births")
            return
        }
        #expect(births.map(\.topic.name).first == "spBv1.0/plant-1/NBIRTH/press-7" && births.count == 3)
        #expect(births[2].payload.metrics.allSatisfy { $0.isHistorical })
        // A stale offline state (older than the online one) is ignored.
        #expect(session.received(SparkplugHostState(online: false, timestamp: 150), from: "scada", now: 14) == .none)
        #expect(session.phase == .online)
        // The host goes offline: NDEATH of this connection, and the node disconnects; data are kept.
        #expect(session.received(SparkplugHostState(online: false, timestamp: 300), from: "scada", now: 15) == .disconnect(death: session.death(now: 15)))
        #expect(session.phase == .disconnected)
        #expect(session.update("accelerometer", Self.sample(2, at: 16), now: 16).isEmpty && session.history.count == 1)
        // The next connection (the shell's, with the next bdSeq) waits for the host again, then forwards.
        _ = session.connected(birthDeathSequence: 4, now: 17)
        guard case .publish(let again) = session.received(SparkplugHostState(online: true, timestamp: 400), from: "scada", now: 18) else {
            Issue.record("no births after the host came back")
            return
        }
        #expect(again[0].payload.metrics[0].value == .int64(4))
        #expect(again.last?.payload.metrics.map(\.timestamp) == [16] && again.last?.payload.metrics[0].isHistorical == true)
    }

    @Test func theStoreKeepsTheNewestAndCountsWhatItDropped() {
        var session = Self.session(storeLimit: 3)
        for time in UInt64(1)...5 { _ = session.update("accelerometer", Self.sample(Float(time), at: time), now: time) }
        #expect(session.history.count == 3 && session.history.dropped == 2)
        let births = session.connected(birthDeathSequence: 0, now: 10)
        #expect(births.last?.payload.metrics.map(\.timestamp) == [3, 4, 5])
        #expect(session.history.count == 0)
    }

    @Test func dataTheShellCouldNotSendGoBackToTheStoreByName() throws {
        var session = Self.session()
        _ = session.connected(birthDeathSequence: 0, now: 10)
        let data = session.update("accelerometer", Self.sample(2, at: 11), now: 11)
        #expect(data.count == 1 && data[0].payload.metrics[0].name == nil)
        // The connection dropped before the DDATA went out: the shell hands it back, with the node's births.
        session.disconnected()
        session.keep(data[0])
        #expect(session.history.count == 1)
        let births = session.connected(birthDeathSequence: 1, now: 20)
        let forwarded = try #require(births.last?.payload.metrics.first)
        #expect(births.last?.topic.name == "spBv1.0/plant-1/DDATA/press-7/accelerometer")
        #expect(forwarded.isHistorical && forwarded.timestamp == 11 && forwarded.value == .float(2) && forwarded.alias != nil)
        // A birth that could not go out is made anew, not kept.
        session.keep(births[0])
        #expect(session.history.count == 0)
    }

    @Test func aDeviceThatGoesAwayDiesAndIsBornAgainWhenItComesBack() {
        var session = Self.session()
        _ = session.connected(birthDeathSequence: 0, now: 10)
        #expect(session.hasDevice("accelerometer"))
        #expect(session.removeDevice("accelerometer", now: 11).map(\.topic.name) == ["spBv1.0/plant-1/DDEATH/press-7/accelerometer"])
        #expect(!session.hasDevice("accelerometer") && session.update("accelerometer", Self.sample(1, at: 12), now: 12).isEmpty)
        let birth = session.declareDevice("accelerometer", metrics: [SparkplugMetric(name: "x", timestamp: 13, nullOf: .float)], now: 13)
        #expect(birth.map(\.topic.name) == ["spBv1.0/plant-1/DBIRTH/press-7/accelerometer"])
    }

    @Test func whatTheStoreKeptOfADeviceFollowsItsOwnBirthWhenItComesBack() {
        var session = Self.session()
        _ = session.declareDevice("gyro", metrics: [SparkplugMetric(name: "x", timestamp: 1, nullOf: .float)], now: 1)
        // Kept while disconnected; then the gyro goes away before the node is born again.
        _ = session.update("gyro", Self.sample(1, at: 2), now: 2)
        _ = session.update("accelerometer", Self.sample(2, at: 3), now: 3)
        _ = session.removeDevice("gyro", now: 4)
        let births = session.connected(birthDeathSequence: 1, now: 10)
        #expect(births.map(\.topic.name) == [
            "spBv1.0/plant-1/NBIRTH/press-7", "spBv1.0/plant-1/DBIRTH/press-7/accelerometer", "spBv1.0/plant-1/DDATA/press-7/accelerometer",
        ])
        #expect(session.history.count == 1)
        // The gyro's sample waits for the gyro: right after its DBIRTH, historical, by alias.
        let back = session.declareDevice("gyro", metrics: [SparkplugMetric(name: "x", timestamp: 11, nullOf: .float)], now: 11)
        #expect(back.map(\.topic.name) == ["spBv1.0/plant-1/DBIRTH/press-7/gyro", "spBv1.0/plant-1/DDATA/press-7/gyro"])
        let forwarded = back[1].payload.metrics
        #expect(forwarded.count == 1 && forwarded[0].isHistorical && forwarded[0].timestamp == 2 && forwarded[0].alias != nil)
        #expect(session.history.count == 0)
    }

    @Test func aJournaledStoreListsEveryChangeAndTakesBackWhatAnEarlierRunKept() {
        var session = Self.session(storeLimit: 3)
        let earlier = [40, 41].map { key in
            SparkplugHistory.Batch(key: Int64(key), device: "accelerometer", metrics: [
                SparkplugMetric(name: "x", timestamp: UInt64(key - 40), value: .float(0)),
            ])
        }
        session.journalStore(largestKey: 41, restoring: earlier)
        #expect(session.takeStoreChanges().isEmpty && session.history.count == 2)
        // New batches take keys above the file's; the oldest beyond the limit go, and say so.
        _ = session.update("accelerometer", Self.sample(3, at: 3), now: 3)
        _ = session.update("accelerometer", Self.sample(4, at: 4), now: 4)
        let changes = session.takeStoreChanges()
        #expect(changes.count == 3)
        guard changes.count == 3, case .stored(let first) = changes[0], case .stored(let second) = changes[1] else { return }
        #expect(first.key == 42 && second.key == 43 && first.metrics[0].isHistorical)
        #expect(changes[2] == .removed(key: 40))
        // The births forward the rest, oldest first, and remove them from the file.
        let births = session.connected(birthDeathSequence: 0, now: 10)
        #expect(births.last?.payload.metrics.map(\.timestamp) == [1, 3, 4])
        #expect(session.takeStoreChanges() == [.removed(key: 41), .removed(key: 42), .removed(key: 43)])
    }

    @Test func commandsAreTakenByNameOrAliasAndTheRestRefused() {
        var session = Self.session()
        let births = session.connected(birthDeathSequence: 0, now: 10)
        let intervalAlias = births[1].payload.metric(named: "Control/Interval")?.alias
        let payload = SparkplugPayload(metrics: [
            SparkplugMetric(name: "Control/Running", value: .boolean(false)),
            SparkplugMetric(name: nil, alias: intervalAlias, value: .float(0.5)),
            SparkplugMetric(name: "Control/Interval", value: .uint32(2)),
            SparkplugMetric(name: "Control/Running", value: .string("yes")),
            SparkplugMetric(name: "Control/Interval", value: .boolean(true)),
            SparkplugMetric(name: "x", value: .float(1)),
            SparkplugMetric(name: "nonsense", value: .boolean(true)),
        ])
        let (commands, refusals) = session.commands(in: payload, device: "accelerometer")
        #expect(commands == [
            .setRunning(device: "accelerometer", false), .setInterval(device: "accelerometer", 0.5), .setInterval(device: "accelerometer", 2),
        ])
        #expect(refusals == [
            "DCMD for accelerometer: Control/Running takes a Boolean", "DCMD for accelerometer: Control/Interval takes a number of seconds",
            "DCMD for accelerometer: x is not writable", "DCMD for accelerometer: unknown metric nonsense",
        ])
        #expect(session.refusedCommands == 4)
        #expect(session.commands(in: payload, device: "gyro").refusals == ["DCMD for gyro: no such device"])
        let node = session.commands(in: SparkplugPayload(metrics: [SparkplugMetric(name: "Node Control/Rebirth", value: .uint32(1))]), device: nil)
        #expect(node.commands.isEmpty && node.refusals == ["NCMD: Node Control/Rebirth takes a Boolean"])
        #expect(session.refusedCommands == 6)
    }

    @Test func nodeMetricsThatChangeGoOutAsNodeData() {
        var session = Self.session()
        _ = session.connected(birthDeathSequence: 0, now: 10)
        let unchanged = session.updateNode([SparkplugMetric(name: SparkplugMetricName.version, timestamp: 11, value: .string("1.0"))], now: 11)
        #expect(unchanged.isEmpty)
        let changed = session.updateNode([SparkplugMetric(name: SparkplugMetricName.version, timestamp: 12, value: .string("1.1"))], now: 12)
        #expect(changed.map(\.topic.name) == ["spBv1.0/plant-1/NDATA/press-7"] && changed[0].payload.metrics[0].name == nil)
    }
}
