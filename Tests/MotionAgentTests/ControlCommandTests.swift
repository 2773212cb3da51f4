import MotionContract
import Testing

@testable import MotionAgent

@Suite struct ControlCommandTests {
    private func parse(_ text: String, _ service: MotionService = .gyro) throws(ControlCommandError) -> ControlCommand {
        try ControlCommand.parse(Array(text.utf8), for: service)
    }

    private func refusal(_ text: String, _ service: MotionService = .gyro) -> String? {
        do {
            _ = try parse(text, service)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func plainWords() throws {
        #expect(try parse("start") == ControlCommand(active: true))
        #expect(try parse(" stop\n") == ControlCommand(active: false))
    }

    @Test func jsonFields() throws {
        #expect(try parse(#"{"active":true,"interval":0.1}"#) == ControlCommand(active: true, interval: 0.1))
        #expect(try parse(#"{"interval":2}"#) == ControlCommand(interval: 2))
        #expect(try parse(#"{"frame":"xArbitraryZVertical"}"#, .deviceMotion)
                == ControlCommand(referenceFrame: .xArbitraryZVertical))
    }

    @Test func malformedCommandsAreRefusedWithAReason() {
        #expect(refusal("begin")?.contains("expected start, stop or a JSON object") == true)
        #expect(refusal("{\"active\":") != nil)
        #expect(refusal(#"{"active":"yes"}"#) == "active: must be true or false")
        #expect(refusal(#"{"interval":-1}"#)?.hasPrefix("interval: must be between") == true)
        #expect(refusal(#"{"interval":0}"#) != nil)
        #expect(refusal(#"{"interval":1e9}"#) != nil)
        #expect(refusal(#"{"interval":"0.1"}"#) == "interval: must be a number")
        #expect(refusal(#"{"rate":5}"#)?.hasPrefix("rate: unknown field") == true)
        #expect(refusal(#"{"frame":"xArbitraryZVertical"}"#, .gyro)?.hasPrefix("frame: unknown field") == true)
        #expect(refusal(#"{"frame":"up"}"#, .deviceMotion) == "frame: unknown reference frame \"up\"")
        #expect(refusal("{}") == "command changes nothing")
        #expect(refusal("[true]") != nil)
        #expect(refusal(String(repeating: " ", count: 5_000))?.contains("exceeds") == true)
        do {
            _ = try ControlCommand.parse([0xff, 0xfe], for: .gyro)
            Issue.record("invalid UTF-8 accepted")
        } catch {
            #expect(error.description == "payload is not UTF-8")
        }
    }

    @Test func nanCannotBeWrittenInJSONAndIsRefused() {
        #expect(refusal(#"{"interval":NaN}"#) != nil)
    }
}
