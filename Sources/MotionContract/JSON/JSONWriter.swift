import MotionMath

/// Builds one compact JSON object by appending fields, for payloads published many times a second.
///
/// The text is written as UTF-8 bytes into one buffer (``JSONOutputBuffer``) that becomes the MQTT payload
/// as it is, so a payload costs one allocation and no `String` bookkeeping, and a field reserves its room
/// once and is written through a pointer. Numbers are written in Swift's shortest round-trip
/// form; a NaN or infinite value is written as `null`, since JSON has no such numbers.
public struct JSONWriter: PayloadWriter, Sendable {
    private var output: JSONOutputBuffer
    private var needsComma = false

    /// Starts an empty object.
    public init() {
        output = JSONOutputBuffer(capacity: 768)  // a device-motion sample is about 560 bytes: no regrowth
        output.append(UInt8(ascii: "{"))
    }

    /// A writer that continues in `output` (the inside of an object whose `{` is written, or a bare value).
    private init(continuing output: JSONOutputBuffer) {
        self.output = output
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
        appendInteger(magnitude: UInt64(value.magnitude), negative: value < 0)
    }

    /// Appends `"key":value` for an unsigned integer.
    public mutating func field(_ key: String, _ value: UInt64) {
        appendKey(key)
        appendInteger(magnitude: value, negative: false)
    }

    /// Appends `"key":true` or `"key":false`.
    public mutating func field(_ key: String, _ value: Bool) {
        appendKey(key)
        output.append(value ? "true" : "false")
    }

    /// Appends `"key":"value"`, escaping the string as JSON requires.
    public mutating func field(_ key: String, _ value: String) {
        appendKey(key)
        appendQuoted(value)
    }

    /// Appends `"key":{…}` with the fields that `body` writes.
    public mutating func object(_ key: String, _ body: (inout JSONWriter) -> Void) {
        appendKey(key)
        output.append(UInt8(ascii: "{"))
        writeNested(body)
        output.append(UInt8(ascii: "}"))
    }

    /// Appends `"key":{"x":…,"y":…,"z":…}`, the axes as measurements (single precision).
    public mutating func vector(_ key: String, x: Double, y: Double, z: Double) {
        // One reservation for the three axes (the same text as three `measurement` calls in an `object`):
        // sample payloads are mostly vectors.
        appendKey(key)
        output.write(atMost: 15 + 3 * Self.longestNumber) { start in
            var end = start + JSONOutputBuffer.copy(#"{"x":"#, to: start)
            end += Self.writeMeasurement(x, to: end)
            end += JSONOutputBuffer.copy(#","y":"#, to: end)
            end += Self.writeMeasurement(y, to: end)
            end += JSONOutputBuffer.copy(#","z":"#, to: end)
            end += Self.writeMeasurement(z, to: end)
            end.pointee = UInt8(ascii: "}")
            return end + 1 - start
        }
    }

    /// A top-level array of objects, `[{…},{…},…]` (SenML's form): one object per element, with the
    /// fields `body` writes for it.
    public static func arrayOfObjects<Elements: Collection>(
        _ elements: Elements, _ body: (Elements.Element, inout JSONWriter) -> Void
    ) -> [UInt8] {
        var writer = JSONWriter(continuing: JSONOutputBuffer(capacity: 64 * elements.count + 2))
        writer.appendObjects(elements, body)
        return writer.output.finished()
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
        output.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            output.append(first ? "{" : ",{")
            first = false
            writeNested { body(element, &$0) }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Appends `"key":[…]`: numbers rounded by ``HalfPrecision``, each in the shortest decimal that reads
    /// back as the same `Float16` (`null` when not finite or beyond its range).
    public mutating func coarseMeasurements(_ key: String, _ values: [Double]) {
        appendKey(key)
        output.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            output.write(atMost: 1 + Self.longestNumber) { start in
                var end = start
                if index > 0 {
                    end.pointee = UInt8(ascii: ",")
                    end += 1
                }
                if let half = HalfPrecision.rounded(value) {
                    end += Self.writeShortest(half, to: end)
                } else {
                    end += JSONOutputBuffer.copy("null", to: end)
                }
                return end - start
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Appends `"key":["…","…",…]`.
    public mutating func array(_ key: String, strings: [String]) {
        appendKey(key)
        output.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendQuoted(string)
        }
        output.append(UInt8(ascii: "]"))
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
        writer.appendMembers(object)
        return writer.finishedBytes()
    }

    /// The canonical text of any value (objects as ``canonical(_:)`` writes them).
    public static func canonical(value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(continuing: JSONOutputBuffer(capacity: 256))
        writer.appendValue(value)
        return writer.output.finished()
    }

    /// The members of an object in canonical order, in this writer's object.
    private mutating func appendMembers(_ object: [String: JSONValue]) {
        for key in object.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            field(key, object[key]!)
        }
    }

    private mutating func appendValue(_ value: JSONValue) {
        switch value {
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            writeNested { $0.appendMembers(members) }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendValue(element)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let text): appendQuoted(text)
        case .integer(let integer): appendInteger(magnitude: UInt64(integer.magnitude), negative: integer < 0)
        case .real(let real): appendNumber(real)
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .null: output.append("null")
        }
    }

    /// The finished object as UTF-8 bytes (the writer's buffer, closed in place): an MQTT payload.
    public consuming func finishedBytes() -> [UInt8] {
        output.append(UInt8(ascii: "}"))
        return output.finished()
    }

    /// The finished object's text.
    public consuming func finished() -> String {
        String(decoding: finishedBytes(), as: UTF8.self)
    }

    /// Runs `body` on a writer that continues in this writer's buffer: the buffer is swapped, never
    /// copied, so it stays uniquely referenced and writes stay in place.
    private mutating func writeNested(_ body: (inout JSONWriter) -> Void) {
        var nested = JSONWriter(continuing: JSONOutputBuffer.empty)
        swap(&output, &nested.output)
        body(&nested)
        swap(&output, &nested.output)
    }

    /// `"key":`, after a comma unless it is the object's first member.
    private mutating func appendKey(_ key: String) {
        appendQuoted(key, comma: needsComma, colon: true)
        needsComma = true
    }

    /// A finite number in Swift's shortest round-trip form, otherwise `null`.
    private mutating func appendNumber(_ value: Double) {
        output.write(atMost: Self.longestNumber) { start in
            value.isFinite ? Self.writeShortest(value, to: start) : JSONOutputBuffer.copy("null", to: start)
        }
    }

    /// A measurement: ``measurement(_:_:)``'s form.
    private mutating func appendMeasurement(_ value: Double) {
        output.write(atMost: Self.longestNumber) { Self.writeMeasurement(value, to: $0) }
    }

    /// The longest text of a number this writer writes: 24 bytes for a `Double`
    /// (`-2.2250738585072014e-308`), 21 for an integer, with room to spare.
    private static let longestNumber = 32

    /// A measurement at `destination`: `null` when not finite (also beyond the float range), else the
    /// shortest decimal of its single-precision value. Returns the bytes written.
    private static func writeMeasurement(_ value: Double, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let single = Float(value)
        guard single.isFinite else { return JSONOutputBuffer.copy("null", to: destination) }
        return writeShortest(single, to: destination)
    }

    /// The shortest round-trip decimal of `value` at `destination`: the standard library formats into a
    /// stack buffer and hands the digits over. Returns the bytes written (at most ``longestNumber``).
    private static func writeShortest<Number: BinaryFloatingPoint & TextOutputStreamable>(
        _ value: Number, to destination: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var stream = PointerStream(start: destination)
        value.write(to: &stream)
        return stream.count
    }

    /// An integer in decimal, written digit by digit (no intermediate `String`).
    private mutating func appendInteger(magnitude: UInt64, negative: Bool) {
        output.write(atMost: Self.longestNumber) { start in
            var end = start
            if negative {
                end.pointee = UInt8(ascii: "-")
                end += 1
            }
            // The digits from the last, then turned around in place.
            let first = end
            var rest = magnitude
            repeat {
                let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
                end.pointee = UInt8(ascii: "0") + UInt8(remainder)
                end += 1
                rest = quotient
            } while rest != 0
            var digits = UnsafeMutableBufferPointer(start: first, count: end - first)
            digits.reverse()
            return end - start
        }
    }

    /// `"string"`, escaped as JSON requires, after a comma when `comma` and before a colon when `colon`.
    /// A string that needs no escaping (all of the contract's keys, most values) is written in one piece.
    private mutating func appendQuoted(_ string: String, comma: Bool = false, colon: Bool = false) {
        var string = string
        string.withUTF8 { text in
            if text.allSatisfy(Self.needsNoEscaping) {
                output.write(atMost: text.count + 4) { start in
                    var end = start
                    if comma {
                        end.pointee = UInt8(ascii: ",")
                        end += 1
                    }
                    end.pointee = UInt8(ascii: "\"")
                    end += 1
                    end += JSONOutputBuffer.copy(text, to: end)
                    end.pointee = UInt8(ascii: "\"")
                    end += 1
                    if colon {
                        end.pointee = UInt8(ascii: ":")
                        end += 1
                    }
                    return end - start
                }
            } else {
                if comma { output.append(UInt8(ascii: ",")) }
                output.append(UInt8(ascii: "\""))
                for byte in text { appendEscaped(byte) }
                output.append(UInt8(ascii: "\""))
                if colon { output.append(UInt8(ascii: ":")) }
            }
        }
    }

    /// One byte of a string's UTF-8, escaped if JSON requires (bytes of multi-byte characters are ≥ 0x80
    /// and pass through unchanged).
    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): output.append(#"\""#)
        case UInt8(ascii: "\\"): output.append(#"\\"#)
        case UInt8(ascii: "\n"): output.append(#"\n"#)
        case UInt8(ascii: "\r"): output.append(#"\r"#)
        case UInt8(ascii: "\t"): output.append(#"\t"#)
        case ..<0x20:
            output.write(atMost: 6) { start in
                let end = start + JSONOutputBuffer.copy(#"\u00"#, to: start)
                end.pointee = Self.hexDigit(byte >> 4)
                (end + 1).pointee = Self.hexDigit(byte & 0x0f)
                return end + 2 - start
            }
        default:
            output.append(byte)
        }
    }

    /// The lower-case hexadecimal digit of `value` (0…15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Whether a UTF-8 byte can be written between quotes as it is.
    private static func needsNoEscaping(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// The target of `write(to:)` of a floating-point number: receives the formatted digits at a pointer
    /// with room for ``JSONWriter/longestNumber`` bytes.
    private struct PointerStream: TextOutputStream {
        let start: UnsafeMutablePointer<UInt8>
        var count = 0

        init(start: UnsafeMutablePointer<UInt8>) {
            self.start = start
        }

        mutating func write(_ string: String) {
            var string = string
            string.withUTF8 { _writeASCII($0) }
        }

        /// What the standard library's number formatting calls: ASCII digits from its stack buffer.
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            precondition(count + buffer.count <= JSONWriter.longestNumber, "JSONWriter: a number longer than \(JSONWriter.longestNumber) bytes")
            count += JSONOutputBuffer.copy(buffer, to: start + count)
        }
    }
}
