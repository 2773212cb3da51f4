/// Why a control command was refused; the agent answers with it and changes nothing.
public struct ControlCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the command.
    public let description: String

    /// Creates an error with a message.
    public init(_ description: String) { self.description = description }
}
