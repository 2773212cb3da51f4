import Foundation
import Synchronization
import MotionTestSupport

/// A `motion-agent` (or `motionctl`) child process started from the build's products directory, with its
/// standard error captured to a file for diagnostics.
public final class AgentProcess: @unchecked Sendable {
    // `Process` is not Sendable; each AgentProcess is owned and used by one test at a time.
    public let process = Process()
    public let logURL: URL
    public let standardOutput = Pipe()

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
    public init(_ executable: String = "motion-agent", arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = Self.productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(executable)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardOutput = standardOutput
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: logURL)
    }

    /// What the process wrote to standard error so far.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits up to `timeout` for the process to exit; returns its exit status, or `nil` if it still runs.
    public func waitForExit(timeout: Duration) -> Int32? {
        guard eventually(within: timeout, { !process.isRunning }) else { return nil }
        return process.terminationStatus
    }

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
            let data = child.standardOutput.fileHandleForReading.readDataToEndOfFile()
            output.withLock { $0 = data }
        }
        let status = child.waitForExit(timeout: timeout)
        if status == nil { child.send(SIGKILL) }
        reader.wait()
        return (status, String(decoding: output.withLock { $0 }, as: UTF8.self), child.log)
    }
}
