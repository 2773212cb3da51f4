#if canImport(Glibc)
import Glibc
#endif

/// Reads what the kernel reports about a process in `/proc`: CPU time, memory, threads.
enum ProcFS {
    /// Clock ticks per second of `utime`/`stime` in `/proc/PID/stat` (`sysconf(_SC_CLK_TCK)`, usually 100).
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

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

    /// The name (`comm`) and user + system CPU time, in clock ticks, from a `stat` file
    /// (`/proc/PID/stat` or `/proc/PID/task/TID/stat`).
    static func cpuTicks(statPath: String) -> (name: String, ticks: UInt64)? {
        guard let text = read(statPath),
            let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
        else { return nil }
        let name = String(text[text.index(after: open)..<close])
        // Fields after the name start with field 3 (state); utime is field 14, stime field 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return (name, user + system)
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
