import CJansson

/// A JSON document parsed strictly by Jansson: RFC 8259 only (no trailing commas, comments or
/// non-UTF-8 bytes), no key twice in one object, no NUL characters in strings, at most 2,048 levels of
/// nesting, integers that fit 64 bits and reals that fit a Double.
///
/// Used for every JSON read from outside: the agent's configuration file and control commands, and every
/// payload a subscriber decodes. Values are immutable and `Sendable`; parsing is thread-safe.
public enum JSONValue: Sendable, Equatable {
    /// An object: its members by key.
    case object([String: JSONValue])
    /// An array, in order.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// A number written without fraction or exponent that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case real(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Why a document is not strict JSON: what and where.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Jansson's reason, e.g. `duplicate object key`.
        public let reason: String
        /// 1-based line and column of the problem (0 when Jansson could not tell).
        public let line: Int
        /// 1-based column of the problem (0 when Jansson could not tell).
        public let column: Int

        public var description: String { line > 0 ? "line \(line), column \(column): \(reason)" : reason }
    }

    /// Parses `bytes` as one JSON document (any value at the top; white space around it is allowed).
    /// - Throws: ``SyntaxError``.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var error = json_error_t()
        let root = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    json_loadb($0, buffer.count, Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY), &error)
                }
            } ?? nil
        }
        guard let root else {
            if bytes.isEmpty { throw SyntaxError(reason: "the document is empty", line: 0, column: 0) }
            let reason = withUnsafeBytes(of: &error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw SyntaxError(reason: reason, line: Int(error.line), column: Int(error.column))
        }
        defer { json_decref(root) }
        return JSONValue(root)
    }

    /// Converts Jansson's tree (which stays owned by the caller).
    private init(_ json: UnsafeMutablePointer<json_t>) {
        switch motion_json_type(json) {
        case JSON_OBJECT:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(json_object_size(json))
            var iterator = json_object_iter(json)
            while let current = iterator {
                let length = json_object_iter_key_len(current)
                let key = json_object_iter_key(current).map {
                    $0.withMemoryRebound(to: UInt8.self, capacity: length) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                    }
                } ?? ""
                if let value = json_object_iter_value(current) { members[key] = JSONValue(value) }
                iterator = json_object_iter_next(json, current)
            }
            self = .object(members)
        case JSON_ARRAY:
            self = .array((0..<json_array_size(json)).compactMap { json_array_get(json, $0).map(JSONValue.init) })
        case JSON_STRING:
            let length = json_string_length(json)
            self = .string(json_string_value(json).map {
                $0.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
            } ?? "")
        case JSON_INTEGER:
            self = .integer(Int64(json_integer_value(json)))
        case JSON_REAL:
            self = .real(json_real_value(json))
        case JSON_TRUE:
            self = .bool(true)
        case JSON_FALSE:
            self = .bool(false)
        default:
            self = .null
        }
    }

    /// The value as a number (an integer or a real), or `nil`.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }
}
