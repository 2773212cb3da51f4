import MQTT
@testable import MotionAgent
import MotionContract
import MotionTestSupport
import Testing

/// The agent's behaviour with an in-memory broker connection: availability, control, reload and
/// buffering decisions, tested without a broker (the real-broker suites cover what needs one).
@Suite(.timeLimit(.minutes(1))) struct AgentBehaviourTests {
    /// An agent on the simulated IMU whose broker is `transport`.
    private func makeAgent(
        _ transport: InMemoryTransport, _ configure: (inout AgentConfiguration) -> Void = { _ in }
    ) throws -> (MotionAgent, TopicLayout) {
        var configuration = AgentConfiguration(deviceID: "unit", device: "sim:motion=stationary", healthInterval: 0)
        configure(&configuration)
        let agent = try MotionAgent(configuration: configuration, version: "test", transport: transport.factory)
        try agent.start()
        return (agent, configuration.topics)
    }

    /// Waits (at most 5 s) until `condition` holds.
    private func eventually(_ condition: () -> Bool) -> Bool {
        MotionTestSupport.eventually(within: .seconds(5), condition)
    }

    private func status(_ message: MQTTMessage?) -> ServiceStatus? {
        message.flatMap { try? ServiceStatus(payload: $0.payload) }
    }

    @Test func eachConnectAnnouncesAvailabilityInfoAndEveryStatusThenSubscribesToControl() throws {
        let transport = InMemoryTransport()
        let (agent, topics) = try makeAgent(transport)
        defer { agent.shutdown(timeout: .milliseconds(200)) }
        // The last will says offline, retained.
        let will = try #require(transport.configuration?.will)
        #expect(will.topic == topics.status && will.payload == Array("offline".utf8) && will.retain)
        transport.connect()
        #expect(eventually { transport.messages(on: topics.status(.deviceMotion)).count == 1 })
        let online = try #require(transport.messages(on: topics.status).first)
        #expect(online.payload == Array("online".utf8) && online.retain && online.qos == .atLeastOnce)
        let info = try InfoPayload(payload: try #require(transport.messages(on: topics.info).first).payload)
        #expect(info.deviceID == "unit" && info.device.driver == "sim" && info.services.count == MotionService.allCases.count)
        for service in MotionService.allCases {
            let retained = try #require(transport.messages(on: topics.status(service)).first)
            // No barometer: the altitude service is active but unavailable, with the reason; vibration is off
            // by default.
            #expect(
                retained.retain && status(retained)?.available == (service != .altitude) && status(retained)?.active == (service != .vibration),
                "\(service)")
        }
        let altitude = try #require(transport.messages(on: topics.status(.altitude)).first)
        #expect(status(altitude)?.error == "the device has no barometer")
        #expect(transport.subscriptions.map(\.filter) == [topics.allControlTopics])
        #expect(transport.subscriptions.first?.retainAsPublished == true)
        // A reconnect announces again.
        transport.disconnect()
        transport.clearPublished()
        transport.connect()
        #expect(eventually { transport.messages(on: topics.status).count == 1 })
    }

    @Test func aCommandChangesItsServiceAndIsAnsweredOnItsResponseTopic() throws {
        let transport = InMemoryTransport()
        let (agent, topics) = try makeAgent(transport)
        defer { agent.shutdown(timeout: .milliseconds(200)) }
        transport.connect()
        #expect(eventually { !transport.messages(on: topics.data(.gyro)).isEmpty }, "data flows")
        transport.clearPublished()
        var command = MQTTMessage(topic: topics.control(.gyro), payload: ControlCommand(active: false).payload(), qos: .atLeastOnce)
        command.responseTopic = "replies/unit"
        command.correlationData = [1, 2, 3]
        transport.deliver(command)
        #expect(eventually { !transport.messages(on: "replies/unit").isEmpty })
        let answer = try #require(transport.messages(on: "replies/unit").first)
        #expect(try CommandAnswer(payload: answer.payload) == .accepted && answer.correlationData == [1, 2, 3])
        #expect(status(transport.messages(on: topics.status(.gyro)).last)?.active == false)
        // Stopped: no more gyro data. A device delivery under way at the stop may still publish some; the
        // device's deliveries run one after another, so once ten more accelerometer messages are out (0.2 s
        // of samples at 50 Hz, more than one delivery holds) a later delivery has run: the count is final.
        let accelerometer = topics.data(.accelerometer)
        let accelerometerAtStop = transport.messages(on: accelerometer).count
        #expect(eventually { transport.messages(on: accelerometer).count >= accelerometerAtStop + 10 })
        let after = transport.messages(on: topics.data(.gyro)).count
        let accelerometerAfter = transport.messages(on: accelerometer).count
        #expect(eventually { transport.messages(on: accelerometer).count >= accelerometerAfter + 10 })
        #expect(transport.messages(on: topics.data(.gyro)).count == after)
        // Faster again.
        transport.deliver(MQTTMessage(topic: topics.control(.gyro), string: #"{"active":true,"interval":0.1}"#, qos: .atLeastOnce))
        #expect(eventually { self.status(transport.messages(on: topics.status(.gyro)).last)?.active == true })
        #expect(status(transport.messages(on: topics.status(.gyro)).last)?.interval == 0.1)
    }

    @Test func aMalformedOrRetainedCommandChangesNothing() throws {
        let transport = InMemoryTransport()
        let (agent, topics) = try makeAgent(transport)
        defer { agent.shutdown(timeout: .milliseconds(200)) }
        transport.connect()
        #expect(eventually { transport.messages(on: topics.status(.magnetometer)).count == 1 })
        transport.clearPublished()
        transport.deliver(MQTTMessage(topic: topics.control(.magnetometer), string: #"{"interval":-1}"#, qos: .atLeastOnce))
        #expect(eventually { !transport.messages(on: topics.error).isEmpty })
        let refusal = try CommandAnswer(payload: try #require(transport.messages(on: topics.error).first).payload)
        #expect(!refusal.ok && refusal.service == .magnetometer && refusal.error?.contains("interval") == true)
        // A retained command (left on the broker by someone) is ignored: no answer, no change.
        var retained = MQTTMessage(topic: topics.control(.magnetometer), string: "stop", qos: .atLeastOnce)
        retained.retain = true
        transport.deliver(retained)
        // An answer aimed at the devices' own topics is refused on {base}/error instead.
        var hostile = MQTTMessage(topic: topics.control(.magnetometer), string: "stop", qos: .atLeastOnce)
        hostile.responseTopic = topics.status
        transport.deliver(hostile)
        #expect(eventually { transport.messages(on: topics.error).count == 2 })
        // The commands are handled in order on the control queue, statuses published there: the second
        // refusal means all three were handled; draining the queue covers what they left for it.
        agent.controlQueue.sync {}
        #expect(transport.messages(on: topics.status(.magnetometer)).isEmpty, "no status changed")
        #expect(transport.messages(on: topics.status).isEmpty, "nothing written on the device's own status")
    }

    @Test func aReloadAppliesServiceSettingsAndNamesWhatNeedsARestart() throws {
        let transport = InMemoryTransport()
        let (agent, topics) = try makeAgent(transport)
        defer { agent.shutdown(timeout: .milliseconds(200)) }
        transport.connect()
        #expect(eventually { transport.messages(on: topics.status(.accelerometer)).count == 1 })
        var changed = agent.configuration
        changed.services[.accelerometer]?.enabled = false
        changed.device = "sim:rate=500"
        let notes = agent.reload(changed)
        #expect(notes == ["device changed: restart to apply"])
        #expect(status(transport.messages(on: topics.status(.accelerometer)).last)?.active == false)
        #expect(agent.configuration.device == "sim:motion=stationary", "the device stays until a restart")
    }

    @Test func whileDisconnectedQoS0DataIsDroppedAndAtLeastOnceDataWaits() throws {
        let transport = InMemoryTransport()
        let (agent, topics) = try makeAgent(transport) { configuration in
            configuration.services[.gyro]?.qos = 1
        }
        defer { agent.shutdown(timeout: .milliseconds(200)) }
        // Never connected: gyro (QoS 1) waits for the connection, accelerometer (QoS 0) is dropped.
        #expect(eventually { transport.buffered.contains { $0.topic == topics.data(.gyro) } })
        #expect(!transport.buffered.contains { $0.topic == topics.data(.accelerometer) })
        #expect(transport.statistics.droppedWhileDisconnected > 0)
        transport.connect()
        let gyro = transport.messages(on: topics.data(.gyro))
        let sequences = gyro.compactMap { try? SamplePayloadDecoder.vectors($0.payload, service: .gyro).sequence }
        #expect(sequences.first == 1 && sequences == Array(1...UInt64(sequences.count)), "kept in order, none lost")
    }

    @Test func shutdownRetainsEveryServiceAsInactiveThenOffline() throws {
        let transport = InMemoryTransport()
        let (agent, topics) = try makeAgent(transport)
        transport.connect()
        // The announcement ends with `config` and the cleared `health` (health reports are off): wait for
        // the last of them, so that only what the shutdown publishes is left after clearing.
        #expect(eventually { transport.messages(on: topics.health).count == 1 })
        transport.clearPublished()
        agent.shutdown(timeout: .milliseconds(500))
        // The detectors' first states may still arrive from the device's thread before the shutdown
        // begins; none after its first status (the detectors stop first).
        let retained = transport.published.filter { $0.retain }
        let firstStatus = retained.firstIndex { $0.topic == topics.status(.accelerometer) } ?? retained.endIndex
        #expect(!retained[firstStatus...].contains { $0.topic.hasPrefix(topics.base + "/state/") })
        let final = retained.filter { !$0.topic.hasPrefix(topics.base + "/state/") }
        #expect(final.map(\.topic) == MotionService.allCases.map { topics.status($0) } + [topics.status])
        #expect(final.dropLast().allSatisfy { status($0)?.active == false })
        #expect(final.last?.payload == Array("offline".utf8))
        #expect(transport.isShutDown)
    }
}
