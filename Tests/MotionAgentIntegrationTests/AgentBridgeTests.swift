import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// The bridge's contract beyond the basics, end to end: health, per-topic down-sampling modes, sensor
    /// faults and recovery, frames, reload, and the broker going away.
    @Suite(.timeLimit(.minutes(1))) struct AgentBridgeTests {
        private func norm(_ vector: Any?) -> Double {
            guard let vector = vector as? [String: Any] else { return .nan }
            return ["x", "y", "z"].map { RunningAgent.number(vector, $0) ?? .nan }.map { $0 * $0 }.reduce(0, +).squareRoot()
        }

        @Test func healthReportsTheDeviceTheServicesAndFusion() throws {
            let running = try RunningAgent.start(configuration: #"{"health_interval":1,"services":{"gyro":{"rate_hz":20}}}"#)
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.health, count: 2, timeout: .seconds(5)), "\(running.agent.log)")
            let health = try #require(running.objects(on: running.topics.health).last)
            let device = try #require(health["device"] as? [String: Any])
            #expect(device["driver"] as? String == "sim")
            #expect(RunningAgent.number(device, "configured_rate_hz") == 200)
            let achieved = try #require(RunningAgent.number(device, "achieved_rate_hz"))
            #expect(abs(achieved - 200) < 20, "achieved \(achieved) Hz")
            #expect(RunningAgent.number(device, "faults") == 0 && device["fault"] == nil)
            #expect((health["connected"] as? NSNumber)?.boolValue == true)
            #expect((RunningAgent.number(health, "uptime") ?? 0) >= 1)
            let gyro = try #require((health["services"] as? [String: Any])?["gyro"] as? [String: Any])
            let rate = try #require(RunningAgent.number(gyro, "rate_hz"))
            #expect(abs(rate - 20) <= 2, "gyro \(rate) msg/s")
            // `latest` takes in only the samples it publishes (Core Motion's sample interval picks them).
            let samples = try #require(RunningAgent.number(gyro, "samples"))
            #expect(samples > 0 && samples == RunningAgent.number(gyro, "messages"))
            let fusion = try #require(health["fusion"] as? [[String: Any]])
            #expect(fusion.first?["frame"] as? String == "xMagneticNorthZVertical")
            #expect((fusion.first?["initialized"] as? NSNumber)?.boolValue == true)
        }

        @Test func meanModeBatchesDownSampledValues() throws {
            let running = try RunningAgent.start(configuration: """
                {"services":{"accelerometer":{"rate_hz":10,"mode":"mean","batch":5},
                             "device-motion":{"rate_hz":20,"mode":"mean"}}}
                """)
            defer { running.cleanUp() }
            let topic = running.topics.data(.accelerometer)
            #expect(running.subscriber.waitForCount(on: topic, count: 4, timeout: .seconds(5)), "\(running.agent.log)")
            let messages = running.objects(on: topic)
            for message in messages {
                let samples = try #require(message["samples"] as? [[String: Any]], "batch format")
                #expect(samples.count == 5)
                let times = samples.compactMap { RunningAgent.number($0, "timestamp") }
                #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 0.006 }, "window means 0.1 s apart: \(times)")
                #expect(samples.allSatisfy { (0.9...1.1).contains(norm($0["acceleration"])) })
            }
            let sequence = messages.compactMap { RunningAgent.number($0, "seq") }
            #expect(sequence == (1...sequence.count).map(Double.init), "one seq per message")
            let motion = try #require(running.objects(on: running.topics.data(.deviceMotion)).last)
            let quaternion = try #require((motion["attitude"] as? [String: Any])?["quaternion"] as? [String: Any])
            let length = ["x", "y", "z", "w"].map { RunningAgent.number(quaternion, $0) ?? .nan }.map { $0 * $0 }.reduce(0, +)
            #expect(abs(length - 1) < 1e-6, "the averaged attitude is a unit quaternion (single-precision components)")
        }

        @Test func deadbandWithHeartbeatOnAStillDevice() throws {
            let running = try RunningAgent.start(
                configuration: #"{"services":{"magnetometer":{"rate_hz":50,"deadband":2,"heartbeat":1}}}"#,
                device: "sim:motion=stationary")
            defer { running.cleanUp() }
            let topic = running.topics.data(.magnetometer)
            #expect(running.subscriber.waitForCount(on: topic, count: 1, timeout: .seconds(5)), "\(running.agent.log)")
            running.subscriber.clear()
            // Four messages span three heartbeats; one extra (a reading past the deadband) still passes.
            let rate = running.subscriber.arrivalRate(on: topic, over: 4, timeout: .seconds(8))
            #expect(rate.map { (0.5...2).contains($0) } == true, "a still device publishes only the 1 s heartbeat, not 50/s: \(rate ?? 0) msg/s")
            // Two heartbeat periods passed meanwhile: about 100 accelerometer messages at 50 Hz.
            #expect(running.subscriber.messages(on: running.topics.data(.accelerometer)).count > 80, "other topics unaffected")
        }

        @Test func aSensorFaultMarksServicesUnavailableUntilDataFlowsAgain() throws {
            let running = try RunningAgent.start(device: "sim:fault_after=1,fault_duration=1.5")
            defer { running.cleanUp() }
            let status = running.topics.status(.accelerometer)
            let fault = try #require(
                running.subscriber.waitForMessage(on: status, timeout: .seconds(5)) { !RunningAgent.isAvailable($0) },
                "\(running.agent.log)")
            let error = RunningAgent.object(fault.message)?["error"] as? String ?? ""
            #expect(error.contains("simulated fault"), "reason: \(error)")
            #expect(RunningAgent.object(fault.message)?["active"] as? Bool == true, "still wanted, just unavailable")
            running.subscriber.clear()  // the outage lasts 1.5 s: the recovery is still to come
            let recovered = running.subscriber.waitForMessage(on: status, timeout: .seconds(5)) {
                RunningAgent.isAvailable($0) && RunningAgent.object($0)?["error"] == nil
            }
            #expect(recovered != nil, "service came back by itself: \(running.agent.log)")
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: running.topics.data(.accelerometer), count: 20), "data flows again")
            #expect(running.agent.isRunning)
        }

        @Test func frameCommandSwitchesDeviceMotionsReferenceFrame() throws {
            let running = try RunningAgent.start()
            defer { running.cleanUp() }
            let topic = running.topics.data(.deviceMotion)
            #expect(running.subscriber.waitForCount(on: topic, count: 5), "\(running.agent.log)")
            #expect(running.objects(on: topic).allSatisfy { (RunningAgent.number($0, "heading") ?? -1) >= 0 }, "north frame has a heading")
            try running.send(#"{"frame":"xArbitraryZVertical"}"#, to: .deviceMotion)
            let status = try #require(running.subscriber.waitForMessage(on: running.topics.status(.deviceMotion)) {
                RunningAgent.object($0)?["frame"] as? String == "xArbitraryZVertical"
            })
            #expect(RunningAgent.isAvailable(status.message))
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: topic, count: 5))
            #expect(running.objects(on: topic).allSatisfy { RunningAgent.number($0, "heading") == -1 }, "no north in an arbitrary frame")

            // True north needs a declination this device lacks: refused, and nothing changes.
            running.subscriber.clear()
            try running.send(#"{"frame":"xTrueNorthZVertical"}"#, to: .deviceMotion)
            let refused = try #require(running.subscriber.waitForMessage(on: running.topics.error), "\(running.agent.log)")
            let answer = RunningAgent.object(refused.message)
            #expect(answer?["ok"] as? Bool == false)
            #expect((answer?["error"] as? String)?.contains("xTrueNorthZVertical is not available") == true, "\(answer ?? [:])")
            #expect(running.subscriber.messages(on: running.topics.status(.deviceMotion)).isEmpty, "the status did not change")
            #expect(running.subscriber.waitForCount(on: topic, count: 5), "device motion goes on in its frame")
            #expect(running.objects(on: topic).allSatisfy { RunningAgent.number($0, "heading") == -1 })
        }

        @Test func sighupReloadsServiceSettingsWithoutReconnecting() throws {
            let running = try RunningAgent.start(configuration: #"{"services":{"gyro":{"rate_hz":10}}}"#)
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 3), "\(running.agent.log)")
            try Data(#"{"services":{"gyro":{"rate_hz":40},"magnetometer":{"enabled":false}},"topic_prefix":"elsewhere"}"#.utf8)
                .write(to: running.configurationURL)
            running.subscriber.clear()
            running.agent.send(SIGHUP)
            let gyroStatus = try #require(running.subscriber.waitForMessage(on: running.topics.status(.gyro)))
            #expect(RunningAgent.number(RunningAgent.object(gyroStatus.message), "rate_hz") == 40)
            let magnetometer = try #require(running.subscriber.waitForMessage(on: running.topics.status(.magnetometer)))
            #expect(RunningAgent.object(magnetometer.message)?["active"] as? Bool == false)
            // Gyroscope data published after the statuses fences off what was in flight before the reload.
            let beforeFence = running.subscriber.messages(on: running.topics.data(.gyro)).count
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: beforeFence + 5))
            running.subscriber.clear()
            let gyroRate = running.subscriber.arrivalRate(on: running.topics.data(.gyro), over: 81)
            #expect(gyroRate.map { (36...44).contains($0) } == true, "gyro at \(gyroRate ?? 0) msg/s over 2 s, configured 40")
            #expect(running.subscriber.messages(on: running.topics.data(.magnetometer)).isEmpty)
            #expect(running.subscriber.messages(on: running.topics.status).isEmpty, "no reconnect: online was not re-announced")
            #expect(running.agent.log.contains("topic_prefix changed: restart to apply"), "\(running.agent.log)")

            try Data("{ not json".utf8).write(to: running.configurationURL)
            running.agent.send(SIGHUP)
            #expect(eventually(within: .seconds(10)) { running.agent.log.contains("reload refused, the running configuration stays") })
            #expect(running.agent.isRunning)
        }

        @Test func brokerRestartRestoresStatusAndControlWithinThreeSeconds() throws {
            let running = try RunningAgent.start()
            defer { running.cleanUp() }
            #expect(running.subscriber.waitForCount(on: running.topics.data(.gyro), count: 5), "\(running.agent.log)")
            let disconnections = running.agent.log.components(separatedBy: "disconnected from the broker").count
            running.broker.stop()
            #expect(eventually(within: .seconds(10)) {
                running.agent.log.components(separatedBy: "disconnected from the broker").count > disconnections
            }, "the agent noticed the outage: \(running.agent.log)")
            try running.broker.restart()
            let returned = ContinuousClock.now
            // The broker kept nothing (no persistence): what the subscriber sees was announced anew.
            let late = try RecordingSubscriber(broker: running.broker.address, topicFilters: ["\(running.topics.base)/#"])
            let online = late.waitForMessage(on: running.topics.status, timeout: .seconds(5)) { $0.payloadString == "online" }
            #expect(online != nil, "\(running.agent.log)")
            #expect(late.waitForMessage(on: running.topics.status(.gyro), timeout: .seconds(3)) != nil)
            #expect(late.waitForMessage(on: running.topics.info, timeout: .seconds(3)) != nil)
            try late.client.publish(MQTTMessage(topic: running.topics.control(.gyro), string: "stop", qos: .atLeastOnce))
            let stopped = late.waitForMessage(on: running.topics.status(.gyro), timeout: .seconds(3)) {
                RunningAgent.object($0)?["active"] as? Bool == false
            }
            #expect(stopped != nil, "the control subscription is back")
            let elapsed = ContinuousClock.now - returned
            #expect(elapsed < .seconds(3), "status and control restored \(elapsed) after the broker returned")
        }
    }
}
