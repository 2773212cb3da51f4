/// Builds one compact JSON object by appending fields, for payloads published many times a second.
///
/// Numbers are written in Swift's shortest round-trip form; a NaN or infinite value is written as
/// `null`, since JSON has no such numbers.
public struct JSONWriter: Sendable {
    private var text: String
    private var needsComma = false

    /// Starts an empty object.
    public init() {
        text = "{"
        text.reserveCapacity(256)
    }

    /// Appends `"key":value` for a number.
    public mutating func field(_ key: String, _ value: Double) {
        appendKey(key)
        text += value.isFinite ? value.description : "null"
    }

    /// Appends `"key":value` for an integer.
    public mutating func field(_ key: String, _ value: Int) {
        appendKey(key)
        text += value.description
    }

    /// Appends `"key":value` for an unsigned integer.
    public mutating func field(_ key: String, _ value: UInt64) {
        appendKey(key)
        text += value.description
    }

    /// Appends `"key":true` or `"key":false`.
    public mutating func field(_ key: String, _ value: Bool) {
        appendKey(key)
        text += value ? "true" : "false"
    }

    /// Appends `"key":"value"`, escaping the string as JSON requires.
    public mutating func field(_ key: String, _ value: String) {
        appendKey(key)
        Self.appendQuoted(value, to: &text)
    }

    /// Appends `"key":{…}` with the fields that `body` writes.
    public mutating func object(_ key: String, _ body: (inout JSONWriter) -> Void) {
        var nested = JSONWriter()
        body(&nested)
        appendKey(key)
        text += nested.finished()
    }

    /// Appends `"key":{"x":…,"y":…,"z":…}`.
    public mutating func vector(_ key: String, x: Double, y: Double, z: Double) {
        object(key) { vector in
            vector.field("x", x)
            vector.field("y", y)
            vector.field("z", z)
        }
    }

    /// Appends `"key":[…]` with one already-encoded JSON value per element.
    public mutating func array(_ key: String, encodedElements: [String]) {
        appendKey(key)
        text += "[" + encodedElements.joined(separator: ",") + "]"
    }

    /// The finished object's text.
    public func finished() -> String { text + "}" }

    private mutating func appendKey(_ key: String) {
        if needsComma { text += "," }
        needsComma = true
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        // Keys and most values need no escaping: append them whole (this runs for every field of every
        // message).
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            text += "\""
            text += string
            text += "\""
            return
        }
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
