#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A child process started by ``CommandLineTool`` and reaped by this object with `waitpid`, so its exit is
/// seen the moment it happens, whatever other children the process starts meanwhile.
///
/// Thread-safe: any thread may ask whether it exited, wait for it or signal it. A child still running when
/// the last reference goes is killed (SIGKILL) and reaped.
public final class ChildProcess: Sendable {
    /// The process ID. Valid until the child is reaped (``hasExited`` is `true`), never reused before.
    public let pid: pid_t
    /// The executable and its arguments.
    public let commandLine: [String]
    /// The raw wait status, once reaped. The lock is held across `waitpid`, so one thread reaps.
    private let waitStatus = Mutex<Int32?>(nil)

    /// Starts `path` with `arguments`; see ``CommandLineTool/spawn(_:_:environment:standardOutput:standardError:)``.
    /// - Throws: ``CommandLineTool/LaunchError`` when it cannot be started.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: CommandLineTool.Destination, standardError: CommandLineTool.Destination? = nil
    ) throws(CommandLineTool.LaunchError) {
        pid = try CommandLineTool.spawn(
            path, arguments, environment: environment, standardOutput: standardOutput, standardError: standardError)
        commandLine = [path] + arguments
    }

    deinit {
        if !hasExited { killAndReap() }
    }

    /// Whether the child has exited (reaping it if it just did).
    public var hasExited: Bool { exitStatus != nil }

    /// The exit status once the child has exited: its exit code, or 128 + the signal's number when a signal
    /// ended it (as a shell reports it); `nil` while it runs.
    public var exitStatus: Int32? {
        waitStatus.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            }
            return status.map(Self.exitStatus(fromWaitStatus:))
        }
    }

    /// Waits up to `timeout` for the child to exit by itself, polling every 2 ms.
    /// - Returns: its ``exitStatus``, or `nil` if it still runs.
    public func waitForExit(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if let status = exitStatus { return status }
            if ContinuousClock.now >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// Sends `signal` to the child, unless it has been reaped (its pid may then belong to another process).
    public func send(_ signal: Int32) {
        waitStatus.withLock { status in
            if status == nil { _ = kill(pid, signal) }
        }
    }

    /// Sends SIGKILL and reaps the child.
    /// - Returns: its ``exitStatus`` (137 unless it had already exited).
    @discardableResult
    public func killAndReap() -> Int32 {
        waitStatus.withLock { status in
            if status == nil {
                _ = kill(pid, SIGKILL)
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                status = raw
            }
            return Self.exitStatus(fromWaitStatus: status ?? 0)
        }
    }

    /// Sends SIGTERM, waits up to `grace` for the child to exit, then SIGKILLs it.
    /// - Returns: `true` when it exited with status 0 within the grace period (a clean shutdown).
    @discardableResult
    public func terminate(grace: Duration) -> Bool {
        send(SIGTERM)
        guard let status = waitForExit(timeout: grace) else {
            killAndReap()
            return false
        }
        return status == 0
    }

    /// A shell's exit status from `waitpid`'s raw status: the exit code, or 128 + the terminating signal.
    public static func exitStatus(fromWaitStatus raw: Int32) -> Int32 {
        (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
