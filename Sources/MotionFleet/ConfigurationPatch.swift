import MotionContract

/// A run-time configuration document built from `motionctl config set`'s `key=value` arguments:
/// `services.gyro.rate_hz=10 health_interval=30 mount_matrix="0, 1, 0; -1, 0, 0; 0, 0, 1"` becomes
/// `{"services":{"gyro":{"rate_hz":10}},"health_interval":30,"mount_matrix":"0, 1, 0; …"}`.
///
/// A value is read as JSON when it is JSON (`10`, `true`, `null`, `"text"`, `{…}`), otherwise as a
/// string, so that text needs no quotes; `null` hands the setting back to the device's file.
public enum ConfigurationPatch {
    /// The document of `assignments`.
    /// - Throws: ``ConfigurationPatchError`` for an argument without `=`, an empty key level, or a key
    ///   given twice or inside another key's value.
    public static func document(from assignments: [String]) throws(ConfigurationPatchError) -> [String: JSONValue] {
        var root: [String: JSONValue] = [:]
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else {
                throw ConfigurationPatchError(argument: assignment, reason: "must be KEY=VALUE (for example services.gyro.rate_hz=10)")
            }
            let path = assignment[..<equals].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else {
                throw ConfigurationPatchError(argument: assignment, reason: "the key must be dotted names, like services.gyro.rate_hz")
            }
            let text = String(assignment[assignment.index(after: equals)...])
            let value = (try? JSONValue.parse(Array(text.utf8))) ?? .string(text)
            guard let updated = set(value, at: path[...], in: root) else {
                throw ConfigurationPatchError(argument: assignment, reason: "\(path.joined(separator: ".")) is given twice")
            }
            root = updated
        }
        return root
    }

    /// `members` with `value` at `path`, or nil when something is already there.
    private static func set(_ value: JSONValue, at path: ArraySlice<String>, in members: [String: JSONValue]) -> [String: JSONValue]? {
        var members = members
        let key = path.first!
        if path.count == 1 {
            guard members[key] == nil else { return nil }
            members[key] = value
            return members
        }
        let nested: [String: JSONValue]
        switch members[key] {
        case nil: nested = [:]
        case .object(let existing): nested = existing
        default: return nil
        }
        guard let updated = set(value, at: path.dropFirst(), in: nested) else { return nil }
        members[key] = .object(updated)
        return members
    }
}

/// Why a `key=value` argument cannot be made into a configuration document.
public struct ConfigurationPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The argument.
    public let argument: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "\(argument): \(reason)" }
}
