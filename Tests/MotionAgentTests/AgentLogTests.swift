import MotionContract
import Testing

@testable import MotionAgent

/// Text from outside in a log line or an answer: printable, one line, bounded in bytes.
@Suite struct AgentLogTests {
    @Test func controlFormatAndSeparatorCharactersAreEscaped() {
        #expect(ContractText.sanitized("a\nb\r\u{7f}") == "a\\u{a}b\\u{d}\\u{7f}")
        // A line or paragraph separator, a right-to-left override (which reorders what a reader sees).
        #expect(ContractText.sanitized("x\u{2028}y\u{2029}z\u{202e}") == "x\\u{2028}y\\u{2029}z\\u{202e}")
        #expect(ContractText.sanitized("ünïcödé µT 42°") == "ünïcödé µT 42°", "ordinary text is kept")
    }

    @Test func theResultIsBoundedInBytesWhateverTheInput() {
        let inputs = [
            String(repeating: "x", count: 5_000),
            "e" + String(repeating: "\u{301}", count: 10_000),  // one character of 10,001 scalars
            String(repeating: "\u{7f}", count: 1_000),  // each escaped to 6 bytes
            String(repeating: "😀", count: 1_000),
        ]
        for input in inputs {
            let text = ContractText.sanitized(input, limit: 120)
            #expect(text.utf8.count <= 120, "\(text.utf8.count) bytes")
            #expect(text.hasSuffix("(\(input.utf8.count) bytes)"), "\(text)")
        }
        #expect(ContractText.sanitized("short", limit: 120) == "short")
    }
}
