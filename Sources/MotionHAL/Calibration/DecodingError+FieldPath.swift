import FoundationEssentials

extension DecodingError {
    /// The field path (`gyroscope.bias[2]`) and the reason, for people, of a JSON decoding error: what a
    /// file's reader names in its error.
    var fieldPathAndReason: (field: String, reason: String) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch self {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "is missing")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "is not \(Self.typeName(type))")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "is missing or null (expected \(Self.typeName(type)))")
        case .dataCorrupted(let context):
            let reason = context.codingPath.isEmpty ? "is not valid JSON (\(context.debugDescription))" : context.debugDescription
            return (path(context.codingPath), reason)
        @unknown default:
            return ("", "\(self)")
        }
    }

    /// How a JSON value of `type` is described to people.
    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "a string"
        case is SIMD3<Double>.Type: "an array of 3 numbers"
        default: "of the expected kind (\(type))"
        }
    }
}
