import MotionMath

/// Reads typed fields out of a parsed JSON object, naming the field path in every error and rejecting
/// fields it was not asked about (a misspelt key is an error, not a silently ignored default).
///
/// Documents are parsed strictly (``JSONValue``): a trailing comma, a key given twice or a comment is an
/// error that names the line and column, not a value that silently wins.
struct JSONObjectReader {
    /// The dotted path of this object inside the document ("" for the root).
    let path: String
    private let object: [String: JSONValue]

    /// Parses `bytes` as a JSON object.
    /// - Throws: ``ConfigurationError`` for `path`: not strict JSON (with line and column), or not an object.
    init(bytes: [UInt8], path: String = "") throws(ConfigurationError) {
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(bytes)
        } catch {
            throw ConfigurationError(fieldPath: path, reason: "not valid JSON (\(error))")
        }
        guard case .object(let object) = parsed else {
            throw ConfigurationError(fieldPath: path, reason: "must be a JSON object")
        }
        self.init(object: object, path: path)
    }

    private init(object: [String: JSONValue], path: String) {
        self.object = object
        self.path = path
    }

    /// The path of a field of this object.
    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Throws when the object has a key outside `known`.
    func rejectUnknownKeys(_ known: Set<String>) throws(ConfigurationError) {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigurationError(
                fieldPath: fieldPath(unknown),
                reason: "unknown field (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    /// The field's value unless it is absent or `null`.
    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    /// A string field, or `nil` when absent.
    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be a string")
        }
        return text
    }

    /// A boolean field, or `nil` when absent.
    func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be true or false")
        }
        return flag
    }

    /// A finite number field, or `nil` when absent.
    func number(_ key: String) throws(ConfigurationError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.number, number.isFinite else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be a number")
        }
        return number
    }

    /// An integer field, or `nil` when absent.
    func integer(_ key: String) throws(ConfigurationError) -> Int? {
        guard let value = try number(key) else { return nil }
        guard value.rounded() == value, abs(value) < 1e15 else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be a whole number")
        }
        return Int(value)
    }

    /// A nested object field, or `nil` when absent.
    func object(_ key: String) throws(ConfigurationError) -> JSONObjectReader? {
        guard let value = value(key) else { return nil }
        guard case .object(let nested) = value else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be a JSON object")
        }
        return JSONObjectReader(object: nested, path: fieldPath(key))
    }
}
