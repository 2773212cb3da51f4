import CCBOR

/// Builds one CBOR (RFC 8949) map by appending fields, with libcbor's encoding functions writing straight
/// into one buffer: the binary form of the data topics (``PayloadFormat/cbor``).
///
/// Maps and arrays have definite lengths (a map's header is patched when it is finished); keys are text
/// strings; a ``measurement(_:_:)`` is a single-precision float, any other number a double-precision one;
/// a NaN or infinite value is written as `null`, as ``JSONWriter`` does.
public struct CBORWriter: PayloadWriter, Sendable {
    private var bytes: [UInt8]
    /// Where this writer's map header is in ``bytes``, and how many entries the map has so far.
    private var header: Int
    private var entries = 0

    /// Starts an empty map.
    public init() {
        bytes = []
        bytes.reserveCapacity(384)  // a device-motion sample is about 290 bytes: no regrowth
        header = 0
        bytes.append(Self.emptyMap)
    }

    /// A writer over `buffer` with no map started (for ``writeNested(_:)``, which starts one).
    private init(buffer: [UInt8]) {
        bytes = buffer
        header = 0
    }

    /// The header of a map of no entries: major type 5, length 0.
    private static let emptyMap: UInt8 = 0xA0

    /// `key`: a double-precision float.
    public mutating func field(_ key: String, _ value: Double) {
        appendKey(key)
        guard value.isFinite else { return appendEncoded { cbor_encode_null($0, $1) } }
        appendEncoded { cbor_encode_double(value, $0, $1) }
    }

    /// `key`: a single-precision float.
    public mutating func measurement(_ key: String, _ value: Double) {
        appendKey(key)
        guard value.isFinite else { return appendEncoded { cbor_encode_null($0, $1) } }
        appendEncoded { cbor_encode_single(Float(value), $0, $1) }
    }

    /// `key`: an unsigned integer, in the fewest bytes.
    public mutating func field(_ key: String, _ value: UInt64) {
        appendKey(key)
        appendEncoded { cbor_encode_uint(value, $0, $1) }
    }

    /// `key`: a text string.
    public mutating func field(_ key: String, _ value: String) {
        appendKey(key)
        appendText(value)
    }

    /// `key`: `true` or `false` (simple values 21, 20).
    public mutating func field(_ key: String, _ value: Bool) {
        appendKey(key)
        appendEncoded { cbor_encode_bool(value, $0, $1) }
    }

    /// `key`: `{"x","y","z"}` of single-precision floats.
    public mutating func vector(_ key: String, x: Double, y: Double, z: Double) {
        object(key) { axes in
            axes.measurement("x", x)
            axes.measurement("y", y)
            axes.measurement("z", z)
        }
    }

    /// `key`: a map with the entries `body` writes.
    public mutating func object(_ key: String, _ body: (inout CBORWriter) -> Void) {
        appendKey(key)
        writeNested(body)
    }

    /// `key`: an array of maps, one per element, with the entries `body` writes for it.
    public mutating func array<Elements: Collection>(
        _ key: String, objects elements: Elements, _ body: (Elements.Element, inout CBORWriter) -> Void
    ) {
        appendKey(key)
        appendEncoded { cbor_encode_array_start(elements.count, $0, $1) }
        for element in elements { writeNested { body(element, &$0) } }
    }

    /// `key`: an array of half-precision floats (each rounded by ``HalfPrecision``, so that libcbor's
    /// conversion from single precision is exact).
    public mutating func coarseMeasurements(_ key: String, _ values: [Double]) {
        appendKey(key)
        appendEncoded { cbor_encode_array_start(values.count, $0, $1) }
        for value in values {
            if let half = HalfPrecision.rounded(value) {
                appendEncoded { cbor_encode_half(Float(half), $0, $1) }
            } else {
                appendEncoded { cbor_encode_null($0, $1) }
            }
        }
    }

    /// The finished map's bytes: an MQTT payload.
    public consuming func finishedBytes() -> [UInt8] {
        closeHeader()
        return bytes
    }

    /// Runs `body` on a writer for a map that continues in this writer's buffer (swapped, never copied).
    private mutating func writeNested(_ body: (inout CBORWriter) -> Void) {
        var nested = CBORWriter(buffer: [])
        swap(&bytes, &nested.bytes)
        nested.header = nested.bytes.count
        nested.bytes.append(Self.emptyMap)
        body(&nested)
        nested.closeHeader()
        swap(&bytes, &nested.bytes)
    }

    /// Writes the map's entry count into its header: in the header byte itself below 24 entries,
    /// otherwise as the longer header libcbor encodes.
    private mutating func closeHeader() {
        if entries < 24 {
            bytes[header] = Self.emptyMap | UInt8(entries)
        } else {
            var longer = CBORWriter(buffer: [])
            let count = entries
            longer.appendEncoded { cbor_encode_map_start(count, $0, $1) }
            bytes.replaceSubrange(header...header, with: longer.bytes)
        }
    }

    private mutating func appendKey(_ key: String) {
        entries += 1
        appendText(key)
    }

    private mutating func appendText(_ text: String) {
        bytes.appendCBORText(text)
    }

    private mutating func appendEncoded(_ encode: (UnsafeMutablePointer<UInt8>, Int) -> Int) {
        bytes.appendCBOR(encode)
    }
}

extension [UInt8] {
    /// Appends what a libcbor encoding function writes into a scratch buffer (every CBOR head and number
    /// fits 9 bytes): how ``CBORWriter`` and ``SenMLPack`` write straight into one buffer.
    mutating func appendCBOR(_ encode: (UnsafeMutablePointer<UInt8>, Int) -> Int) {
        var scratch: (UInt64, UInt64) = (0, 0)
        Swift.withUnsafeMutableBytes(of: &scratch) { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let count = encode(base, raw.count)
            precondition(count > 0, "a CBOR head is at most 9 bytes")
            append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Appends a definite-length text string (major type 3).
    mutating func appendCBORText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            appendCBOR { cbor_encode_string_start(utf8.count, $0, $1) }
            append(contentsOf: utf8)
        }
    }
}
