import AgentTestSupport
import MotionContract
import Foundation
import MQTT
import MotionTestSupport
import Testing

@testable import MotionAgent

extension AgentEndToEndTests {
    /// Every kind of sensor fault through a fault-injecting device (``FaultInjectingIMU`` around the
    /// simulator): the services go unavailable with a reason, fusion never publishes a non-number, and the
    /// services come back by themselves.
    @Suite(.timeLimit(.minutes(2))) struct SensorFaultTests {
        /// Each kind and a phrase its reason must contain.
        static let kinds: [(kind: String, reason: String)] = [
            ("read", "simulated fault"), ("stall", "no samples for"), ("nan", "not numbers dropped"),
            ("saturate", "saturated"), ("vanish", "gone"),
        ]

        /// Every number in a JSON value (nested objects and arrays), with `null` as NaN.
        static func numbers(in value: Any) -> [Double] {
            switch value {
            case let object as [String: Any]: object.values.flatMap(numbers)
            case let array as [Any]: array.flatMap(numbers)
            case let number as NSNumber: [number.doubleValue]
            case is NSNull: [.nan]
            default: []
            }
        }

        @Test(arguments: kinds.map(\.kind))
        func aFaultyDeviceGoesUnavailableAndComesBack(kind: String) throws {
            let reason = try #require(Self.kinds.first { $0.kind == kind }?.reason)
            let running = try RunningAgent.start(device: "sim:fault=\(kind),fault_after=1,fault_duration=1.5")
            defer { running.cleanUp() }
            let topics = running.topics
            let fault = try #require(
                running.subscriber.waitForMessage(on: topics.status(.deviceMotion), timeout: .seconds(6)) { !RunningAgent.isAvailable($0) },
                "\(kind): \(running.agent.log)")
            let error = RunningAgent.object(fault.message)?["error"] as? String ?? ""
            #expect(error.contains(reason), "\(kind): reason \(error)")
            let recovered = running.subscriber.waitForMessage(on: topics.status(.deviceMotion), timeout: .seconds(10)) {
                RunningAgent.isAvailable($0) && RunningAgent.object($0)?["error"] == nil
            }
            #expect(recovered != nil, "\(kind): device motion came back by itself: \(running.agent.log)")
            running.subscriber.clear()
            #expect(running.subscriber.waitForCount(on: topics.data(.deviceMotion), count: 20, timeout: .seconds(5)), "\(kind): data flows again")
            // Not one non-number on any data topic, before, during or after the fault.
            for service in MotionService.allCases {
                for message in running.subscriber.allRecords().map(\.message) where message.topic == topics.data(service) {
                    let values = RunningAgent.object(message).map(Self.numbers) ?? [.nan]
                    let allFinite = values.allSatisfy { $0.isFinite }
                    #expect(allFinite, "\(kind): \(service.topicName) published \(message.payloadString)")
                }
            }
            running.agent.send(SIGTERM)
            #expect(running.agent.waitForExit(timeout: .seconds(5)) == 0)
        }

        /// A service started from its control topic while the device is down says so at once, with the
        /// reason, instead of looking available with no data (the stall watchdog stays quiet inside a fault
        /// episode, so nothing else would), and comes back with the device.
        @Test func aServiceStartedDuringAFaultIsUnavailableAtOnceAndComesBack() throws {
            let running = try RunningAgent.start(
                configuration: #"{"services": {"gyro": {"enabled": false}}}"#,
                device: "sim:fault=read,fault_after=1,fault_duration=6")
            defer { running.cleanUp() }
            let topics = running.topics
            _ = try #require(
                running.subscriber.waitForMessage(on: topics.status(.deviceMotion), timeout: .seconds(6)) { !RunningAgent.isAvailable($0) },
                "the fault: \(running.agent.log)")
            try running.send("start", to: .gyro)
            let told = running.subscriber.waitForMessage(on: topics.status(.gyro), timeout: .seconds(3)) {
                (RunningAgent.object($0)?["error"] as? String)?.contains("simulated fault") == true
            }
            #expect(told != nil, "gyro unavailable with the fault's reason: \(running.subscriber.messages(on: topics.status(.gyro)).map(\.payloadString))")
            running.subscriber.clear()  // from here on: statuses after the one with the fault
            let recovered = running.subscriber.waitForMessage(on: topics.status(.gyro), timeout: .seconds(10)) {
                RunningAgent.isAvailable($0) && RunningAgent.object($0)?["error"] == nil
            }
            #expect(recovered != nil, "gyro came back with the device: \(running.agent.log)")
            running.agent.send(SIGTERM)
            #expect(running.agent.waitForExit(timeout: .seconds(5)) == 0)
        }
    }
}
