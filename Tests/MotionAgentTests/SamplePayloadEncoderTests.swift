import MotionContract
import MotionMath
import Foundation
import Testing

@testable import CoreMotion
@testable import MotionAgent

@Suite struct SamplePayloadEncoderTests {
    private let encoder = SamplePayloadEncoder(wallClockOffset: 1_700_000_000.25)

    private func object(_ payload: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    }

    private func number(_ object: [String: Any], _ key: String) -> Double? {
        (object[key] as? NSNumber)?.doubleValue
    }

    private func vector(_ object: [String: Any], _ key: String) -> SIMD3<Double>? {
        guard let vector = object[key] as? [String: Any], let x = number(vector, "x"), let y = number(vector, "y"),
              let z = number(vector, "z") else { return nil }
        return SIMD3(x, y, z)
    }

    @Test func oneVectorValuePerMessageUsesApplesNames() throws {
        let sample = VectorSample(timestamp: 1234.5678, value: SIMD3(0.125, -0.5, 0.98))
        for (service, name) in [(MotionService.accelerometer, "acceleration"), (.gyro, "rotationRate"), (.magnetometer, "magneticField")] {
            let parsed = try object(encoder.encode([sample], service: service, seq: 42))
            #expect(Set(parsed.keys) == ["seq", "timestamp", "ts", name])
            #expect((parsed["seq"] as? NSNumber)?.uint64Value == 42)
            #expect(number(parsed, "timestamp") == 1234.5678)
            #expect(number(parsed, "ts") == 1234.5678 + 1_700_000_000.25)
            #expect(vector(parsed, name) == sample.value)
        }
    }

    @Test func aBatchListsItsSamples() throws {
        let samples = (0..<3).map { VectorSample(timestamp: 10 + Double($0) * 0.1, value: SIMD3(Double($0), 1, -1)) }
        let parsed = try object(encoder.encode(samples, service: .gyro, seq: 7))
        #expect(Set(parsed.keys) == ["seq", "samples"])
        #expect((parsed["seq"] as? NSNumber)?.intValue == 7)
        let list = try #require(parsed["samples"] as? [[String: Any]])
        #expect(list.count == 3)
        for (entry, sample) in zip(list, samples) {
            #expect(Set(entry.keys) == ["timestamp", "ts", "rotationRate"])
            #expect(number(entry, "timestamp") == sample.timestamp)
            #expect(number(entry, "ts") == sample.timestamp + 1_700_000_000.25)
            #expect(vector(entry, "rotationRate") == sample.value)
        }
        let lastPartialBatch = try object(encoder.encode([samples[0]], service: .gyro, seq: 8, batched: true))
        #expect((lastPartialBatch["samples"] as? [Any])?.count == 1, "a batched topic keeps its format")
    }

    @Test func deviceMotionIsEncodedExactlyAsCoreMotionsSample() throws {
        let attitude = CMAttitude(w: 0.8, x: 0.1, y: -0.3, z: 0.5)
        let motion = CMDeviceMotion(
            attitude: attitude, rotationRate: CMRotationRate(x: 0.01, y: -0.2, z: 1.5),
            gravity: CMAcceleration(x: 0.1, y: -0.2, z: -0.97), userAcceleration: CMAcceleration(x: 0.003, y: 0, z: -0.25),
            magneticField: CMCalibratedMagneticField(field: CMMagneticField(x: 21, y: -3.5, z: -40), accuracy: .medium),
            heading: 123.25, timestamp: 86_400.125)
        // The values as the engine hands them to the agent (CoreMotion builds its object from the same).
        let q = attitude.quaternion, reading = motion.magneticField.field
        let sample = DeviceMotionSample(
            timestamp: motion.timestamp, attitude: Quaternion(w: q.w, x: q.x, y: q.y, z: q.z),
            rotationRate: SIMD3(0.01, -0.2, 1.5), gravity: SIMD3(0.1, -0.2, -0.97), userAcceleration: SIMD3(0.003, 0, -0.25),
            magneticField: SIMD3(reading.x, reading.y, reading.z), magneticAccuracy: .medium, heading: motion.heading)
        let text = encoder.encode([sample], seq: 9)

        let parsed = try object(text)
        #expect(Set(parsed.keys) == ["seq", "timestamp", "ts", "attitude", "rotationRate", "gravity", "userAcceleration", "magneticField", "heading"])
        let attitudeObject = try #require(parsed["attitude"] as? [String: Any])
        let quaternion = try #require(attitudeObject["quaternion"] as? [String: Any])
        // Measurements are written in single precision: they read back as the same 32-bit floats.
        func single(_ value: Double?) -> Float? { value.map(Float.init) }
        #expect(single(number(quaternion, "w")) == Float(attitude.quaternion.w) && single(number(quaternion, "z")) == Float(attitude.quaternion.z))
        #expect(single(number(attitudeObject, "roll")) == Float(attitude.roll))
        #expect(single(number(attitudeObject, "pitch")) == Float(attitude.pitch))
        #expect(single(number(attitudeObject, "yaw")) == Float(attitude.yaw))
        #expect(vector(parsed, "userAcceleration") == SIMD3(0.003, 0, -0.25))
        let field = try #require(parsed["magneticField"] as? [String: Any])
        #expect(vector(field, "field") == SIMD3(21, -3.5, -40))
        #expect(field["accuracy"] as? String == "medium")
        #expect(number(parsed, "heading") == 123.25)
    }

    @Test func aDeviceMotionBatchCarriesRecomputedAngles() throws {
        let turn = { (angle: Double) in Quaternion(w: cos(angle / 2), x: 0, y: 0, z: sin(angle / 2)) }
        let samples = [0.1, 0.2].map { yaw in
            DeviceMotionSample(
                timestamp: yaw, attitude: turn(yaw), rotationRate: .zero, gravity: SIMD3(0, 0, -1), userAcceleration: .zero,
                magneticField: .zero, magneticAccuracy: .uncalibrated, heading: -1)
        }
        let parsed = try object(encoder.encode(samples, seq: 1))
        let list = try #require(parsed["samples"] as? [[String: Any]])
        #expect(list.count == 2)
        for (entry, yaw) in zip(list, [0.1, 0.2]) {
            let attitude = try #require(entry["attitude"] as? [String: Any])
            #expect(abs((number(attitude, "yaw") ?? .nan) - yaw) < 1e-12, "a turn about the vertical is pure yaw")
            #expect(abs(number(attitude, "roll") ?? .nan) < 1e-12 && abs(number(attitude, "pitch") ?? .nan) < 1e-12)
            #expect((entry["magneticField"] as? [String: Any])?["accuracy"] as? String == "uncalibrated")
            #expect(number(entry, "heading") == -1)
        }
    }

    @Test func aMeanDeviceMotionTopicFromSamplesToPayloads() throws {
        // Turning about the vertical at 1 rad/s, sampled at 1 kHz: yaw = t − 100 rad. The mean of a window of
        // evenly spaced turns about one axis is its middle turn, so each published yaw equals its timestamp − 100.
        let samples = (0..<1000).map { index in
            let time = 100 + Double(index) * 0.001
            let half = (time - 100) / 2
            return DeviceMotionSample(
                timestamp: time, attitude: Quaternion(w: cos(half), x: 0, y: 0, z: sin(half)), rotationRate: SIMD3(0, 0, 1),
                gravity: SIMD3(0, 0, -1), userAcceleration: .zero, magneticField: SIMD3(20, 0, -40),
                magneticAccuracy: .high, heading: (350 + Double(index) * 0.02).truncatingRemainder(dividingBy: 360))
        }
        var topic = try TopicSampler<DeviceMotionSample>(settings: TopicSamplingSettings(interval: 0.02, mode: .mean, batchSize: 5))
        let messages = topic.add(samples)
        #expect(messages.count == 9, "49 closed windows: 9 full batches of 5, 4 values waiting")
        for (seq, message) in messages.enumerated() {
            let parsed = try object(encoder.encode(message, seq: UInt64(seq + 1), batched: true))
            #expect((parsed["seq"] as? NSNumber)?.intValue == seq + 1)
            let list = try #require(parsed["samples"] as? [[String: Any]])
            #expect(list.count == 5)
            for entry in list {
                let timestamp = try #require(number(entry, "timestamp"))
                let attitude = try #require(entry["attitude"] as? [String: Any])
                #expect(abs((number(attitude, "yaw") ?? .nan) - (timestamp - 100)) < 1e-9)
                let heading = try #require(number(entry, "heading"))
                let difference = abs(heading - (350 + (timestamp - 100) * 20)).truncatingRemainder(dividingBy: 360)
                #expect((0..<360).contains(heading))
                #expect(min(difference, 360 - difference) < 1e-6, "headings wrap through north")
            }
        }
    }
}
