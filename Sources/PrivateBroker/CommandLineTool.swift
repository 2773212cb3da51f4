import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs command-line tools (openssl, mosquitto_passwd, mosquitto_sub/pub) for tests with `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux it enumerates the open descriptors to close them in the child,
/// and when other threads (MQTT clients, brokers) open and close sockets meanwhile, `run()` fails with
/// EBADF or, worse, crashes (observed: "double free or corruption"). `posix_spawn` with explicit file
/// actions for descriptors 0–2 has no such race.
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

    /// Runs `path` with `arguments`, waits up to `timeout` (then SIGKILLs it), returns status and output.
    /// - Throws: ``LaunchError`` when it cannot be started.
    public static func run(_ path: String, _ arguments: [String], timeout: Duration = .seconds(10)) throws -> Result {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        let pid = try spawn(path, arguments, outputPath: outputPath)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var status: Int32 = 0
        var exited = false
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
                break
            }
            usleep(2_000)
        }
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let code: Int32 = !exited ? -1 : (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: code, output: output)
    }

    /// Starts `path` with `arguments` (stdin /dev/null, stdout and stderr to `outputPath`) and returns its pid.
    /// The child starts with no signal blocked and SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1 and SIGUSR2 at
    /// their default actions, whatever the caller's (test runners block some, and a child that inherits a
    /// blocked SIGTERM cannot be stopped). The caller must reap it with `waitpid`.
    /// - Parameters:
    ///   - path: the executable.
    ///   - arguments: its arguments.
    ///   - outputPath: where standard output and error go.
    ///   - appending: append to `outputPath` instead of replacing it.
    /// - Throws: ``LaunchError`` when `posix_spawn` fails.
    public static func spawn(
        _ path: String, _ arguments: [String], outputPath: String = "/dev/null", appending: Bool = false
    ) throws(LaunchError) -> pid_t {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &fileActions, 1, outputPath, O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC), 0o600)
        posix_spawn_file_actions_adddup2(&fileActions, 1, 2)
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
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &fileActions, &attributes, &argv, environ)
        guard result == 0 else {
            throw LaunchError(description: "cannot run \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }
}
