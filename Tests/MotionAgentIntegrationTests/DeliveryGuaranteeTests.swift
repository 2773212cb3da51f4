import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// What QoS 1 delivery survives, proved with a persistent-session subscriber that checks `seq`: a broker
    /// killed and restarted again and again, and an agent killed during an outage with its buffer on disk.
    @Suite(.timeLimit(.minutes(3))) struct DeliveryGuaranteeTests {
        /// The gyro alone, QoS 1 at 50 Hz, reconnecting after 1–2 s.
        static func configuration(durableBuffer path: String? = nil, commitInterval: Double? = nil) -> String {
            let buffer = path.map { path in
                #","offline_buffer":{"path":"\#(path)""# + (commitInterval.map { #","commit_interval":\#($0)"# } ?? "") + "}"
            } ?? ""
            return #"""
                {"services":{"gyro":{"rate_hz":50,"qos":1},"accelerometer":{"enabled":false},
                 "magnetometer":{"enabled":false},"device-motion":{"enabled":false}},
                 "broker":{"reconnect":{"min_delay":1,"max_delay":2}\#(buffer)}}
                """#
        }

        /// How the broker must be set up for "nothing lost" across its own crashes: persistence saved after
        /// every change (mosquitto's default saves only every 30 minutes and on a clean stop), no queue limit.
        static let durableBroker = MosquittoBroker.Options(
            persistence: true, unlimitedQueues: true, extraConfiguration: ["autosave_on_changes true", "autosave_interval 1", "log_type all"])

        /// A subscriber with a persistent session on the gyro's data topic, QoS 1.
        static func sessionSubscriber(_ broker: MosquittoBroker, _ topics: TopicLayout) throws -> RecordingSubscriber {
            try RecordingSubscriber(
                broker: broker.address, topicFilters: ["\(topics.base)/#"], clientID: "session-\(topics.base.split(separator: "/").last!)",
                cleanSession: false)
        }

        /// `seq` and `ts` of every gyro message received, in arrival order (duplicates included).
        static func samples(_ running: RunningAgent) -> [(seq: Int, ts: Double)] {
            running.objects(on: running.topics.data(.gyro)).compactMap { object in
                guard let seq = (object["seq"] as? NSNumber)?.intValue, let ts = (object["ts"] as? NSNumber)?.doubleValue else { return nil }
                return (seq, ts)
            }
        }

        /// From a broker log (`log_type all`): the agent's messages on `topic` that a broker acknowledged
        /// after the last save it surely finished before it was killed. mosquitto acknowledges (PUBACK) and forwards before it
        /// saves its database, so a kill -9 in between loses what was queued for an offline subscriber, or
        /// still in the socket to one: the broker's losses, not the agent's.
        static func acknowledgedButUnsaved(log: String, client: String, topic: String) -> Int {
            let lifetimes = log.components(separatedBy: "mosquitto version").dropFirst().dropLast()  // each killed one
            return lifetimes.reduce(0) { total, lifetime in
                let lines = lifetime.split(separator: "\n")
                // "Saving" is logged as a save begins: a kill during the last one leaves the one before in force.
                let saves = lines.indices.filter { lines[$0].contains("Saving in-memory database") }
                let lastSave = saves.count >= 2 ? saves[saves.count - 2] : -1
                var gyroMessageIDs = Set<Substring>()
                var unsaved = 0
                for (index, line) in lines.enumerated() {
                    if line.contains("Received PUBLISH from \(client) "), line.contains("'\(topic)'"),
                       let id = line.split(separator: ",").first(where: { $0.hasPrefix(" m") }) {
                        gyroMessageIDs.insert(id.dropFirst(2))
                    } else if index > lastSave, line.contains("Sending PUBACK to \(client) (m"),
                              let id = line.split(separator: "(m").last?.split(separator: ",").first, gyroMessageIDs.contains(id) {
                        unsaved += 1
                    }
                }
                return total + unsaved
            }
        }

        @Test func twentyBrokerCrashesLoseNothingTheAgentOwesAndControlStillWorks() throws {
            let running = try RunningAgent.start(
                configuration: Self.configuration(), brokerOptions: Self.durableBroker, subscriber: Self.sessionSubscriber)
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 20), "\(running.agent.log)")
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<20 {
                Thread.sleep(forTimeInterval: Double.random(in: 0.3...1.2, using: &generator))
                running.broker.kill()
                Thread.sleep(forTimeInterval: Double.random(in: 0...0.5, using: &generator))
                try running.broker.restart()
            }
            // Control works afterwards: stop the gyro; its status says so; then everything sent has arrived.
            #expect(running.subscriber.waitForMessage(on: running.topics.status, timeout: .seconds(10)) { $0.payloadString == "online" } != nil)
            Thread.sleep(forTimeInterval: 3)
            try running.send("stop", to: .gyro)
            #expect(running.subscriber.waitForMessage(on: running.topics.status(.gyro), timeout: .seconds(10)) {
                RunningAgent.object($0)?["active"] as? Bool == false
            } != nil, "\(running.agent.log)")
            Thread.sleep(forTimeInterval: 2)
            let received = Self.samples(running).map(\.seq)
            let last = try #require(received.max())
            let missing = Set(1...last).subtracting(received)
            let duplicates = received.count - Set(received).count
            var outOfOrder = 0
            var highest = 0
            for seq in received { if seq < highest { outOfOrder += 1 } else { highest = seq } }
            let brokerLosses = Self.acknowledgedButUnsaved(
                log: running.broker.log(), client: "motion-agent-\(running.deviceID)", topic: running.topics.data(.gyro))
            print("broker chaos: 20 kill -9 cycles, \(last) messages sent, \(missing.count) lost (the broker had acknowledged "
                  + "\(brokerLosses) it had not saved when killed), \(duplicates) duplicates, \(outOfOrder) out of order")
            // The agent owes nothing: whatever is missing, the broker had acknowledged and then lost.
            #expect(missing.count <= brokerLosses, "lost \(missing.sorted()), of which the broker accounts for \(brokerLosses)")
            // And nothing was dropped on the agent's side (its health after the last reconnect).
            running.subscriber.clear()
            let health = try #require(running.subscriber.waitForMessage(on: running.topics.health, timeout: .seconds(12)))
            let mqtt = RunningAgent.object(health.message)?["mqtt"] as? [String: Any]
            #expect(RunningAgent.number(mqtt, "dropped_from_buffer") == 0 && RunningAgent.number(mqtt, "publish_errors") == 0, "\(mqtt ?? [:])")
            #expect(running.subscriber.messages(on: running.topics.status).last?.payloadString ?? "online" == "online")
            #expect(running.agent.isRunning)
        }

        @Test(arguments: [0.0, 0.1])
        func anAgentKilledDuringAnOutageSendsEveryKeptMessageAfterItsRestart(commitInterval: Double) throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let buffer = directory.appendingPathComponent("offline.db").path
            let running = try RunningAgent.start(
                configuration: Self.configuration(durableBuffer: buffer, commitInterval: commitInterval),
                brokerOptions: Self.durableBroker, subscriber: Self.sessionSubscriber)
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 20), "\(running.agent.log)")
            // The outage: the broker goes away (saving the subscriber's session), the agent buffers on disk ...
            running.broker.stop()
            Thread.sleep(forTimeInterval: 2)
            // ... and dies.
            running.agent.send(SIGKILL)
            let killed = Date().timeIntervalSince1970
            _ = running.agent.waitForExit(timeout: .seconds(2))
            let second = try AgentProcess(arguments: [
                "--config", running.configurationURL.path, "--broker", running.broker.url, "--id", running.deviceID, "--device", "sim",
            ])
            // The second run is up before the broker returns, and queues new samples behind the kept ones
            // for a second (a deliberate dwell: the broker must stay down while they queue).
            #expect(eventually(within: .seconds(10)) { second.log.contains("base topic") }, "\(second.log)")
            Thread.sleep(forTimeInterval: 1)
            let restarted = Date().timeIntervalSince1970
            try running.broker.restart()
            // The new run's own messages arrive once the kept ones are through.
            _ = eventually(within: .seconds(15)) { Self.samples(running).filter({ $0.ts > restarted }).count >= 20 }
            let samples = Self.samples(running)
            let old = samples.filter { $0.ts < killed }
            let oldSequences = Set(old.map(\.seq))
            let first = try #require(oldSequences.min()), last = try #require(oldSequences.max())
            #expect(Set(first...last) == oldSequences, "a gap in the first run's messages: \(Set(first...last).subtracting(oldSequences).sorted())")
            // Everything up to the kill (less the commit interval) was kept.
            let newestKept = old.map(\.ts).max() ?? 0
            #expect(killed - newestKept <= commitInterval + 0.3, "the newest kept message is \(killed - newestKept) s older than the kill")
            // Kept messages went first: none of the first run's arrives after the second run's first.
            let firstNew = try #require(samples.firstIndex { $0.ts > restarted }, "\(second.log)")
            #expect(!samples[firstNew...].contains { $0.ts < killed && !samples[..<firstNew].map(\.seq).contains($0.seq) },
                    "a kept message came after new ones")
            print("agent killed during an outage (commit interval \(commitInterval) s): \(oldSequences.count) messages of the first run, "
                  + "\(last - first + 1 - oldSequences.count) lost, newest kept \(String(format: "%.3f", killed - newestKept)) s before the kill")
            second.send(SIGTERM)
            #expect(second.waitForExit(timeout: .seconds(5)) == 0, "\(second.log)")
        }

        @Test func anAgentKilledWhileItsBrokerHangsSendsWhatWasNeverAcknowledged() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hang-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let running = try RunningAgent.start(
                configuration: Self.configuration(durableBuffer: directory.appendingPathComponent("offline.db").path),
                brokerOptions: Self.durableBroker, subscriber: Self.sessionSubscriber)
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 20), "\(running.agent.log)")
            // The broker hangs: the agent's connection looks up (a keepalive away from noticing), so it
            // keeps publishing directly, and nothing is acknowledged ...
            let pid = try #require(running.broker.processIdentifier)
            kill(pid, SIGSTOP)
            let hung = Date().timeIntervalSince1970
            Thread.sleep(forTimeInterval: 2)
            // ... then both die: the agent, and the broker with what it never read.
            running.agent.send(SIGKILL)
            let killed = Date().timeIntervalSince1970
            _ = running.agent.waitForExit(timeout: .seconds(2))
            running.broker.kill()
            try running.broker.restart()
            let second = try AgentProcess(arguments: [
                "--config", running.configurationURL.path, "--broker", running.broker.url, "--id", running.deviceID, "--device", "sim",
            ])
            _ = eventually(within: .seconds(15)) { Self.samples(running).contains(where: { $0.ts > killed + 0.5 }) }
            let during = Self.samples(running).filter { $0.ts > hung + 0.05 && $0.ts < killed - 0.2 }
            let sequences = Set(during.map(\.seq))
            print("agent killed while its broker hung: \(sequences.count) messages of the 2 s hang arrived after the restart")
            #expect(sequences.count >= 80, "the hang's messages, published directly and never acknowledged: \(sequences.count) arrived")
            if let first = sequences.min(), let last = sequences.max() {
                #expect(Set(first...last) == sequences, "a gap: \(Set(first...last).subtracting(sequences).sorted())")
            }
            second.send(SIGTERM)
            #expect(second.waitForExit(timeout: .seconds(5)) == 0, "\(second.log)")
        }
    }
}
