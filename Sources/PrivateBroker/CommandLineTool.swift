import CLinuxIO
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts child processes (brokers, agents, openssl, mosquitto_passwd, mosquitto_sub/pub) for the tests and
/// the benchmarks with `posix_spawn`.
///
/// Not Foundation's `Process`, for two measured reasons. On Linux it enumerates the open descriptors to close
/// them in the child, and when other threads open and close sockets meanwhile, `run()` fails with EBADF or
/// crashes ("double free or corruption"). And it learns of the child's exit when a socket pair that the child
/// holds is closed: a child that another thread spawns in that window inherits the socket, and the first
/// child's exit goes unseen until the second one ends (a `motionctl` usage error reported as still running
/// after 20 s while a broker lived). Here every child closes all descriptors from 3 up as it starts, and the
/// caller reaps it with `waitpid` (``ChildProcess`` does).
public enum CommandLineTool {
    /// A finished run.
    public struct Result: Sendable {
        /// The exit status (or 128 + signal number when killed, -1 when it was still running at the timeout).
        public let status: Int32
        /// Standard output and standard error, interleaved.
        public let output: String
    }

    /// Why a tool could not be started.
    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        /// The tool and `strerror` of the failure.
        public let description: String
    }

    /// Where a child's standard output or standard error goes.
    public enum Destination: Sendable {
        /// A file, created with mode 0600 if missing, truncated or appended to.
        case file(String, appending: Bool)
        /// A descriptor of the caller (a pipe's writing end), duplicated into the child.
        case descriptor(Int32)
    }

    /// Runs `path` with `arguments`, waits up to `timeout` (then SIGKILLs it), returns status and output.
    /// - Throws: ``LaunchError`` when it cannot be started.
    public static func run(_ path: String, _ arguments: [String], timeout: Duration = .seconds(10)) throws -> Result {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        let child = try ChildProcess(path, arguments, standardOutput: .file(outputPath, appending: false))
        let status = child.waitForExit(timeout: timeout)
        if status == nil { child.killAndReap() }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return Result(status: status ?? -1, output: output)
    }

    /// Starts `path` with `arguments` (stdin /dev/null, stdout and stderr to `outputPath`) and returns its pid.
    /// The caller must reap it with `waitpid`; see ``spawn(_:_:environment:standardOutput:standardError:)``.
    /// - Parameters:
    ///   - path: the executable.
    ///   - arguments: its arguments.
    ///   - outputPath: where standard output and error go.
    ///   - appending: append to `outputPath` instead of replacing it.
    /// - Throws: ``LaunchError`` when `posix_spawn` fails.
    public static func spawn(
        _ path: String, _ arguments: [String], outputPath: String = "/dev/null", appending: Bool = false
    ) throws(LaunchError) -> pid_t {
        try spawn(path, arguments, standardOutput: .file(outputPath, appending: appending))
    }

    /// Starts `path` with `arguments` and returns its pid; the caller must reap it with `waitpid`.
    ///
    /// Standard input is /dev/null. The child starts with no signal blocked and SIGTERM, SIGINT, SIGHUP,
    /// SIGPIPE, SIGUSR1 and SIGUSR2 at their default actions, whatever the caller's (test runners block some,
    /// and a child that inherits a blocked SIGTERM cannot be stopped), and with no descriptor of the caller's
    /// open but the ones named here.
    /// - Parameters:
    ///   - path: the executable.
    ///   - arguments: its arguments.
    ///   - environment: the child's whole environment; `nil` passes this process's.
    ///   - standardOutput: where standard output goes.
    ///   - standardError: where standard error goes; `nil` sends it with standard output.
    /// - Throws: ``LaunchError`` when `posix_spawn` fails.
    public static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: Destination, standardError: Destination? = nil
    ) throws(LaunchError) -> pid_t {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        redirect(1, to: standardOutput, in: &fileActions)
        if let standardError { redirect(2, to: standardError, in: &fileActions) } else { posix_spawn_file_actions_adddup2(&fileActions, 1, 2) }
        let closing = clinuxio_spawn_close_from(&fileActions, 3)
        guard closing == 0 else { throw LaunchError(description: "cannot run \(path): \(String(cString: strerror(-closing)))") }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = (environment ?? [:]).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let result = environment == nil
            ? posix_spawn(&pid, path, &fileActions, &attributes, &argv, environ)
            : posix_spawn(&pid, path, &fileActions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw LaunchError(description: "cannot run \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// A pipe for a child's output: both descriptors close-on-exec, so no other child inherits them (the
    /// child gets the writing end through ``Destination/descriptor(_:)``; close it after the spawn).
    /// - Throws: ``LaunchError`` when the pipe cannot be made.
    public static func makePipe() throws(LaunchError) -> (reading: Int32, writing: Int32) {
        var descriptors: [Int32] = [-1, -1]
        let result = clinuxio_pipe_close_on_exec(&descriptors)
        guard result == 0 else { throw LaunchError(description: "cannot make a pipe: \(String(cString: strerror(-result)))") }
        return (descriptors[0], descriptors[1])
    }

    private static func redirect(_ descriptor: Int32, to destination: Destination, in fileActions: inout posix_spawn_file_actions_t) {
        switch destination {
        case .file(let path, let appending):
            posix_spawn_file_actions_addopen(&fileActions, descriptor, path, O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC), 0o600)
        case .descriptor(let source):
            posix_spawn_file_actions_adddup2(&fileActions, source, descriptor)
        }
    }
}
