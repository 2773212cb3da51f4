import MotionContract

/// A run-time configuration document built from `motionctl config set`'s `key=value` arguments:
/// `services.gyro.rate_hz=10 health_interval=30 mount_matrix="0, 1, 0; -1, 0, 0; 0, 0, 1"` becomes
/// `{"services":{"gyro":{"rate_hz":10}},"health_interval":30,"mount_matrix":"0, 1, 0; …"}`.
///
/// A value is read as JSON when it is JSON (`10`, `true`, `null`, `"text"`, `{…}`), otherwise as a
/// string, so that text needs no quotes; `null` hands the setting back to the device's file.
public enum ConfigurationPatch {
    /// The document of `assignments`.
    /// - Throws: ``ConfigurationPatchError`` for an argument without `=`, an empty key level, a key given
    ///   twice, a key inside another key's value (`health_interval=2 health_interval.x=1`) or a value for a
    ///   key that already has keys inside it.
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
            do throws(Conflict) {
                root = try set(value, at: path[...], in: root)
            } catch {
                let key = path.joined(separator: ".")
                let reason = switch error {
                    case .givenTwice: "\(key) is given twice"
                    case .insideAValue(let depth):
                        "\(path.prefix(depth).joined(separator: ".")) is given a value, which cannot hold \(key)"
                    case .holdsKeys: "\(key) already has keys inside it (\(key).…): give the value or its keys, not both"
                    }
                throw ConfigurationPatchError(argument: assignment, reason: reason)
            }
        }
        return root
    }

    /// Why a key cannot be set.
    private enum Conflict: Error {
        /// The same key was given before.
        case givenTwice
        /// The key's first `depth` levels were given a value that is not an object.
        case insideAValue(depth: Int)
        /// The key was given keys inside it before.
        case holdsKeys
    }

    /// `members` with `value` at `path`.
    private static func set(
        _ value: JSONValue, at path: ArraySlice<String>, in members: [String: JSONValue], depth: Int = 1
    ) throws(Conflict) -> [String: JSONValue] {
        var members = members
        let key = path.first!
        if path.count == 1 {
            switch members[key] {
            case nil: members[key] = value
            case .object?: throw .holdsKeys
            default: throw .givenTwice
            }
            return members
        }
        let nested: [String: JSONValue]
        switch members[key] {
        case nil: nested = [:]
        case .object(let existing): nested = existing
        default: throw .insideAValue(depth: depth)
        }
        members[key] = .object(try set(value, at: path.dropFirst(), in: nested, depth: depth + 1))
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
