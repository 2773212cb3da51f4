/// A payload that does not follow the contract: which field and why. What the decoders throw.
public struct PayloadError: JSONFieldFailure, Sendable, Equatable, CustomStringConvertible {
    /// The dotted path of the field ("" for the payload as a whole).
    public let fieldPath: String
    /// What is wrong with it.
    public let reason: String

    /// Creates an error (both texts made safe for a log line, at most 300 bytes each).
    public init(fieldPath: String, reason: String) {
        self.fieldPath = ContractText.sanitized(fieldPath, limit: ContractText.maximumReasonLength)
        self.reason = ContractText.sanitized(reason, limit: ContractText.maximumReasonLength)
    }

    /// For example `samples[2].timestamp: must be a number`.
    public var description: String { fieldPath.isEmpty ? reason : "\(fieldPath): \(reason)" }
}
