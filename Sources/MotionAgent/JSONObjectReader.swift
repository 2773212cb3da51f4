import Foundation

/// Reads typed fields out of a parsed JSON object, naming the field path in every error and rejecting
/// fields it was not asked about (a misspelt key is an error, not a silently ignored default).
struct JSONObjectReader {
    /// The dotted path of this object inside the document ("" for the root).
    let path: String
    private let object: [String: Any]

    /// Parses `data` as a JSON object.
    init(data: Data, path: String = "") throws(ConfigurationError) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw ConfigurationError(fieldPath: path, reason: "not valid JSON (\(Self.describe(error)))")
        }
        guard let object = parsed as? [String: Any] else {
            throw ConfigurationError(fieldPath: path, reason: "must be a JSON object")
        }
        self.init(object: object, path: path)
    }

    private init(object: [String: Any], path: String) {
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

    /// A string field, or `nil` when absent.
    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let text = value as? String else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be a string")
        }
        return text
    }

    /// A boolean field, or `nil` when absent.
    func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let number = value as? NSNumber, Self.isBoolean(number) else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be true or false")
        }
        return number.boolValue
    }

    /// A finite number field, or `nil` when absent.
    func number(_ key: String) throws(ConfigurationError) -> Double? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let number = value as? NSNumber, !Self.isBoolean(number), number.doubleValue.isFinite else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be a number")
        }
        return number.doubleValue
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
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let nested = value as? [String: Any] else {
            throw ConfigurationError(fieldPath: fieldPath(key), reason: "must be a JSON object")
        }
        return JSONObjectReader(object: nested, path: fieldPath(key))
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        // swift-corelibs-foundation gives JSON booleans the objCType "c" (char), as Darwin does.
        String(cString: number.objCType) == "c"
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }
}
