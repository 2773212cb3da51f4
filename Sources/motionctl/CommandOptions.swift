import Foundation

/// The options and positional arguments of one motionctl command, with the command's usage for errors.
struct CommandOptions {
    /// `--name value` pairs.
    private(set) var values: [String: String] = [:]
    /// Arguments that are not options, in order.
    private(set) var positional: [String] = []
    /// `--name` options without a value that were given.
    private(set) var flags: Set<String> = []
    private let usage: String

    /// Parses `arguments`; `valued` options take the next argument, `switches` take none. Any other
    /// `--option` is an error (exit 64).
    init(_ arguments: [String], valued: Set<String>, switches: Set<String> = [], usage: String) {
        self.usage = usage
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if valued.contains(argument) {
                guard let value = remaining.popFirst() else { fail("\(argument) needs a value") }
                values[argument] = value
            } else if switches.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--") {
                fail("unknown option \(argument)")
            } else {
                positional.append(argument)
            }
        }
    }

    /// The value of option `name`, if given.
    subscript(name: String) -> String? { values[name] }

    /// Reports a usage error with the command's usage and exits with status 64 (EX_USAGE).
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("motionctl: \(message)\n\(usage)\n".utf8))
        Foundation.exit(64)
    }

    /// Prints `message` (if any) to standard error and exits with `status`.
    static func exit(_ message: String?, status: Int32) -> Never {
        if let message { FileHandle.standardError.write(Data("motionctl: \(message)\n".utf8)) }
        Foundation.exit(status)
    }
}
