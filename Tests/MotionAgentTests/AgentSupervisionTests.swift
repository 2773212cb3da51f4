import Foundation
import MQTT
import MotionContract
import MotionEngine
import MotionSupervision
import MotionTestSupport
import Testing

@testable import MotionAgent

/// The agent's timers on a manual clock, with an in-memory broker connection: the back-off of a device
/// missing at start and the health interval, to the second and without waiting.
@Suite(.timeLimit(.minutes(1))) struct AgentSupervisionTests {
    struct Agent {
        let clock = ManualClock()
        let transport = InMemoryTransport()
        let agent: MotionAgent
        let topics: TopicLayout

        init(device: String, healthInterval: Double = 0) throws {
            var environment = MotionEngineEnvironment()
            environment.clock = clock
            let configuration = AgentConfiguration(deviceID: "clocked", device: device, healthInterval: healthInterval)
            agent = try MotionAgent(
                configuration: configuration, version: "test", engine: MotionEngine(environment: environment), transport: transport.factory)
            topics = configuration.topics
            try agent.start()
            transport.connect()
            settle()
        }

        /// Waits for what the control queue has to do (the announcements after a connect).
        func settle() { agent.controlQueue.sync {} }

        func status(_ service: MotionService) -> ServiceStatus? {
            transport.messages(on: topics.status(service)).last.flatMap { try? ServiceStatus(payload: $0.payload) }
        }
    }

    /// Opened again after 1 s, then 2 s later, then 4 s later: the third attempt finds the recording.
    @Test func aDeviceMissingAtStartIsOpenedAgainAfterOneTwoAndFourSeconds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clocked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent("later.csv")
        let test = try Agent(device: "replay:\(recording.path),loop")
        defer { test.agent.shutdown(timeout: .milliseconds(200)) }
        #expect(test.clock.pendingDelays == [1])
        #expect(test.status(.accelerometer)?.available == false)
        test.clock.advance(by: 1)
        #expect(test.clock.pendingDelays == [2], "still missing: twice the delay")
        test.clock.advance(by: 1.999)
        #expect(test.status(.accelerometer)?.available == false)
        try FileManager.default.copyItem(at: Repository.broadExcerpt, to: recording)
        test.clock.advance(by: 0.001)
        test.settle()
        #expect(test.status(.accelerometer)?.available == true, "opened at the third attempt, 3 s after the start")
        #expect(test.clock.pendingDelays == [0.25], "no more attempts: only the running engine's stall check")
    }

    @Test func healthIsPublishedOncePerIntervalOfTheClock() throws {
        let test = try Agent(device: "sim:motion=stationary", healthInterval: 10)
        defer { test.agent.shutdown(timeout: .milliseconds(200)) }
        let health = { test.transport.messages(on: test.topics.health).filter { !$0.payload.isEmpty }.count }
        #expect(health() == 0)
        test.clock.advance(by: 9.9)
        #expect(health() == 0)
        test.clock.advance(by: 0.1)
        #expect(health() == 1)
        test.clock.advance(by: 25)
        #expect(health() == 3)
        let report = try #require(test.transport.messages(on: test.topics.health).last)
        #expect(report.retain, "health is retained")
    }
}
