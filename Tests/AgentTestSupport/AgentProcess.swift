import Foundation
import Synchronization
import MotionTestSupport

/// A `motion-agent` (or `motionctl`) child process started from the build's products directory, with its
/// standard error captured to a file for diagnostics and its standard output on a pipe.
///
/// Started and reaped by ``ChildProcess`` rather than Foundation's `Process`, whose exit detection a
/// broker started meanwhile by another test can hold up (see ``CommandLineTool``).
public final class AgentProcess: Sendable {
    /// The child: its pid, exit status and signals.
    public let child: ChildProcess
    /// Where its standard error goes.
    public let logURL: URL
    /// The reading end of its standard output.
    public let standardOutput: FileHandle

    /// The directory holding the executables run: `MOTIONBRIDGE_PRODUCTS` when set (the black-box suites
    /// run against another build that way: an older commit's, to see a regression test fail before its
    /// fix), else the test bundle's own directory.
    public static let productsDirectory: URL = {
        if let products = ProcessInfo.processInfo.environment["MOTIONBRIDGE_PRODUCTS"], !products.isEmpty {
            return URL(fileURLWithPath: products, isDirectory: true)
        }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("motion-agent").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// Starts `executable` with `arguments`, and `environment` added to this process's environment.
    /// - Throws: ``CommandLineTool/LaunchError`` when it cannot be started or its pipe cannot be made.
    public init(_ executable: String = "motion-agent", arguments: [String], environment: [String: String] = [:]) throws {
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(executable)-\(UUID().uuidString).log")
        let pipe = try CommandLineTool.makePipe()
        standardOutput = FileHandle(fileDescriptor: pipe.reading, closeOnDealloc: true)
        defer { close(pipe.writing) }
        child = try ChildProcess(
            Self.productsDirectory.appendingPathComponent(executable).path, arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            standardOutput: .descriptor(pipe.writing), standardError: .file(logURL.path, appending: false))
    }

    deinit {
        child.killAndReap()
        try? FileManager.default.removeItem(at: logURL)
    }

    /// The process ID.
    public var processIdentifier: pid_t { child.pid }

    /// Whether the process still runs.
    public var isRunning: Bool { !child.hasExited }

    /// What the process wrote to standard error so far.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { child.send(signal) }

    /// Waits up to `timeout` for the process to exit.
    /// - Returns: its exit status (128 + the signal's number when a signal ended it), or `nil` if it still runs.
    public func waitForExit(timeout: Duration) -> Int32? { child.waitForExit(timeout: timeout) }

    /// Runs `executable` to completion and returns its exit status, standard output and standard error.
    /// A process still running after `timeout` is killed and reported with status `nil`.
    public static func run(
        _ executable: String, arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20)
    ) throws -> (status: Int32?, output: String, log: String) {
        let child = try AgentProcess(executable, arguments: arguments, environment: environment)
        // Read while waiting: a child that fills the pipe would otherwise never exit.
        let output = Mutex(Data())
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) {
            let data = child.standardOutput.readDataToEndOfFile()
            output.withLock { $0 = data }
        }
        let status = child.waitForExit(timeout: timeout)
        if status == nil { child.child.killAndReap() }
        reader.wait()
        return (status, String(decoding: output.withLock { $0 }, as: UTF8.self), child.log)
    }
}
