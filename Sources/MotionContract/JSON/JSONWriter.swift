import MotionMath

/// Builds one compact JSON object by appending fields, for payloads published many times a second.
///
/// The text is written as UTF-8 bytes into one buffer (what MQTT sends), so a payload costs one
/// allocation and no `String` bookkeeping per append. Numbers are written in Swift's shortest round-trip
/// form; a NaN or infinite value is written as `null`, since JSON has no such numbers.
public struct JSONWriter: PayloadWriter, Sendable {
    private var bytes: [UInt8]
    private var needsComma = false

    /// Starts an empty object.
    public init() {
        bytes = []
        bytes.reserveCapacity(768)  // a device-motion sample is about 560 bytes: no regrowth
        bytes.append(UInt8(ascii: "{"))
    }

    /// A writer for the inside of an object whose `{` is already in `bytes`.
    private init(continuing bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Appends `"key":value` for a number.
    public mutating func field(_ key: String, _ value: Double) {
        appendKey(key)
        appendNumber(value)
    }

    /// Appends `"key":value` for a measurement: single precision, the shortest decimal that reads back
    /// as the same 32-bit float (as CBOR's single-precision float; a relative rounding of at most 2⁻²⁴,
    /// far below any MEMS sensor's noise), about half the digits of a double.
    public mutating func measurement(_ key: String, _ value: Double) {
        appendKey(key)
        appendMeasurement(value)
    }

    /// Appends `"key":value` for an integer.
    public mutating func field(_ key: String, _ value: Int) {
        appendKey(key)
        appendInteger(value)
    }

    /// Appends `"key":value` for an unsigned integer.
    public mutating func field(_ key: String, _ value: UInt64) {
        appendKey(key)
        appendInteger(value)
    }

    /// Appends `"key":true` or `"key":false`.
    public mutating func field(_ key: String, _ value: Bool) {
        appendKey(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Appends `"key":"value"`, escaping the string as JSON requires.
    public mutating func field(_ key: String, _ value: String) {
        appendKey(key)
        appendQuoted(value)
    }

    /// Appends `"key":{…}` with the fields that `body` writes.
    public mutating func object(_ key: String, _ body: (inout JSONWriter) -> Void) {
        appendKey(key)
        bytes.append(UInt8(ascii: "{"))
        writeNested(body)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `"key":{"x":…,"y":…,"z":…}`, the axes as measurements (single precision).
    public mutating func vector(_ key: String, x: Double, y: Double, z: Double) {
        // Written directly (the same text as three `measurement` calls in an `object`): sample payloads are
        // mostly vectors.
        appendKey(key)
        bytes.append(contentsOf: #"{"x":"#.utf8)
        appendMeasurement(x)
        bytes.append(contentsOf: #","y":"#.utf8)
        appendMeasurement(y)
        bytes.append(contentsOf: #","z":"#.utf8)
        appendMeasurement(z)
        bytes.append(UInt8(ascii: "}"))
    }

    /// A top-level array of objects, `[{…},{…},…]` (SenML's form): one object per element, with the
    /// fields `body` writes for it.
    public static func arrayOfObjects<Elements: Collection>(
        _ elements: Elements, _ body: (Elements.Element, inout JSONWriter) -> Void
    ) -> [UInt8] {
        var writer = JSONWriter(continuing: [])
        writer.bytes.reserveCapacity(64 * elements.count + 2)
        writer.appendObjects(elements, body)
        return writer.bytes
    }

    /// Appends `"key":[{…},{…},…]`: one object per element, with the fields `body` writes for it.
    public mutating func array<Elements: Collection>(
        _ key: String, objects elements: Elements, _ body: (Elements.Element, inout JSONWriter) -> Void
    ) {
        appendKey(key)
        appendObjects(elements, body)
    }

    /// Appends `[{…},{…},…]`: one object per element, with the fields `body` writes for it.
    private mutating func appendObjects<Elements: Collection>(
        _ elements: Elements, _ body: (Elements.Element, inout JSONWriter) -> Void
    ) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(UInt8(ascii: "{"))
            writeNested { body(element, &$0) }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends `"key":[…]`: numbers rounded by ``HalfPrecision``, each in the shortest decimal that reads
    /// back as the same `Float16` (`null` when not finite or beyond its range).
    public mutating func coarseMeasurements(_ key: String, _ values: [Double]) {
        appendKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if let half = HalfPrecision.rounded(value) { appendShortest(half) } else { bytes.append(contentsOf: "null".utf8) }
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends `"key":["…","…",…]`.
    public mutating func array(_ key: String, strings: [String]) {
        appendKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendQuoted(string)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends `"key":value` for any parsed JSON value; objects are written with their keys sorted, so
    /// that equal values always give the same bytes (see ``canonical(_:)``).
    public mutating func field(_ key: String, _ value: JSONValue) {
        appendKey(key)
        appendValue(value)
    }

    /// The canonical text of an object: keys sorted by their UTF-8 bytes at every level, no white space,
    /// numbers in shortest round-trip form. Equal objects give equal bytes, so a hash of them identifies
    /// the content.
    public static func canonical(_ object: [String: JSONValue]) -> [UInt8] {
        var writer = JSONWriter()
        for key in object.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            writer.field(key, object[key]!)
        }
        return writer.finishedBytes()
    }

    /// The canonical text of any value (objects as ``canonical(_:)`` writes them).
    public static func canonical(value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(continuing: [])
        writer.appendValue(value)
        return writer.bytes
    }

    private mutating func appendValue(_ value: JSONValue) {
        switch value {
        case .object(let members):
            bytes.append(contentsOf: Self.canonical(members))
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendValue(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .string(let text): appendQuoted(text)
        case .integer(let integer): appendInteger(integer)
        case .real(let real): appendNumber(real)
        case .bool(let flag): bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        }
    }

    /// The finished object as UTF-8 bytes (the writer's buffer, closed in place): an MQTT payload.
    public consuming func finishedBytes() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The finished object's text.
    public consuming func finished() -> String {
        String(decoding: finishedBytes(), as: UTF8.self)
    }

    /// Runs `body` on a writer that continues in this writer's buffer: the buffer is swapped, never
    /// copied, so it stays uniquely referenced and appends stay in place.
    private mutating func writeNested(_ body: (inout JSONWriter) -> Void) {
        var nested = JSONWriter(continuing: [])
        swap(&bytes, &nested.bytes)
        body(&nested)
        swap(&bytes, &nested.bytes)
    }

    private mutating func appendKey(_ key: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A finite number in Swift's shortest round-trip form, otherwise `null`.
    private mutating func appendNumber(_ value: Double) {
        guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        appendShortest(value)
    }

    /// A measurement: `null` when not finite (also beyond the float range), else ``measurement(_:_:)``'s form.
    private mutating func appendMeasurement(_ value: Double) {
        let single = Float(value)
        guard single.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        appendShortest(single)
    }

    /// The shortest round-trip decimal of `value`: the standard library formats into a stack buffer and
    /// hands the digits to the stream.
    private mutating func appendShortest<Number: BinaryFloatingPoint & TextOutputStreamable>(_ value: Number) {
        var stream = ByteStream(bytes: [])
        swap(&bytes, &stream.bytes)
        value.write(to: &stream)
        swap(&bytes, &stream.bytes)
    }

    /// An integer in decimal, written digit by digit (no intermediate `String`).
    private mutating func appendInteger<Integer: BinaryInteger>(_ value: Integer) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of UInt64.max
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
                buffer[buffer.count - 1 - count] = UInt8(ascii: "0") + UInt8(remainder)
                count += 1
                magnitude = quotient
            } while magnitude != 0
            bytes.append(contentsOf: buffer[(buffer.count - count)...])
        }
    }

    /// `"string"`, escaped as JSON requires.
    private mutating func appendQuoted(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = string.utf8
        let appendedWhole: Bool? = utf8.withContiguousStorageIfAvailable { text in
            // Keys and most values need no escaping: appended whole (this runs for every field of every
            // message).
            guard text.allSatisfy(Self.needsNoEscaping) else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        if appendedWhole != true {
            if appendedWhole == nil {  // a bridged string: make it native, then escape byte by byte
                var native = string
                native.makeContiguousUTF8()
                utf8 = native.utf8
            }
            for byte in utf8 { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// One byte of a string's UTF-8, escaped if JSON requires (bytes of multi-byte characters are ≥ 0x80
    /// and pass through unchanged).
    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
        case ..<0x20:
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0f)])
        default:
            bytes.append(byte)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether a UTF-8 byte can be written between quotes as it is.
    private static func needsNoEscaping(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// The target of `Double.write(to:)`: receives the formatted digits as bytes.
    private struct ByteStream: TextOutputStream {
        var bytes: [UInt8]

        mutating func write(_ string: String) {
            bytes.append(contentsOf: string.utf8)
        }

        /// What the standard library's number formatting calls: ASCII digits from its stack buffer.
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: buffer)
        }
    }
}
