import Foundation
import Testing

@testable import MotionContract

/// The exact text `JSONWriter` writes: escapes, numbers at their extremes, nesting, growth past the first
/// buffer, and the canonical form. The sample payloads' goldens cover the common path byte for byte; these
/// cover the paths a payload of the contract rarely takes.
@Suite struct JSONWriterTests {
    @Test func keysAndStringsAreEscapedAsJSONRequires() throws {
        var writer = JSONWriter()
        writer.field("plain", "text")
        writer.field("quote\"key", "a \"quoted\" \\ back-slash")
        writer.field("controls", "line\nfeed\r\ttab \u{01}\u{1f}")
        writer.field("unicode", "Grüße, 北京 🚀")
        writer.field("", "")
        let text = writer.finished()
        #expect(text == #"{"plain":"text","quote\"key":"a \"quoted\" \\ back-slash","controls":"line\nfeed\r\ttab \u0001\u001f","unicode":"Grüße, 北京 🚀","":""}"#)
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(parsed["quote\"key"] == "a \"quoted\" \\ back-slash")
        #expect(parsed["controls"] == "line\nfeed\r\ttab \u{01}\u{1f}")
        #expect(parsed["unicode"] == "Grüße, 北京 🚀")
    }

    @Test func integersAtTheirExtremes() {
        var writer = JSONWriter()
        writer.field("zero", 0)
        writer.field("min", Int.min)
        writer.field("max", Int.max)
        writer.field("negative", -7)
        writer.field("unsigned", UInt64.max)
        writer.field("ten", UInt64(10))
        #expect(writer.finished() == #"{"zero":0,"min":-9223372036854775808,"max":9223372036854775807,"negative":-7,"unsigned":18446744073709551615,"ten":10}"#)
    }

    @Test func numbersInShortestRoundTripFormAndNullWhenNotFinite() {
        var writer = JSONWriter()
        writer.field("smallest", -2.2250738585072014e-308)
        writer.field("largest", Double.greatestFiniteMagnitude)
        writer.field("tenth", 0.1)
        writer.field("whole", 3.0)
        writer.field("nan", Double.nan)
        writer.field("infinity", -Double.infinity)
        writer.measurement("single", 0.1)
        writer.measurement("beyondFloat", 1e39)
        writer.vector("v", x: -1.5, y: .nan, z: 1e-7)
        writer.coarseMeasurements("coarse", [0, 1.0009765625, 70_000, .nan, -3e-5, 0.333])
        #expect(writer.finished() == #"{"smallest":-2.2250738585072014e-308,"largest":1.7976931348623157e+308,"tenth":0.1,"whole":3.0,"nan":null,"infinity":null,"single":0.1,"beyondFloat":null,"v":{"x":-1.5,"y":null,"z":1e-07},"coarse":[0.0,1.001,null,null,0.0,0.333]}"#)
    }

    @Test func nestedObjectsArraysAndBooleans() {
        var writer = JSONWriter()
        writer.field("on", true)
        writer.object("empty") { _ in }
        writer.object("outer") { outer in
            outer.field("off", false)
            outer.object("inner") { $0.field("n", 1) }
        }
        writer.array("items", objects: [1, 2]) { value, item in item.field("i", value) }
        writer.array("none", objects: [Int]()) { _, _ in }
        writer.array("names", strings: ["a", "b\"c"])
        #expect(writer.finished() == #"{"on":true,"empty":{},"outer":{"off":false,"inner":{"n":1}},"items":[{"i":1},{"i":2}],"none":[],"names":["a","b\"c"]}"#)
        #expect(String(decoding: JSONWriter.arrayOfObjects(["x", "y"]) { name, item in item.field("n", name) }, as: UTF8.self)
            == #"[{"n":"x"},{"n":"y"}]"#)
    }

    @Test func aTextLongerThanTheFirstBufferGrowsIntact() throws {
        var writer = JSONWriter()
        let long = String(repeating: "0123456789", count: 200)
        writer.field("long", long)
        for index in 0..<200 { writer.measurement("m\(index)", Double(index) / 7) }
        writer.field("escaped", String(repeating: "\u{01}", count: 300))
        let bytes = writer.finishedBytes()
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(parsed["long"] as? String == long)
        #expect(parsed["escaped"] as? String == String(repeating: "\u{01}", count: 300))
        #expect((parsed["m199"] as? NSNumber)?.floatValue == Float(199.0 / 7))
        #expect(parsed.count == 202)
    }

    @Test func theCanonicalFormSortsKeysAtEveryLevel() {
        let object: [String: JSONValue] = [
            "b": .array([.object(["z": .integer(1), "a": .null]), .real(0.5), .string("s")]),
            "a": .object(["y": .bool(true), "x": .integer(-2)]),
            "é": .integer(3), "Z": .object([:]),
        ]
        #expect(String(decoding: JSONWriter.canonical(object), as: UTF8.self)
            == #"{"Z":{},"a":{"x":-2,"y":true},"b":[{"a":null,"z":1},0.5,"s"],"é":3}"#)
        #expect(String(decoding: JSONWriter.canonical(value: .array([.object(["b": .integer(2), "a": .integer(1)])])), as: UTF8.self)
            == #"[{"a":1,"b":2}]"#)
    }
}
