import CCBOR

extension JSONValue {
    /// The most levels of nesting a CBOR payload may have (a batch of device motion has four).
    public static let maximumCBORDepth = 64

    /// Parses `bytes` as one CBOR (RFC 8949) data item into the JSON data model, as strictly as
    /// ``parse(_:)`` reads JSON: maps with text keys (no key twice), arrays, text strings (valid UTF-8,
    /// no NUL), integers that fit 64 bits, finite floats of any width, `true`, `false`, `null`; nothing
    /// after the item. Byte strings, tags, `undefined` and indefinite lengths are refused (the contract
    /// uses none), as is a declared length longer than the bytes that remain.
    ///
    /// libcbor's streaming decoder reads one head at a time, so no allocation follows a length that the
    /// payload does not back.
    /// - Throws: ``SyntaxError`` saying what is wrong and at which byte offset.
    public static func parse(cbor bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        // A Result, not a typed throw through the closure: Swift 6.0's withUnsafeBufferPointer rethrows
        // untyped errors.
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, SyntaxError> in
            var reader = CBORItemReader(buffer: buffer)
            do throws(SyntaxError) {
                let value = try reader.item(depth: 0)
                guard reader.offset == buffer.count else { throw reader.failure("bytes after the end of the item") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    /// Parses a data payload in either format (``PayloadFormat/of(_:)`` tells which).
    /// - Throws: ``SyntaxError``.
    public static func parse(payload bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        switch PayloadFormat.of(bytes).nativeForm {
        case .cbor: try parse(cbor: bytes)
        default: try parse(bytes)
        }
    }
}

/// One head read by libcbor's streaming decoder (what its callbacks report).
private enum CBORHead {
    case unsigned(UInt64)
    /// A negative integer `-1 - n`.
    case negative(UInt64)
    case text(String?)
    case number(Double)
    case bool(Bool)
    case null
    case array(Int)
    case map(Int)
    /// Something the contract does not use, named for the error.
    case unsupported(String)
}

/// Walks a buffer item by item with `cbor_stream_decode`.
private struct CBORItemReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    func failure(_ reason: String) -> JSONValue.SyntaxError {
        JSONValue.SyntaxError(reason: "CBOR, byte \(offset): \(reason)", line: 0, column: 0)
    }

    mutating func item(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        switch try head() {
        case .unsigned(let value):
            return value <= UInt64(Int64.max) ? .integer(Int64(value)) : .real(Double(value))
        case .negative(let value):
            return value <= UInt64(Int64.max) ? .integer(-1 - Int64(value)) : .real(-1 - Double(value))
        case .text(let text):
            guard let text else { throw failure("a text string that is not UTF-8 or holds NUL") }
            return .string(text)
        case .number(let value):
            guard value.isFinite else { throw failure("a number that is not finite") }
            return .real(value)
        case .bool(let flag):
            return .bool(flag)
        case .null:
            return .null
        case .array(let count):
            try checkNesting(depth, count: count, bytesEach: 1)
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case .map(let count):
            try checkNesting(depth, count: count, bytesEach: 2)
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(count)
            for _ in 0..<count {
                guard case .text(let key) = try head(), let key else { throw failure("a map key that is not a text string") }
                guard members[key] == nil else { throw failure("duplicate map key \"\(ContractText.sanitized(key, limit: 40))\"") }
                members[key] = try item(depth: depth + 1)
            }
            return .object(members)
        case .unsupported(let what):
            throw failure("\(what) (not used by the contract)")
        }
    }

    /// Refuses nesting beyond the limit, and more entries than the bytes left could hold (each item takes
    /// one byte at least: `bytesEach` 1 for an array's elements, 2 for a map's key and value).
    private func checkNesting(_ depth: Int, count: Int, bytesEach: Int) throws(JSONValue.SyntaxError) {
        guard depth < JSONValue.maximumCBORDepth else { throw failure("nested deeper than \(JSONValue.maximumCBORDepth) levels") }
        guard count >= 0, count <= (buffer.count - offset) / bytesEach else {
            throw failure("a length of \(count) entries in \(buffer.count - offset) bytes")
        }
    }

    /// The next head, with the offset moved past it (and past a definite string's bytes).
    private mutating func head() throws(JSONValue.SyntaxError) -> CBORHead {
        guard offset < buffer.count else { throw failure("the payload ends inside an item") }
        var head = CBORHead.unsupported("nothing")
        let result = withUnsafeMutablePointer(to: &head) { pointer in
            withUnsafePointer(to: Self.callbacks) { callbacks in
                cbor_stream_decode(buffer.baseAddress! + offset, buffer.count - offset, callbacks, pointer)
            }
        }
        switch result.status {
        case CBOR_DECODER_FINISHED:
            offset += result.read
            return head
        case CBOR_DECODER_NEDATA:
            throw failure("the payload ends inside an item")
        default:
            throw failure("malformed item")
        }
    }

    /// What each callback of the decoder records (the context is the `CBORHead` to fill).
    static let callbacks: cbor_callbacks = {
        var callbacks = cbor_empty_callbacks
        callbacks.uint8 = { context, value in record(context, .unsigned(UInt64(value))) }
        callbacks.uint16 = { context, value in record(context, .unsigned(UInt64(value))) }
        callbacks.uint32 = { context, value in record(context, .unsigned(UInt64(value))) }
        callbacks.uint64 = { context, value in record(context, .unsigned(value)) }
        callbacks.negint8 = { context, value in record(context, .negative(UInt64(value))) }
        callbacks.negint16 = { context, value in record(context, .negative(UInt64(value))) }
        callbacks.negint32 = { context, value in record(context, .negative(UInt64(value))) }
        callbacks.negint64 = { context, value in record(context, .negative(value)) }
        // Lengths are size_t in libcbor 0.8 (Debian 12) and uint64_t in 0.10 (Debian 13): Int(clamping:)
        // takes either (a length beyond Int is beyond the bytes anyway, and refused by the reader).
        callbacks.string = { context, data, length in
            let utf8 = UnsafeBufferPointer(start: data, count: Int(clamping: length))
            let text = utf8.contains(0) ? nil : String(validating: utf8, as: UTF8.self)
            record(context, .text(text))
        }
        callbacks.float2 = { context, value in record(context, .number(Double(value))) }
        callbacks.float4 = { context, value in record(context, .number(Double(value))) }
        callbacks.float8 = { context, value in record(context, .number(value)) }
        callbacks.boolean = { context, value in record(context, .bool(value)) }
        callbacks.null = { context in record(context, .null) }
        callbacks.array_start = { context, count in record(context, .array(Int(clamping: count))) }
        callbacks.map_start = { context, count in record(context, .map(Int(clamping: count))) }
        callbacks.byte_string = { context, _, _ in record(context, .unsupported("a byte string")) }
        callbacks.byte_string_start = { context in record(context, .unsupported("an indefinite byte string")) }
        callbacks.string_start = { context in record(context, .unsupported("an indefinite text string")) }
        callbacks.indef_array_start = { context in record(context, .unsupported("an indefinite-length array")) }
        callbacks.indef_map_start = { context in record(context, .unsupported("an indefinite-length map")) }
        callbacks.indef_break = { context in record(context, .unsupported("a break outside an indefinite item")) }
        callbacks.tag = { context, _ in record(context, .unsupported("a tag")) }
        callbacks.undefined = { context in record(context, .unsupported("undefined")) }
        return callbacks
    }()

    private static func record(_ context: UnsafeMutableRawPointer?, _ head: CBORHead) {
        context!.assumingMemoryBound(to: CBORHead.self).pointee = head
    }
}
