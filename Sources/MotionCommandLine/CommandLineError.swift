/// A command line that cannot be understood; the program prints it with its usage and exits with 64.
public struct CommandLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    /// Creates an error with a message.
    public init(_ description: String) { self.description = description }

    /// The process exit status for a usage error (`EX_USAGE` of sysexits.h).
    public static let exitStatus: Int32 = 64
}
