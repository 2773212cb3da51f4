import Foundation
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

    /// A combining mark that starts the text would fuse with what the message puts before it (the space of
    /// `configuration error: `, found by the configuration fuzzer); further marks stay on their own base.
    @Test func aLeadingCombiningMarkCannotJoinTheTextBeforeIt() {
        #expect(ContractText.sanitized("\u{301}x\u{301}") == "\\u{301}x\u{301}")
        #expect(ContractText.sanitized("\u{1f3fb}") == "\\u{1f3fb}", "an emoji modifier")
        #expect(ContractText.sanitized("\u{93e}") == "\\u{93e}", "a spacing mark (Devanagari vowel sign aa)")
        for text in ["\u{301}", "\u{20dd}field", "\u{1f3fb}"] {
            let error = ConfigurationError(fieldPath: text, reason: text)
            #expect(error.description.hasPrefix("configuration error: "), "\(error)")
            #expect(error.description.count == error.description.unicodeScalars.count, "every character stands alone")
            #expect(ConfigurationError(fieldPath: "", reason: text).description.hasPrefix("configuration error: "))
        }
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
