#if canImport(Glibc)
import Glibc
#endif

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
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, logFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&fileActions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        commandLine = [executable] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = commandLine.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &fileActions, &attributes, &argv, environ)
        guard result == 0 else {
            throw BenchError("cannot run \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
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
