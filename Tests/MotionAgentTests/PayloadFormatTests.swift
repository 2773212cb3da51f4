import MotionContract
import Foundation
import Testing

@testable import MotionAgent

@Suite struct PayloadFormatTests {
    private func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func jsonWriterEscapesAndNests() throws {
        var writer = JSONWriter()
        writer.field("text", "quote \" back \\ newline \n tab \t bell \u{7} µT")
        writer.field("count", 3)
        writer.field("big", UInt64.max)
        writer.field("flag", false)
        writer.field("nan", Double.nan)
        writer.vector("v", x: 1.5, y: -0.25, z: 1e-7)
        writer.array("list", objects: [1, 2]) { element, entry in entry.field("n", element) }
        let parsed = try object(writer.finished())
        #expect(parsed["text"] as? String == "quote \" back \\ newline \n tab \t bell \u{7} µT")
        #expect((parsed["count"] as? NSNumber)?.intValue == 3)
        #expect((parsed["big"] as? NSNumber)?.uint64Value == UInt64.max)
        #expect((parsed["flag"] as? NSNumber)?.boolValue == false)
        #expect(parsed["nan"] is NSNull)
        let vector = try #require(parsed["v"] as? [String: Any])
        #expect((vector["z"] as? NSNumber)?.doubleValue == 1e-7)
        let list = try #require(parsed["list"] as? [[String: Any]])
        #expect(list.map { ($0["n"] as? NSNumber)?.intValue } == [1, 2])
    }

    @Test func jsonWriterTextIsCompactAndExact() {
        var writer = JSONWriter()
        writer.field("a", 0.1)
        writer.field("b", -2.5e-300)
        writer.field("min", Int.min)
        writer.field("zero", 0)
        writer.field("max", UInt64.max)
        writer.field("inf", -Double.infinity)
        writer.field("ctl", "\u{1}\u{1f}é\"")
        writer.object("o") { inner in
            inner.field("t", true)
            inner.vector("v", x: 1, y: -0.0, z: 123456.789)
        }
        writer.array("e", objects: [Int]()) { _, _ in }
        #expect(writer.finished() == #"{"a":0.1,"b":-2.5e-300,"min":-9223372036854775808,"zero":0,"max":18446744073709551615,"#
            + #""inf":null,"ctl":"\u0001\u001fé\"","o":{"t":true,"v":{"x":1.0,"y":-0.0,"z":123456.79}},"e":[]}"#)
        // Numbers are Swift's shortest round-trip text.
        for value in [1.0 / 3, 9.81, 1e21, Double.leastNonzeroMagnitude, Double.pi] {
            var single = JSONWriter()
            single.field("v", value)
            #expect(single.finished() == "{\"v\":\(value.description)}")
            // Measurements: the shortest text of the single-precision value, which reads back as it.
            var measured = JSONWriter()
            measured.measurement("m", value)
            #expect(measured.finished() == "{\"m\":\(Float(value).description)}")
            #expect(Float(String(Float(value).description)) == Float(value))
        }
        var huge = JSONWriter()
        huge.measurement("m", 1e39)
        #expect(huge.finished() == #"{"m":null}"#, "beyond the float range, as not finite")
    }

    @Test func serviceStatusPayload() throws {
        let status = ServiceStatus(available: true, active: true, interval: 0.02, referenceFrame: "xArbitraryZVertical")
        let parsed = try object(status.json())
        #expect((parsed["available"] as? NSNumber)?.boolValue == true)
        #expect((parsed["interval"] as? NSNumber)?.doubleValue == 0.02)
        #expect((parsed["rate_hz"] as? NSNumber)?.doubleValue == 50)
        #expect(parsed["frame"] as? String == "xArbitraryZVertical")
        #expect(parsed["error"] == nil)
        let unavailable = try object(ServiceStatus(available: false, active: false, interval: 0.05, error: "no magnetometer").json())
        #expect(unavailable["error"] as? String == "no magnetometer")
    }

    @Test func topicLayoutFollowsTheContract() {
        let topics = TopicLayout(prefix: "motion", deviceID: "pi-4")
        #expect(topics.status == "motion/pi-4/status")
        #expect(topics.info == "motion/pi-4/info")
        #expect(topics.data(.deviceMotion) == "motion/pi-4/device-motion")
        #expect(topics.status(.gyro) == "motion/pi-4/gyro/status")
        #expect(topics.control(.magnetometer) == "motion/pi-4/magnetometer/set")
        #expect(topics.allControlTopics == "motion/pi-4/+/set")
        #expect(topics.service(forControlTopic: "motion/pi-4/device-motion/set") == .deviceMotion)
        #expect(topics.service(forControlTopic: "motion/pi-4/compass/set") == nil)
        #expect(topics.service(forControlTopic: "motion/pi-5/gyro/set") == nil)
        #expect(topics.service(forControlTopic: "motion/pi-4/gyro/status") == nil)
    }
}
