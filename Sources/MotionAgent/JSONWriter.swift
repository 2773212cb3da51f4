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
        text.reserveCapacity(512)  // a device-motion sample is about 450 bytes: no regrowth
    }

    /// A writer for the inside of an object whose `{` is already in `text`.
    private init(continuing text: String) {
        self.text = text
    }

    /// Appends `"key":value` for a number.
    public mutating func field(_ key: String, _ value: Double) {
        appendKey(key)
        appendNumber(value)
    }

    /// Appends `"key":value` for an integer.
    public mutating func field(_ key: String, _ value: Int) {
        appendKey(key)
        text += String(value)  // up to 15 digits fit an inline small string: no heap allocation
    }

    /// Appends `"key":value` for an unsigned integer.
    public mutating func field(_ key: String, _ value: UInt64) {
        appendKey(key)
        text += String(value)  // up to 15 digits fit an inline small string: no heap allocation
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
        appendKey(key)
        text += "{"
        // The nested writer continues in this writer's buffer instead of building its own string; the
        // buffer is swapped, never copied, so it stays uniquely referenced and appends stay in place.
        var nested = JSONWriter(continuing: "")
        swap(&text, &nested.text)
        body(&nested)
        swap(&text, &nested.text)
        text += "}"
    }

    /// Appends `"key":{"x":…,"y":…,"z":…}`.
    public mutating func vector(_ key: String, x: Double, y: Double, z: Double) {
        // Written directly (the same text as three `field` calls in an `object`, with a third of the
        // appends): sample payloads are mostly vectors.
        appendKey(key)
        text += "{\"x\":"
        appendNumber(x)
        text += ",\"y\":"
        appendNumber(y)
        text += ",\"z\":"
        appendNumber(z)
        text += "}"
    }

    /// Appends `"key":[…]` with one already-encoded JSON value per element.
    public mutating func array(_ key: String, encodedElements: [String]) {
        appendKey(key)
        text += "[" + encodedElements.joined(separator: ",") + "]"
    }

    /// The finished object's text (the writer's buffer, closed in place).
    public consuming func finished() -> String {
        text += "}"
        return text
    }

    private mutating func appendKey(_ key: String) {
        defer { needsComma = true }
        if Self.needsNoEscaping(key) {
            // The common case (every key this project writes), in three appends.
            text += needsComma ? ",\"" : "\""
            text += key
            text += "\":"
            return
        }
        if needsComma { text += "," }
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    /// A finite number in Swift's shortest round-trip form, otherwise `null`. `write(to:)` formats into a
    /// stack buffer and appends it; `description` would first build a String (on the heap beyond 15
    /// characters, which most sample values have).
    private mutating func appendNumber(_ value: Double) {
        if value.isFinite { value.write(to: &text) } else { text += "null" }
    }

    /// Whether `string` can be written between quotes as it is.
    private static func needsNoEscaping(_ string: String) -> Bool {
        string.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        // Keys and most values need no escaping: append them whole (this runs for every field of every
        // message).
        if needsNoEscaping(string) {
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
