import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// Availability when the agent dies, hangs or stops: the broker's last will within 1.5 × keepalive, and
    /// a clean stop that leaves every service retained as inactive.
    @Suite(.timeLimit(.minutes(1))) struct LastWillTests {
        static let keepAlive = 5.0

        private static func start() throws -> RunningAgent {
            let running = try RunningAgent.start(configuration: #"{"broker":{"keepalive":\#(Int(keepAlive))}}"#)
            let online = running.subscriber.waitForMessage(on: running.topics.status) { $0.payloadString == "online" }
            guard online != nil else { throw NotOnline(log: running.agent.log) }
            return running
        }

        struct NotOnline: Error { let log: String }

        /// `CLOCK_MONOTONIC` in ns, the clock of ``RecordingSubscriber/Record/arrivalNanoseconds``.
        private static func now() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }

        /// Sends `signal` to the agent and waits for `offline` on its status topic.
        /// - Returns: seconds from the signal to the arrival, or `nil` when none came within `timeout`.
        private static func secondsToTheWill(of running: RunningAgent, after signal: Int32, waiting timeout: Duration) -> Double? {
            running.subscriber.clear()
            let sent = now()
            running.agent.send(signal)
            let will = running.subscriber.waitForMessage(on: running.topics.status, timeout: timeout) { $0.payloadString == "offline" }
            return will.map { Double($0.arrivalNanoseconds - sent) / 1e9 }
        }

        @Test func sigkillLeadsToTheRetainedOfflineWithinOneAndAHalfKeepalives() throws {
            let running = try Self.start()
            defer { running.cleanUp() }
            let delay = try #require(Self.secondsToTheWill(of: running, after: SIGKILL, waiting: .seconds(10)))
            print(String(format: "last will: offline %.3f s after SIGKILL (keepalive %.0f s)", delay, Self.keepAlive))
            #expect(delay <= 1.5 * Self.keepAlive, "the will came after \(delay) s")
            let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: [running.topics.status])
            #expect(late.waitForMessage(on: running.topics.status)?.message.payloadString == "offline", "offline is retained")
        }

        @Test func aHungAgentIsDeclaredOfflineAfterOneAndAHalfKeepalivesAndComesBack() throws {
            let running = try Self.start()
            defer { running.cleanUp() }
            // A hang (here SIGSTOP) keeps the socket open: only the keepalive can tell the broker.
            let delay = try #require(Self.secondsToTheWill(of: running, after: SIGSTOP, waiting: .seconds(16)))
            print(String(format: "last will: offline %.1f s after SIGSTOP (keepalive %.0f s)", delay, Self.keepAlive))
            // 1.5 × keepalive after the last packet, but mosquitto 2.0.11 checks keepalives in batches a few
            // seconds apart (measured 7.1–11.8 s for a keepalive of 5 s): allow one more batch.
            #expect(delay >= Self.keepAlive && delay <= 1.5 * Self.keepAlive + 6, "the will came after \(delay) s")
            // Woken again, the agent finds its connection closed, reconnects and says so.
            running.subscriber.clear()
            running.agent.send(SIGCONT)
            #expect(running.subscriber.waitForMessage(on: running.topics.status, timeout: .seconds(10)) {
                $0.payloadString == "online"
            } != nil, "\(running.agent.log)")
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 5), "data flows again")
        }

        @Test func sigtermLeavesEveryServiceInactiveAndTheDeviceOffline() throws {
            let running = try Self.start()
            defer { running.cleanUp() }
            running.subscriber.clear()
            running.agent.send(SIGTERM)
            #expect(running.agent.waitForExit(timeout: .seconds(3)) == 0, "\(running.agent.log)")
            #expect(running.subscriber.waitForMessage(on: running.topics.status) { $0.payloadString == "offline" } != nil)
            // What a newcomer sees: the agent's own last words, retained.
            let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: ["\(running.topics.base)/#"])
            #expect(late.waitForMessage(on: running.topics.status)?.message.payloadString == "offline")
            for service in MotionService.allCases {
                let status = try #require(late.waitForMessage(on: running.topics.status(service)), "\(service.topicName)")
                #expect(RunningAgent.object(status.message)?["active"] as? Bool == false, "\(service.topicName): \(status.message.payloadString)")
            }
            #expect(!running.broker.log().contains("has exceeded timeout"), "no keepalive timeout, a clean stop")
        }
    }
}
