/// Why a barometer specification string could not be understood: the message names the bad part.
public struct BarometerSpecificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the driver, option or value, e.g. `option 'rate' of driver sim: 'fast' is not
    /// a number of Hz`.
    public var message: String

    /// Creates an error.
    /// - Parameter message: what is wrong, naming the bad part.
    public init(_ message: String) {
        self.message = message
    }

    /// `invalid barometer specification: ` and the message.
    public var description: String { "invalid barometer specification: \(message)" }
}
