/// An error that names the field of a JSON document it is about: what ``JSONObjectReader`` throws. The
/// agent's configuration errors and the contract's ``PayloadError`` are such errors.
public protocol JSONFieldFailure: Error {
    /// Creates the error.
    /// - Parameters:
    ///   - fieldPath: the dotted path of the field, e.g. `services.gyro.rate_hz` ("" for the document).
    ///   - reason: what is wrong with it.
    init(fieldPath: String, reason: String)
}

/// Reads typed fields out of a parsed JSON object, naming the field path in every error and rejecting
/// fields it was not asked about (a misspelt key is an error, not a silently ignored default).
///
/// Documents are parsed strictly (``JSONValue``): a trailing comma, a key given twice or a comment is an
/// error that names the line and column, not a value that silently wins. A `null` member reads as absent.
public struct JSONObjectReader<Failure: JSONFieldFailure>: Sendable {
    /// The dotted path of this object inside the document ("" for the root).
    public let path: String
    private let object: [String: JSONValue]

    /// Parses `bytes`, which must hold one JSON object.
    /// - Parameters:
    ///   - bytes: the document, UTF-8.
    ///   - path: the object's path in errors ("" for a whole document).
    /// - Throws: `Failure` when the document is not JSON or not an object.
    public init(bytes: [UInt8], path: String = "") throws(Failure) {
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(bytes)
        } catch {
            throw Failure(fieldPath: path, reason: "not valid JSON (\(error))")
        }
        guard case .object(let object) = parsed else {
            throw Failure(fieldPath: path, reason: "must be a JSON object")
        }
        self.init(object: object, path: path)
    }

    /// Parses a data payload, JSON or CBOR (``PayloadFormat/of(_:)`` tells which), which must hold one
    /// object (a map).
    /// - Throws: `Failure` when the payload is neither or not an object.
    public init(payload bytes: [UInt8]) throws(Failure) {
        let format = PayloadFormat.of(bytes)
        guard !format.isSenML else {
            throw Failure(
                fieldPath: "",
                reason: "a SenML pack (\(format.rawValue)), not the contract's own form: read it with a SenML decoder, or set the topic's format to json or cbor")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(payload: bytes)
        } catch {
            throw Failure(fieldPath: "", reason: "not valid \(PayloadFormat.of(bytes) == .cbor ? "CBOR" : "JSON") (\(error))")
        }
        guard case .object(let object) = parsed else { throw Failure(fieldPath: "", reason: "must be an object") }
        self.init(object: object, path: "")
    }

    /// Reads an object already parsed.
    /// - Parameters:
    ///   - object: its members.
    ///   - path: its path in errors.
    public init(object: [String: JSONValue], path: String) {
        self.object = object
        self.path = path
    }

    /// The dotted path of member `key`.
    public func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Refuses a member not in `known`.
    /// - Throws: `Failure` naming the first unknown member (in sorted order) and the known ones.
    public func rejectUnknownKeys(_ known: Set<String>) throws(Failure) {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Failure(
                fieldPath: fieldPath(unknown),
                reason: "unknown field (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    /// Every member as parsed, `null` ones included.
    public var members: [String: JSONValue] { object }

    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    /// Member `key` as a string; nil when absent.
    /// - Throws: `Failure` when it is another kind of value.
    public func string(_ key: String) throws(Failure) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw Failure(fieldPath: fieldPath(key), reason: "must be a string") }
        return text
    }

    /// Member `key` as `true` or `false`; nil when absent.
    /// - Throws: `Failure` when it is another kind of value.
    public func bool(_ key: String) throws(Failure) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw Failure(fieldPath: fieldPath(key), reason: "must be true or false") }
        return flag
    }

    /// Member `key` as a finite number; nil when absent.
    /// - Throws: `Failure` when it is not a number.
    public func number(_ key: String) throws(Failure) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.number, number.isFinite else {
            throw Failure(fieldPath: fieldPath(key), reason: "must be a number")
        }
        return number
    }

    /// Member `key` as a measurement: a number within single precision's range (±3.4 × 10³⁸), the form in
    /// which the contract writes measurements; nil when absent.
    /// - Throws: `Failure` when it is not a number or lies beyond that range (it could not be written back).
    public func measurement(_ key: String) throws(Failure) -> Double? {
        guard let value = try number(key) else { return nil }
        guard Float(value).isFinite else {
            throw Failure(fieldPath: fieldPath(key), reason: "must be a measurement within ±3.4e38")
        }
        return value
    }

    /// Member `key` as an `{"x","y","z"}` object of measurements; nil when absent.
    /// - Throws: `Failure` naming the member or the component that is missing or not a measurement.
    public func vector(_ key: String) throws(Failure) -> SIMD3<Double>? {
        guard let vector = try object(key) else { return nil }
        return SIMD3(
            try vector.required("x", vector.measurement), try vector.required("y", vector.measurement),
            try vector.required("z", vector.measurement))
    }

    /// Member `key` as a whole number (within ±10¹⁵); nil when absent.
    /// - Throws: `Failure` when it is not a whole number.
    public func integer(_ key: String) throws(Failure) -> Int? {
        guard let value = try number(key) else { return nil }
        guard value.rounded() == value, abs(value) < 1e15 else {
            throw Failure(fieldPath: fieldPath(key), reason: "must be a whole number")
        }
        return Int(value)
    }

    /// Member `key` as a count: a whole number from 0 to 2⁶³ − 1, written as an integer or as a real
    /// without fraction (`1e3`); nil when absent.
    ///
    /// The upper bound is what JSON written from the count can be read again: the writer writes it as an
    /// integer, and Jansson refuses integers beyond a signed 64 bits (`1e19` would come back as a syntax
    /// error, not as the value).
    /// - Throws: `Failure` when it is not a whole number in that range.
    public func count(_ key: String) throws(Failure) -> UInt64? {
        guard let value = value(key) else { return nil }
        if case .integer(let integer) = value, integer >= 0 { return UInt64(integer) }
        // 2⁶³ is exact in a Double; every whole Double below it converts exactly.
        if case .real(let real) = value, real >= 0, real.rounded() == real {
            guard real < 0x1p63 else { throw Failure(fieldPath: fieldPath(key), reason: "must be a count of at most 9223372036854775807") }
            return UInt64(real)
        }
        throw Failure(fieldPath: fieldPath(key), reason: "must be a count (a whole number ≥ 0)")
    }

    /// Member `key` as a nested object; nil when absent.
    /// - Throws: `Failure` when it is another kind of value.
    public func object(_ key: String) throws(Failure) -> JSONObjectReader? {
        guard let value = value(key) else { return nil }
        guard case .object(let nested) = value else {
            throw Failure(fieldPath: fieldPath(key), reason: "must be a JSON object")
        }
        return JSONObjectReader(object: nested, path: fieldPath(key))
    }

    /// Member `key` as an array of objects; nil when absent.
    /// - Throws: `Failure` when it is not an array of objects.
    public func objects(_ key: String) throws(Failure) -> [JSONObjectReader]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw Failure(fieldPath: fieldPath(key), reason: "must be an array") }
        var readers: [JSONObjectReader] = []
        for (index, element) in elements.enumerated() {
            guard case .object(let nested) = element else {
                throw Failure(fieldPath: "\(fieldPath(key))[\(index)]", reason: "must be a JSON object")
            }
            readers.append(JSONObjectReader(object: nested, path: "\(fieldPath(key))[\(index)]"))
        }
        return readers
    }

    /// Member `key` as an array of numbers (a `null` element, a value the writer could not represent, is
    /// NaN); nil when absent.
    /// - Throws: `Failure` naming the element (`key[2]`) that is neither a number nor null, or the member
    ///   when it is not an array.
    public func numbers(_ key: String) throws(Failure) -> [Double]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw Failure(fieldPath: fieldPath(key), reason: "must be an array of numbers") }
        var numbers: [Double] = []
        numbers.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if case .null = element {
                numbers.append(.nan)
            } else if let number = element.number, number.isFinite {
                numbers.append(number)
            } else {
                throw Failure(fieldPath: "\(fieldPath(key))[\(index)]", reason: "must be a number")
            }
        }
        return numbers
    }

    /// Member `key` as a non-empty array of strings; nil when absent.
    /// - Throws: `Failure` naming the element (`key[2]`) that is not a string, or the member when it is not
    ///   an array or is empty.
    public func strings(_ key: String) throws(Failure) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw Failure(fieldPath: fieldPath(key), reason: "must be an array of strings") }
        guard !elements.isEmpty else { throw Failure(fieldPath: fieldPath(key), reason: "must not be empty") }
        var texts: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw Failure(fieldPath: "\(fieldPath(key))[\(index)]", reason: "must be a string")
            }
            texts.append(text)
        }
        return texts
    }

    /// Member `key`, which must be present.
    /// - Throws: `Failure` naming it as missing.
    public func required<Value>(_ key: String, _ read: (String) throws(Failure) -> Value?) throws(Failure) -> Value {
        guard let value = try read(key) else { throw Failure(fieldPath: fieldPath(key), reason: "is required") }
        return value
    }
}
