import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// The real `motion-agent` executable on the simulated IMU against a real mosquitto on a free loopback
    /// port, observed by a real MQTT subscriber.
    @Suite(.timeLimit(.minutes(1))) struct AgentIntegrationTests {
        static let rates: [MotionService: Double] = [.accelerometer: 50, .gyro: 25, .magnetometer: 10, .deviceMotion: 40]

        static func startAgent(
            services: [MotionService: Double] = rates,
            beforeTheAgentStarts prepare: (RecordingSubscriber, TopicLayout) throws -> Void = { _, _ in }
        ) throws -> RunningAgent {
            let entries = services.map { #""\#($0.key.topicName)":{"rate_hz":\#($0.value)}"# }
            return try RunningAgent.start(configuration: #"{"services":{\#(entries.joined(separator: ","))}}"#, beforeTheAgentStarts: prepare)
        }

        private static func isOnline(_ message: MQTTMessage) -> Bool { message.payloadString == "online" }
        private static func isOffline(_ message: MQTTMessage) -> Bool { message.payloadString == "offline" }

        private static func statusObject(_ message: MQTTMessage) -> [String: Any]? { RunningAgent.object(message) }

        private static func isActive(_ message: MQTTMessage) -> Bool {
            (statusObject(message)?["active"] as? NSNumber)?.boolValue == true
        }

        @Test func announcesAvailabilityAndPublishesEveryTopicAtItsRate() throws {
            let running = try Self.startAgent()
            defer { running.cleanUp() }
            let topics = running.topics
            let online = try #require(running.subscriber.waitForMessage(on: topics.status, where: Self.isOnline), "\(running.agent.log)")
            #expect(online.message.retain == false, "delivered live, since the subscriber was there first")

            // A late subscriber (arriving after the agent announced everything) gets the retained messages.
            #expect(running.subscriber.waitForMessage(on: topics.info) != nil)
            for service in MotionService.allCases {
                #expect(running.subscriber.waitForMessage(on: topics.status(service)) != nil, "no \(service) status")
            }
            let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: ["\(topics.base)/+/status", topics.status, topics.info])
            let retainedStatus = try #require(late.waitForMessage(on: topics.status))
            #expect(retainedStatus.message.retain && retainedStatus.message.payloadString == "online")
            let info = try #require(late.waitForMessage(on: topics.info))
            let infoObject = try #require(Self.statusObject(info.message))
            #expect(infoObject["version"] as? String == AgentVersion.current)
            #expect((infoObject["device"] as? [String: Any])?["driver"] as? String == "sim")
            for (service, rate) in Self.rates {
                let status = try #require(late.waitForMessage(on: topics.status(service)))
                #expect(status.message.retain)
                let object = try #require(Self.statusObject(status.message))
                #expect((object["available"] as? NSNumber)?.boolValue == true)
                #expect((object["active"] as? NSNumber)?.boolValue == true)
                #expect((object["rate_hz"] as? NSNumber)?.doubleValue == rate)
            }

            // Data at the configured rates, measured over 3 s of arrivals by the subscriber's clock.
            for service in Self.rates.keys {
                #expect(running.subscriber.waitForCount(on: topics.data(service), count: 1), "no \(service) data: \(running.agent.log)")
            }
            running.subscriber.clear()
            for (service, rate) in Self.rates {
                let measured = running.subscriber.arrivalRate(on: topics.data(service), over: Int(3 * rate) + 1)
                #expect(measured.map { abs($0 - rate) <= 0.1 * rate } == true, "\(service): \(measured ?? 0) msg/s, configured \(rate)")
                let messages = running.subscriber.messages(on: topics.data(service))
                let sequence = messages.compactMap { Self.statusObject($0)?["seq"] as? NSNumber }.map(\.uint64Value)
                #expect(sequence.count == messages.count, "every \(service) payload is JSON with a seq")
                #expect(zip(sequence, sequence.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(service) seq has gaps: \(sequence)")
            }

            // The values are physical: the accelerometer reads about 1 g, gravity is a unit vector in g.
            func norm(_ vector: Any?) -> Double {
                guard let vector = vector as? [String: Any] else { return .nan }
                let components = ["x", "y", "z"].map { (vector[$0] as? NSNumber)?.doubleValue ?? .nan }
                return components.map { $0 * $0 }.reduce(0, +).squareRoot()
            }
            let accelerations = running.objects(on: topics.data(.accelerometer)).map { norm($0["acceleration"]) }
            #expect(!accelerations.isEmpty && accelerations.allSatisfy { (0.8...1.2).contains($0) }, "\(accelerations.prefix(5))")
            let motions = running.objects(on: topics.data(.deviceMotion))
            #expect(motions.allSatisfy { abs(norm($0["gravity"]) - 1) < 0.01 })
            #expect(motions.allSatisfy { ($0["attitude"] as? [String: Any])?["quaternion"] != nil && $0["heading"] != nil })
            let magnetic = running.objects(on: topics.data(.magnetometer)).map { norm($0["magneticField"]) }
            #expect(!magnetic.isEmpty && magnetic.allSatisfy { (40...58).contains($0) }, "field strength in µT: \(magnetic.prefix(5))")
        }

        @Test func stopEndsATopicAndStartResumesIt() throws {
            let running = try Self.startAgent()
            defer { running.cleanUp() }
            let topics = running.topics
            #expect(running.subscriber.waitForCount(on: topics.data(.gyro), count: 5), "\(running.agent.log)")

            running.subscriber.clear()
            try running.send("stop", to: .gyro)
            let stopped = try #require(running.subscriber.waitForMessage(on: topics.status(.gyro)) { !Self.isActive($0) })
            #expect(stopped.message.retain == false)
            // Accelerometer data published after the status fences off any gyro message still in flight:
            // one connection, one order.
            let beforeFence = running.subscriber.messages(on: topics.data(.accelerometer)).count
            #expect(running.subscriber.waitForCount(on: topics.data(.accelerometer), count: beforeFence + 5))
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: topics.data(.accelerometer), count: 31), "other topics go on")
            #expect(running.subscriber.messages(on: topics.data(.gyro)).isEmpty, "gyro kept publishing after stop")

            // The retained status says stopped to anyone who looks now.
            let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: [topics.status(.gyro)])
            let retained = try #require(late.waitForMessage(on: topics.status(.gyro)))
            #expect(retained.message.retain && !Self.isActive(retained.message))

            try running.send("start", to: .gyro)
            #expect(running.subscriber.waitForMessage(on: topics.status(.gyro), where: Self.isActive) != nil)
            #expect(running.subscriber.waitForCount(on: topics.data(.gyro), count: 10, timeout: .seconds(3)))

            // A new interval takes effect and is reported.
            running.subscriber.clear()
            try running.send(#"{"interval":0.2}"#, to: .gyro)
            let slower = try #require(running.subscriber.waitForMessage(on: topics.status(.gyro)))
            #expect((Self.statusObject(slower.message)?["interval"] as? NSNumber)?.doubleValue == 0.2)
            running.subscriber.clear()
            let rate = running.subscriber.arrivalRate(on: topics.data(.gyro), over: 11)
            #expect(rate.map { (4...6).contains($0) } == true, "gyro at \(rate ?? 0) msg/s, configured 5")
        }

        @Test func malformedCommandsAreAnsweredAndChangeNothing() throws {
            let running = try Self.startAgent()
            defer { running.cleanUp() }
            let topics = running.topics
            #expect(running.subscriber.waitForCount(on: topics.data(.accelerometer), count: 5), "\(running.agent.log)")
            #expect(running.subscriber.waitForCount(on: topics.status(.accelerometer), count: 1))

            running.subscriber.clear()
            for bad in ["bogus", #"{"interval":-1}"#, #"{"active":"no"}"#, #"{"speed":3}"#, String(repeating: "x", count: 10_000)] {
                let answered = running.subscriber.messages(on: topics.error).count
                try running.send(bad, to: .accelerometer)
                #expect(running.subscriber.waitForCount(on: topics.error, count: answered + 1), "no answer to \(bad.prefix(20))")
                let answer = try #require(running.subscriber.messages(on: topics.error).last)
                let object = try #require(Self.statusObject(answer))
                #expect((object["ok"] as? NSNumber)?.boolValue == false)
                #expect(object["service"] as? String == "accelerometer")
                #expect(!(object["error"] as? String ?? "").isEmpty)
            }
            #expect(running.subscriber.messages(on: topics.status(.accelerometer)).isEmpty, "no status change")
            running.subscriber.clear()
            let rate = running.subscriber.arrivalRate(on: topics.data(.accelerometer), over: 50)
            #expect(rate.map { $0 >= 45 } == true, "the agent still publishes at 50 Hz: \(rate ?? 0)")
            #expect(running.agent.isRunning)
        }

        @Test func aStaleRetainedCommandDoesNotReplay() throws {
            // A retained `stop` left on the broker before the agent connects reaches it, flagged retained, when it
            // subscribes: it must be ignored, or every reconnect would replay it.
            let running = try Self.startAgent { subscriber, topics in
                let messageID = try subscriber.client.publish(
                    MQTTMessage(topic: topics.control(.accelerometer), string: "stop", qos: .atLeastOnce, retain: true))
                #expect(subscriber.client.waitUntilPublished(messageID: messageID, timeout: .seconds(2)))
            }
            defer { running.cleanUp() }
            let topics = running.topics
            #expect(running.subscriber.waitForMessage(on: topics.status, where: Self.isOnline) != nil, "\(running.agent.log)")
            #expect(eventually(within: .seconds(10)) { running.agent.log.contains("ignored a retained command") }, "\(running.agent.log)")
            running.subscriber.clear()
            let rate = running.subscriber.arrivalRate(on: topics.data(.accelerometer), over: 50)
            #expect(rate.map { $0 >= 45 } == true, "the stale stop was obeyed: \(rate ?? 0) msg/s")
            _ = try running.subscriber.client.publish(MQTTMessage(topic: topics.control(.accelerometer), payload: [], qos: .atLeastOnce, retain: true))
        }

        @Test func sigkillLeadsTheBrokerToDeliverTheLastWill() throws {
            let running = try Self.startAgent()
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForMessage(on: running.topics.status, where: Self.isOnline) != nil, "\(running.agent.log)")
            running.agent.send(SIGKILL)
            let will = running.subscriber.waitForMessage(on: running.topics.status, timeout: .seconds(5), where: Self.isOffline)
            #expect(will != nil, "no last will after SIGKILL")
            let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: [running.topics.status])
            #expect(late.waitForMessage(on: running.topics.status)?.message.payloadString == "offline", "offline is retained")
        }

        @Test(arguments: [SIGTERM, SIGINT])
        func signalPublishesOfflineDisconnectsCleanlyAndExitsZero(signal: Int32) throws {
            let running = try Self.startAgent()
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.deviceMotion), count: 5), "\(running.agent.log)")
            let sent = ContinuousClock.now
            running.agent.send(signal)
            let status = running.agent.waitForExit(timeout: .seconds(2))
            #expect(status == 0, "exit status \(String(describing: status)) within \(ContinuousClock.now - sent): \(running.agent.log)")
            #expect(running.subscriber.waitForMessage(on: running.topics.status, where: Self.isOffline) != nil)
            // A clean DISCONNECT, not a dropped socket: the broker logs it as such and sends no will.
            #expect(running.broker.waitForLog(containing: "Client motion-agent-\(running.topics.base.split(separator: "/").last!) disconnected."),
                    "\(running.broker.log())")
            #expect(running.agent.log.contains("stopped"))
        }

        @Test func watchShowsTheLiveValuesOfADevice() throws {
            let running = try Self.startAgent()
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.deviceMotion), count: 5), "\(running.agent.log)")
            let deviceID = String(running.topics.base.split(separator: "/").last!)
            let watch = try AgentProcess.run("motionctl", arguments: ["watch", "--broker", running.broker.url, "--device", deviceID, "--duration", "3"])
            #expect(watch.status == 0, "\(watch.log)")
            let lastSnapshot = watch.output.components(separatedBy: "----\n").filter { !$0.isEmpty }.last ?? ""
            #expect(lastSnapshot.contains("motion/\(deviceID)  [online]"), "\(watch.output)")
            #expect(lastSnapshot.contains("simulated"), "device description from info: \(lastSnapshot)")
            func line(_ service: MotionService) -> String {
                lastSnapshot.split(separator: "\n").first { $0.hasPrefix(service.topicName + " ") }.map(String.init) ?? ""
            }
            for (service, rate) in Self.rates {
                #expect(line(service).contains("active @ \(String(format: "%g", rate)) Hz"), "\(line(service))")
            }
            // Published on a change (and once a minute), not retained: a watch that came later may not have a value yet.
            #expect(line(.steps).contains("active @ 1 Hz"), "\(line(.steps))")
            #expect(line(.activity).contains("active @ 1 Hz"), "\(line(.activity))")
            #expect(line(.altitude).contains("unavailable: the device has no barometer"), "\(line(.altitude))")
            #expect(lastSnapshot.contains(" g") && lastSnapshot.contains("rad/s") && lastSnapshot.contains("µT") && lastSnapshot.contains("roll"))
        }

        @Test func configurationAndUsageErrorsExitWithDistinctStatuses() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json")
            try Data(#"{"services":{"gyro":{"rate_hz":-5}}}"#.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let invalid = try AgentProcess.run("motion-agent", arguments: ["--config", file.path, "--check-config"])
            #expect(invalid.status == 78)
            #expect(invalid.log.contains("services.gyro.rate_hz"), "\(invalid.log)")

            let badDevice = try AgentProcess.run("motion-agent", arguments: ["--device", "sim:rate=abc", "--broker", "mqtt://127.0.0.1:1"])
            #expect(badDevice.status == 78)
            #expect(badDevice.log.contains("device"), "\(badDevice.log)")

            let usage = try AgentProcess.run("motion-agent", arguments: ["--frobnicate"])
            #expect(usage.status == 64)
            #expect(usage.log.contains("unknown option --frobnicate"))

            let valid = try AgentProcess.run("motion-agent", arguments: ["--check-config", "--id", "ok-1"])
            #expect(valid.status == 0)
            #expect(valid.output.contains("motion/ok-1"))
        }
    }
}
