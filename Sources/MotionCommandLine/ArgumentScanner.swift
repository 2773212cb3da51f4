/// The one command-line scanner of MotionBridge's programs (`motion-agent`, `motionctl`, `motion-bench`):
/// `--name value` options, `--name` switches, positional arguments, and `--help` / `-h` anywhere.
///
/// It throws ``CommandLineError`` naming the option for an unknown option, a missing value or a value
/// that is not what the option takes; the program prints it with its usage and exits with
/// ``CommandLineError/exitStatus`` (64). A pure value: no I/O.
public struct ArgumentScanner: Sendable, Equatable {
    /// `--name value` pairs given (the last one wins when an option is repeated).
    public private(set) var values: [String: String] = [:]
    /// Switches given.
    public private(set) var switches: Set<String> = []
    /// Arguments that are not options, in order.
    public private(set) var positional: [String] = []
    /// Whether `--help` or `-h` was given: the program prints its usage and exits 0.
    public private(set) var helpRequested = false

    /// Scans `arguments` (without the program name).
    /// - Parameters:
    ///   - arguments: the arguments.
    ///   - valued: the options that take the next argument as their value.
    ///   - switches: the options that take none.
    /// - Throws: ``CommandLineError`` for an unknown option or a valued option without its value (a value
    ///   may not itself look like an option, `--…`).
    public init(_ arguments: [String], valued: Set<String> = [], switches: Set<String> = []) throws(CommandLineError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" {
                helpRequested = true
            } else if valued.contains(argument) {
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    throw CommandLineError("\(argument) needs a value")
                }
                values[argument] = value
            } else if switches.contains(argument) {
                self.switches.insert(argument)
            } else if argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil {
                throw CommandLineError("unknown option \(argument)")
            } else {
                positional.append(argument)
            }
        }
    }

    /// The value of option `name`, if given.
    public subscript(name: String) -> String? { values[name] }

    /// Whether switch `name` was given.
    public func has(_ name: String) -> Bool { switches.contains(name) }

    /// Option `name` as a finite number of at least `minimum` (and at most `maximum`), or nil when not given.
    /// - Throws: ``CommandLineError`` naming the option when the value is not such a number.
    public func number(_ name: String, atLeast minimum: Double? = nil, atMost maximum: Double? = nil) throws(CommandLineError)
        -> Double?
    {
        guard let text = values[name] else { return nil }
        guard let number = Double(text), number.isFinite, minimum.map({ number >= $0 }) ?? true,
            maximum.map({ number <= $0 }) ?? true
        else {
            throw CommandLineError("\(name): expected a number\(Self.bounds(minimum, maximum)), got \"\(text)\"")
        }
        return number
    }

    /// Option `name` as a whole number of at least `minimum` (and at most `maximum`), or nil when not given.
    /// - Throws: ``CommandLineError`` naming the option when the value is not such a number.
    public func integer(_ name: String, atLeast minimum: Int? = nil, atMost maximum: Int? = nil) throws(CommandLineError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), minimum.map({ number >= $0 }) ?? true, maximum.map({ number <= $0 }) ?? true else {
            throw CommandLineError("\(name): expected a whole number\(Self.bounds(minimum, maximum)), got \"\(text)\"")
        }
        return number
    }

    /// Refuses positional arguments beyond `count`.
    /// - Throws: ``CommandLineError`` naming the first extra argument.
    public func expectPositional(atMost count: Int) throws(CommandLineError) {
        guard positional.count <= count else { throw CommandLineError("unexpected argument \(positional[count])") }
    }

    /// ` >= a`, ` between a and b`, ` <= b` or nothing.
    private static func bounds<Bound>(_ minimum: Bound?, _ maximum: Bound?) -> String {
        switch (minimum, maximum) {
        case (let minimum?, let maximum?): " between \(minimum) and \(maximum)"
        case (let minimum?, nil): " >= \(minimum)"
        case (nil, let maximum?): " <= \(maximum)"
        case (nil, nil): ""
        }
    }
}
