import AgentTestSupport
import Foundation
import MotionContract
import MQTT
import MotionTestSupport
import Testing

/// The `steps`, `activity` and `altitude` services through the real agent and a real broker, on the
/// simulator's stairs with its barometer following the same climb: the first climb's 36 steps counted,
/// walking while climbing, about 6 m and two floors up at the top; every payload valid under its schema;
/// without a barometer the altitude service is unavailable and the others are not; a service stops and
/// starts on its control topic like any other.
@Suite(.serialized) struct ActivityServicesIntegrationTests {
    /// The sensor topics off: only what these services publish.
    static let onlyTheNewServices = #"""
        "services": {"accelerometer": {"enabled": false}, "gyro": {"enabled": false}, "magnetometer": {"enabled": false},
                     "device-motion": {"enabled": false}}
        """#

    @Test func aClimbOfTwoFloorsIsCountedClassifiedAndMeasured() throws {
        let running = try RunningAgent.start(
            configuration: #"{"barometer": "sim:motion=stairs", \#(Self.onlyTheNewServices)}"#, device: "sim:motion=stairs")
        defer { running.cleanUp() }
        let topics = running.topics, subscriber = running.subscriber
        for service in [MotionService.steps, .activity, .altitude] {
            let status = try #require(subscriber.waitForMessage(on: topics.status(service)) { !$0.payload.isEmpty }, "\(service)")
            let decoded = try ServiceStatus(payload: status.message.payload)
            #expect(decoded.available && decoded.active && decoded.interval == 1, "\(service): \(decoded)")
        }
        // The stairs: 5 s still, 36 steps up (22.5 s), 5 s still at the top, then down. Until 31 s: the top.
        let first = try #require(subscriber.waitForMessage(on: topics.data(.altitude), timeout: .seconds(10)))
        let start = try SamplePayloadDecoder.altitude(first.message.payload).samples[0].timestamp
        #expect(subscriber.waitForMessage(on: topics.data(.altitude), timeout: .seconds(45)) { message in
            (try? SamplePayloadDecoder.altitude(message.payload).samples[0].timestamp).map { $0 >= start + 31 } ?? false
        } != nil)

        let steps = try subscriber.messages(on: topics.data(.steps)).flatMap { try SamplePayloadDecoder.steps($0.payload).samples }
        let last = try #require(steps.last)
        #expect(abs(Int(last.steps) - 36) <= 1, "36 steps up, counted \(last.steps)")
        #expect(last.floorsAscended == 2 && last.floorsDescended == 0, "\(last)")
        #expect(last.distance > 36 * 0.3 && last.distance < 36 * 1.0, "\(last.distance) m")
        #expect(steps.contains { ($0.cadence ?? 0) > 1.3 && ($0.cadence ?? 0) < 1.9 }, "the climb's 1.6 steps/s")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.steps <= $1.steps }, "totals never go back")
        // Published when they change and at least once a minute: far fewer messages than seconds.
        #expect(steps.count < 34, "\(steps.count) steps messages")

        let activities = try subscriber.messages(on: topics.data(.activity)).flatMap { try SamplePayloadDecoder.activity($0.payload).samples }
        #expect(activities.first?.activity == "stationary" || activities.first?.activity == "unknown", "\(activities)")
        #expect(activities.contains { $0.activity == "walking" }, "\(activities.map(\.activity))")

        let altitudes = try subscriber.messages(on: topics.data(.altitude)).flatMap { try SamplePayloadDecoder.altitude($0.payload).samples }
        let top = altitudes.filter { $0.timestamp > start + 29 && $0.timestamp <= start + 31.5 }.map(\.relativeAltitude).max() ?? .nan
        #expect(abs(top - 6) < 0.5, "top \(top) m")
        #expect(altitudes.allSatisfy { $0.pressure > 100 && $0.pressure < 102 }, "kPa")
        #expect(subscriber.messages(on: topics.data(.altitude)).count >= 30, "1 Hz")

        for service in [MotionService.steps, .activity, .altitude] {
            let payloads = subscriber.messages(on: topics.data(service)).map(\.payload)
            let validation = try PayloadSchemaTests.validate(payloads, against: service.topicName)
            #expect(validation.status == 0, "\(service): \(validation.output)")
        }
    }

    @Test func withoutABarometerOnlyTheAltitudeIsUnavailableAndTheServicesObeyTheirControlTopics() throws {
        let running = try RunningAgent.start(configuration: #"{\#(Self.onlyTheNewServices)}"#, device: "sim")
        defer { running.cleanUp() }
        let topics = running.topics, subscriber = running.subscriber
        let altitude = try #require(subscriber.waitForMessage(on: topics.status(.altitude)))
        let status = try ServiceStatus(payload: altitude.message.payload)
        #expect(!status.available && status.error == "the device has no barometer", "\(status)")
        #expect(subscriber.waitForMessage(on: topics.data(.steps)) != nil, "steps at rest: 0 steps, at once")
        let still = try SamplePayloadDecoder.steps(try #require(subscriber.messages(on: topics.data(.steps)).first).payload).samples[0]
        #expect(still.steps == 0 && still.cadence == nil && still.floorsAscended == nil, "\(still)")

        // Stopped on its control topic: status inactive, no more data; started again at 2 Hz.
        _ = try subscriber.client.publish(MQTTMessage(topic: topics.control(.activity), string: "stop", qos: .atLeastOnce, retain: false))
        #expect(subscriber.waitForMessage(on: topics.status(.activity)) { (try? ServiceStatus(payload: $0.payload))?.active == false } != nil)
        _ = try subscriber.client.publish(MQTTMessage(
            topic: topics.control(.activity), string: #"{"active": true, "interval": 0.5}"#, qos: .atLeastOnce, retain: false))
        #expect(subscriber.waitForMessage(on: topics.status(.activity)) {
            (try? ServiceStatus(payload: $0.payload)).map { $0.active && $0.interval == 0.5 } ?? false
        } != nil)
        #expect(subscriber.waitForCount(on: topics.data(.activity), count: 2), "a first message after each start")
    }
}
