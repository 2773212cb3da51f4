import MotionContract

/// A configuration value that cannot be used: names the field and says why.
///
/// `motion-agent` prints it and exits with ``exitStatus`` (78, `EX_CONFIG` of sysexits.h).
public struct ConfigurationError: JSONFieldFailure, Sendable, Equatable, CustomStringConvertible {
    /// The dotted path of the field, for example `services.gyro.rate_hz`; empty for the whole file.
    public let fieldPath: String
    /// Why the value cannot be used.
    public let reason: String

    /// The process exit status for a configuration error (`EX_CONFIG`).
    public static let exitStatus: Int32 = 78

    /// The longest field path and reason kept, characters: both may quote the document (an unknown key, a
    /// device string), and the message must stay one readable line whatever it holds.
    public static let maximumLength = 400

    /// Creates an error for the field at `fieldPath`; both are made printable and cut at ``maximumLength``
    /// (see ``ContractText/sanitized(_:limit:)``).
    public init(fieldPath: String, reason: String) {
        self.fieldPath = ContractText.sanitized(fieldPath, limit: Self.maximumLength)
        self.reason = ContractText.sanitized(reason, limit: Self.maximumLength)
    }

    /// `configuration error: services.gyro.rate_hz: must be a number greater than 0`.
    public var description: String {
        fieldPath.isEmpty ? "configuration error: \(reason)" : "configuration error: \(fieldPath): \(reason)"
    }
}

/// Reads the configuration file's objects, failing with ``ConfigurationError``.
typealias ConfigurationReader = JSONObjectReader<ConfigurationError>
