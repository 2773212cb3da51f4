import Foundation
import MotionContract
import Testing

/// The remote-configuration pieces of the contract: JSON Merge Patch (RFC 7386's own examples), the
/// canonical writer the hash is taken over, and `{base}/config` decoded back.
@Suite struct ConfigurationReportTests {
    private func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test(arguments: [
        // RFC 7386, appendix A.
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"a":1,"e":null}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ])
    func mergePatchFollowsRFC7386(target: String, patch: String, result: String) throws {
        #expect(try json(target).mergePatched(with: json(patch)) == json(result))
    }

    @Test func canonicalTextSortsKeysAtEveryLevelAndIsStable() throws {
        let value = try json(#"{"b":{"z":1,"a":[true,null,2.5,"x\"y"]},"a":-3}"#)
        let text = String(decoding: JSONWriter.canonical(value.objectMembers!), as: UTF8.self)
        #expect(text == #"{"a":-3,"b":{"a":[true,null,2.5,"x\"y"],"z":1}}"#)
        #expect(try json(text) == value, "the canonical text parses back to the same value")
    }

    @Test func aReportRoundTripsAndABadOneNamesTheField() throws {
        let report = ConfigurationReport(
            version: 3, hash: String(repeating: "ab", count: 32),
            settings: ["health_interval": .real(30), "services": .object(["gyro": .object(["interval": .real(0.1)])])],
            sources: Dictionary(uniqueKeysWithValues: ConfigurationReport.parts.map { ($0, .file) }).merging(["services.gyro": .remote]) { $1 },
            ts: 1_796_000_000.5)
        #expect(try ConfigurationReport(payload: Array(report.json().utf8)) == report)
        var broken = report
        broken.hash = "not a hash"
        #expect(throws: PayloadError.self) { try ConfigurationReport(payload: Array(broken.json().utf8)) }
        let badSource = report.json().replacingOccurrences(of: #""services.gyro":"remote""#, with: #""services.gyro":"cloud""#)
        #expect {
            try ConfigurationReport(payload: Array(badSource.utf8))
        } throws: { ($0 as? PayloadError)?.fieldPath == "sources.services.gyro" }
    }

    @Test func aConfigurationAnswerCarriesItsVersion() throws {
        let answer = CommandAnswer.accepted(version: 7)
        #expect(answer.json() == #"{"ok":true,"version":7}"#)
        #expect(try CommandAnswer(payload: Array(answer.json().utf8)) == answer)
        let refusal = CommandAnswer.refusal("configuration error: health_interval: must be 0 (off) or 1…86400 seconds", service: nil, payload: Array("{}".utf8))
        #expect(refusal.service == nil && refusal.json().hasPrefix(#"{"ok":false,"error":"#))
    }
}
