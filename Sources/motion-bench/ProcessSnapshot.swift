#if canImport(Glibc)
import Glibc
#endif

/// CPU time and memory of one process (and each of its threads) at one instant.
struct ProcessSnapshot: Sendable {
    /// CPU time of one thread.
    struct ThreadTime: Sendable {
        /// The kernel's thread ID.
        let threadID: Int
        /// The thread's name (`comm`, at most 15 characters).
        let name: String
        /// CPU time the thread has run, ns.
        let cpuNanoseconds: UInt64
    }

    /// When the snapshot was taken, ns of `CLOCK_MONOTONIC`.
    let takenAt: UInt64
    /// CPU time of the whole process (user + system, every thread, living or exited), ns.
    let cpuNanoseconds: UInt64
    /// Resident set size (`VmRSS`), kB.
    let residentKilobytes: Int
    /// Peak resident set size (`VmHWM`), kB.
    let peakResidentKilobytes: Int
    /// Anonymous resident memory (`RssAnon`: heap, stacks; the rest of `VmRSS` is mapped files such as
    /// shared libraries), kB.
    let anonymousResidentKilobytes: Int
    /// Per-thread CPU time (threads alive at the snapshot).
    let threads: [ThreadTime]

    /// Reads `/proc/PID/…` now; `nil` when the process is gone.
    init?(pid: pid_t) {
        guard let processCPU = ProcFS.processCPUNanoseconds(pid: pid), let memory = ProcFS.memoryKilobytes(pid: pid)
        else { return nil }
        takenAt = Clock.monotonicNanoseconds()
        cpuNanoseconds = processCPU
        residentKilobytes = memory.resident
        peakResidentKilobytes = memory.peak
        anonymousResidentKilobytes = memory.anonymous
        threads = ProcFS.threadIDs(pid: pid).compactMap { threadID in
            let task = "/proc/\(pid)/task/\(threadID)"
            guard let name = ProcFS.name(commPath: "\(task)/comm"),
                let cpu = ProcFS.threadCPUNanoseconds(schedstatPath: "\(task)/schedstat")
            else { return nil }
            return ThreadTime(threadID: threadID, name: name, cpuNanoseconds: cpu)
        }
    }

    /// CPU used between `earlier` and this snapshot, in percent of one core.
    func cpuPercent(since earlier: ProcessSnapshot) -> Double {
        let seconds = Double(takenAt - earlier.takenAt) / 1e9
        guard seconds > 0 else { return 0 }
        return Double(cpuNanoseconds - min(cpuNanoseconds, earlier.cpuNanoseconds)) / 1e9 / seconds * 100
    }

    /// Per-thread CPU between `earlier` and this snapshot, percent of one core, busiest first; threads
    /// that started in between count from zero.
    func threadCPUPercent(since earlier: ProcessSnapshot) -> [ThreadCPU] {
        let seconds = Double(takenAt - earlier.takenAt) / 1e9
        guard seconds > 0 else { return [] }
        let before = Dictionary(
            earlier.threads.map { ($0.threadID, $0.cpuNanoseconds) }, uniquingKeysWith: { first, _ in first })
        return threads.map { thread in
            let used = thread.cpuNanoseconds - min(thread.cpuNanoseconds, before[thread.threadID] ?? 0)
            return ThreadCPU(threadID: thread.threadID, name: thread.name, cpuPercent: Double(used) / 1e9 / seconds * 100)
        }
        .sorted { $0.cpuPercent > $1.cpuPercent }
    }
}

/// One thread's share of CPU over a measurement, percent of one core.
struct ThreadCPU: Sendable, Codable {
    /// The kernel's thread ID.
    let threadID: Int
    /// The thread's name (`comm`).
    let name: String
    /// CPU used, percent of one core.
    let cpuPercent: Double
}
