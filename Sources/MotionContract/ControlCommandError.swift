/// Why a control command was refused; the agent answers with it and changes nothing.
public struct ControlCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the command.
    public let description: String

    /// The longest message, characters: a refusal may quote the command (an unknown key, a frame name),
    /// and neither the answer nor the log line may grow with it.
    public static let maximumLength = ContractText.maximumReasonLength

    /// Creates an error with a message, made printable and cut at ``maximumLength`` (see
    /// ``ContractText/sanitized(_:limit:)``).
    public init(_ description: String) { self.description = ContractText.sanitized(description, limit: Self.maximumLength) }
}
