import Foundation

/// A process's memory as the kernel counts it, for tests that bound it.
public enum ProcessMemory {
    /// A `kB` field of `/proc/PID/status`: `VmRSS` (resident now) or `VmHWM` (peak resident), kB.
    public static func kilobytes(_ field: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }
    }
}
