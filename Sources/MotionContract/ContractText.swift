/// Text handling the contract's messages share.
public enum ContractText {
    /// The longest reason a payload carries, UTF-8 bytes (so at most as many characters): an answer's
    /// `error`, a service status's `error`, a health report's service `error` (the schemas' `maxLength`).
    public static let maximumReasonLength = 300

    /// Text from outside (a command, a topic, a file's content) made safe for one log line or answer:
    /// control, format and line- or paragraph-separator characters (which could forge or reorder lines,
    /// or hide text) become `\u{…}` escapes, and the result is at most `limit` UTF-8 bytes, cut with
    /// `… (N bytes)` inside that budget, so that no input can flood the log. A combining mark (or emoji
    /// modifier) at the very start is escaped too: it would otherwise fuse with the character before it
    /// in the message it is put into (`field: ́x`), changing text that is not the input's.
    /// - Parameters:
    ///   - text: the untrusted text.
    ///   - limit: the most UTF-8 bytes of the result, 120 by default (at least 32).
    public static func sanitized(_ text: some StringProtocol, limit: Int = 120) -> String {
        let suffix = "… (\(text.utf8.count) bytes)"
        let budget = max(limit, 32)
        var result = ""
        var length = 0  // UTF-8 bytes of `result`
        for (index, scalar) in text.unicodeScalars.enumerated() {
            let printable: String
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                printable = escaped(scalar)
            default:
                printable = index == 0 && extendsThePreviousCharacter(scalar) ? escaped(scalar) : String(scalar)
            }
            guard length + printable.utf8.count <= budget else {
                // Room for the suffix: drop what it needs from the end (whole scalars).
                while length + suffix.utf8.count > budget, let last = result.unicodeScalars.last {
                    length -= String(last).utf8.count
                    result.unicodeScalars.removeLast()
                }
                return result + suffix
            }
            result += printable
            length += printable.utf8.count
        }
        return result
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16))}"
    }

    /// Whether `scalar` joins the character before it into one (Unicode's grapheme rules GB9 and GB9a:
    /// Extend, which includes the emoji modifiers, and SpacingMark).
    private static func extendsThePreviousCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isGraphemeExtend || scalar.properties.isEmojiModifier
            || scalar.properties.generalCategory == .spacingMark
    }

}
