import AgentTestSupport
import Foundation
import MotionTestSupport
import Testing

/// The child processes that the tests and benchmarks start: they inherit no descriptor but 0–2, so one
/// child cannot hold another's pipe or socket open, and their exit is seen the moment it happens.
@Suite struct ChildProcessTests {
    /// Descriptors the test process holds without close-on-exec (a Foundation pipe, a socket pair) do not
    /// reach the child. Foundation's `Process` learns of an exit from such a socket pair; a broker that had
    /// inherited one kept a `motionctl` usage error "running" for 20 s in CI.
    @Test func aChildHoldsOnlyItsStandardDescriptors() throws {
        let pipe = Pipe()
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let child = try ChildProcess("/bin/sleep", ["30"], standardOutput: .file("/dev/null", appending: true))
        defer { child.killAndReap() }
        // Right after exec the dynamic loader and `sleep` itself open and close files (each shared library,
        // the locale archive); on a loaded CI machine a listing caught one as "3". An inherited descriptor,
        // by contrast, stays open for the whole 30 s, so waiting for the set to settle still catches a leak.
        var descriptors: [String] = []
        let settled = eventually(within: .seconds(10)) {
            descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").sorted()) ?? []
            return descriptors == ["0", "1", "2"]
        }
        #expect(settled, "\(descriptors); pipe \(pipe.fileHandleForWriting.fileDescriptor), pair \(pair)")
    }

    /// A child that exits is seen as exited at once, while a long-lived child started after it runs on.
    @Test func anExitIsSeenWhileAnotherChildRuns() throws {
        let first = try AgentProcess("motionctl", arguments: ["frobnicate"])
        let longLived = try ChildProcess("/bin/sleep", ["30"], standardOutput: .file("/dev/null", appending: true))
        defer { longLived.killAndReap() }
        #expect(first.waitForExit(timeout: .seconds(10)) == 64, "\(first.log)")
        #expect(!longLived.hasExited)
    }

    /// Exit codes as a shell reports them, a signal's as 128 + its number; a child that ignores SIGTERM is
    /// killed when its grace period ends.
    @Test func exitStatusesAreAShellsAndTerminateFallsBackToKill() throws {
        let three = try ChildProcess("/bin/sh", ["-c", "exit 3"], standardOutput: .file("/dev/null", appending: true))
        #expect(three.waitForExit(timeout: .seconds(10)) == 3)
        let terminated = try ChildProcess("/bin/sh", ["-c", "kill -TERM $$"], standardOutput: .file("/dev/null", appending: true))
        #expect(terminated.waitForExit(timeout: .seconds(10)) == 128 + SIGTERM)

        let stubborn = try ChildProcess(
            "/bin/sh", ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], standardOutput: .file("/dev/null", appending: true))
        #expect(stubborn.waitForExit(timeout: .milliseconds(200)) == nil)
        #expect(!stubborn.terminate(grace: .milliseconds(300)))
        #expect(stubborn.exitStatus == 128 + SIGKILL)
    }
}
