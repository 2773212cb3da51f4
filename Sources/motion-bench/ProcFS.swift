#if canImport(Glibc)
import Glibc
#endif

/// Reads what the kernel reports about a process in `/proc`: CPU time, memory, threads.
enum ProcFS {
    /// The whole text of a `/proc` file (their reported size is 0, so it is read until end of file).
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name (`comm`) of a process or thread, from its `comm` file (`/proc/PID/comm` or
    /// `/proc/PID/task/TID/comm`).
    static func name(commPath: String) -> String? {
        read(commPath).map { String($0.prefix { $0 != "\n" }) }
    }

    /// The CPU time a thread has run, ns: the first field of `/proc/PID/task/TID/schedstat` (the
    /// scheduler's exact `sum_exec_runtime`, where `stat`'s user and system times count 10 ms ticks).
    static func threadCPUNanoseconds(schedstatPath: String) -> UInt64? {
        read(schedstatPath)?.split(separator: " ").first.flatMap { UInt64($0) }
    }

    /// The CPU time of a whole process, ns, including threads that have exited: its
    /// `CLOCK_PROCESS_CPUTIME_ID` clock, read from outside through `clock_getcpuclockid`.
    static func processCPUNanoseconds(pid: pid_t) -> UInt64? {
        var clock = clockid_t()
        var time = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &time) == 0 else { return nil }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `VmRSS`, `VmHWM` (peak resident set) and `RssAnon` (the part not backed by files: heap,
    /// stacks) of `pid` in kB, from `/proc/PID/status`.
    static func memoryKilobytes(pid: pid_t) -> (resident: Int, peak: Int, anonymous: Int)? {
        guard let text = read("/proc/\(pid)/status") else { return nil }
        var resident: Int?
        var peak: Int?
        var anonymous: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { resident = kilobytes(line) }
            if line.hasPrefix("VmHWM:") { peak = kilobytes(line) }
            if line.hasPrefix("RssAnon:") { anonymous = kilobytes(line) }
        }
        guard let resident, let peak, let anonymous else { return nil }
        return (resident, peak, anonymous)
    }

    /// The thread IDs of `pid` (`/proc/PID/task`).
    static func threadIDs(pid: pid_t) -> [Int] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var identifiers: [Int] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let identifier = Int(name) { identifiers.append(identifier) }
        }
        return identifiers.sorted()
    }

    private static func kilobytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }
}
