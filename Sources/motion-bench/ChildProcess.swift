#if canImport(Glibc)
import Glibc
#endif
import PrivateBroker

/// A process started with `posix_spawn`, its output appended to a log file; stopped with SIGTERM.
final class ChildProcess {
    /// The process ID.
    let pid: pid_t
    /// The executable and arguments it was started with.
    let commandLine: [String]
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments`; stdin is `/dev/null`, stdout and stderr go to `logFile`.
    /// SIGTERM and SIGINT are unblocked and at their default disposition in the child.
    /// - Throws: ``BenchError`` when the process cannot be started.
    init(executable: String, arguments: [String], logFile: String) throws(BenchError) {
        commandLine = [executable] + arguments
        do {
            pid = try CommandLineTool.spawn(executable, arguments, outputPath: logFile, appending: true)
        } catch {
            throw BenchError(error.description)
        }
    }

    deinit {
        _ = terminate(grace: 2)
    }

    /// Whether the process has exited (reaps it if so).
    var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = status
            return true
        }
        return false
    }

    /// Waits up to `timeout` seconds for the process to exit by itself.
    /// - Returns: its raw wait status, or `nil` if it is still running.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Clock.monotonicNanoseconds() + UInt64(timeout * 1e9)
        while !hasExited && Clock.monotonicNanoseconds() < deadline { Clock.sleep(seconds: 0.002) }
        return exitStatus
    }

    /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILLs.
    /// - Returns: `true` when it exited with status 0 after SIGTERM (a clean shutdown).
    @discardableResult
    func terminate(grace: Double) -> Bool {
        if !hasExited { kill(pid, SIGTERM) }
        if waitForExit(timeout: grace) == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = status
            return false
        }
        return exitStatus == 0
    }
}
