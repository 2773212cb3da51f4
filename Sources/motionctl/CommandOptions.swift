import Foundation
import MotionCommandLine

/// The options and positional arguments of one motionctl command (scanned by the programs' shared
/// ``ArgumentScanner``), with the command's usage: `--help` / `-h` prints it and exits 0; a usage error
/// prints the error and the usage and exits 64.
struct CommandOptions {
    private let scanner: ArgumentScanner
    private let usage: String

    /// Scans `arguments`; `valued` options take the next argument, `switches` take none.
    init(_ arguments: [String], valued: Set<String>, switches: Set<String> = [], usage: String) {
        self.usage = usage
        do {
            scanner = try ArgumentScanner(arguments, valued: valued, switches: switches)
        } catch {
            Self.usageError(error.description, usage: usage)
        }
        if scanner.helpRequested {
            print(usage)
            Foundation.exit(0)
        }
    }

    /// `--name value` pairs given.
    var values: [String: String] { scanner.values }
    /// Arguments that are not options, in order.
    var positional: [String] { scanner.positional }
    /// Switches given.
    var flags: Set<String> { scanner.switches }

    /// The value of option `name`, if given.
    subscript(name: String) -> String? { scanner[name] }

    /// Option `name` as a number of at least `minimum` (at most `maximum`); a usage error otherwise.
    func number(_ name: String, atLeast minimum: Double? = nil, atMost maximum: Double? = nil) -> Double? {
        do { return try scanner.number(name, atLeast: minimum, atMost: maximum) } catch { fail(error.description) }
    }

    /// Reports a usage error with the command's usage and exits with status 64 (EX_USAGE).
    func fail(_ message: String) -> Never {
        Self.usageError(message, usage: usage)
    }

    /// Prints `message` and `usage` to standard error and exits with status 64 (EX_USAGE).
    static func usageError(_ message: String, usage: String) -> Never {
        FileHandle.standardError.write(Data("motionctl: \(message)\n\(usage)\n".utf8))
        Foundation.exit(CommandLineError.exitStatus)
    }

    /// Prints `message` (if any) to standard error and exits with `status`.
    static func exit(_ message: String?, status: Int32) -> Never {
        if let message { FileHandle.standardError.write(Data("motionctl: \(message)\n".utf8)) }
        Foundation.exit(status)
    }

    /// Waits for Ctrl-C or SIGTERM (which end a recording or a simulation cleanly), or `seconds` when given.
    static func waitForStop(after seconds: Double?) {
        let stopRequested = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber)
            source.setEventHandler { stopRequested.signal() }
            source.resume()
            sources.append(source)
        }
        _ = stopRequested.wait(timeout: seconds.map { .now() + $0 } ?? .distantFuture)
        sources.forEach { $0.cancel() }
    }
}
