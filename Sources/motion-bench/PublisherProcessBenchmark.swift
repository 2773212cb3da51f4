import Foundation
import MQTT
import PrivateBroker
#if canImport(Glibc)
import Glibc
#endif

/// Runs a publisher process (the agent or the C floor) against the broker and measures it from outside:
/// CPU and memory from `/proc/PID`, per-topic message rates and sample-to-subscriber latency from a
/// ``MonitoringSubscriber``.
struct PublisherProcessBenchmark {
    /// The figures of one run.
    struct Result: Sendable, Codable {
        /// `motion-agent` or `C floor`.
        let name: String
        /// The command that was measured.
        let commandLine: [String]
        /// Size of the executable file, MB (10⁶ bytes): what a board downloads per release.
        let executableMegabytes: Double
        /// Length of the measurement (after the warm-up), s.
        let seconds: Double
        /// User + system CPU of the process, percent of one core.
        let cpuPercent: Double
        /// The process's threads, busiest first.
        let threads: [ThreadCPU]
        /// `VmRSS` at the end of the measurement, MB.
        let residentMegabytes: Double
        /// `RssAnon` at the end (heap, stacks; the rest of RSS is mapped files such as libraries), MB.
        let anonymousResidentMegabytes: Double
        /// `VmHWM` (peak RSS since start) at the end, MB.
        let peakResidentMegabytes: Double
        /// Received messages per second on each data topic.
        let ratesByTopic: [String: Double]
        /// Latency from the sample's timestamp to the subscriber's arrival time, ms.
        let latency: LatencyStatistics
        /// Messages without a readable `timestamp`.
        let missingTimestamps: Int
        /// Broker CPU during the measurement, percent of one core (`nil` with an external broker).
        let brokerCPUPercent: Double?
        /// Whether SIGTERM stopped it with exit status 0.
        let cleanExit: Bool
    }

    let name: String
    let executable: String
    let arguments: [String]
    /// The data topics the process publishes.
    let topics: [String]
    let broker: MQTTBrokerAddress
    let brokerPID: pid_t?
    let warmUpSeconds: Double
    let seconds: Double
    /// Where the process's output goes.
    let logFile: String

    /// The end of the process's output, for error messages (the log's directory is removed on exit).
    private func logTail() -> String {
        let text = ProcFS.read(logFile) ?? ""
        return text.isEmpty ? "no output" : String(text.suffix(1000))
    }

    func run() throws -> Result {
        let subscriber = try MonitoringSubscriber(
            broker: broker, topicFilters: topics, measuresLatency: true,
            clientID: "bench-monitor-\(name.filter { $0.isLetter })")
        defer { subscriber.shutdown() }
        Self.evictFromPageCache(executable)
        let process = try ChildProcess(executable: executable, arguments: arguments, logFile: logFile)
        defer { process.terminate(grace: .seconds(5)) }

        // Warm-up starts with the first data message.
        let deadline = Clock.monotonicNanoseconds() + 15_000_000_000
        while subscriber.receivedCount == 0 {
            if process.hasExited { throw BenchError("\(name) exited during start-up: \(logTail())") }
            guard Clock.monotonicNanoseconds() < deadline else {
                throw BenchError("\(name) published nothing on \(topics) within 15 s: \(logTail())")
            }
            Clock.sleep(seconds: 0.01)
        }
        Clock.sleep(seconds: warmUpSeconds)

        guard let before = ProcessSnapshot(pid: process.pid) else { throw BenchError("\(name) exited: \(logTail())") }
        let brokerBefore = brokerPID.flatMap { ProcessSnapshot(pid: $0) }
        subscriber.beginRecording()
        Clock.sleep(seconds: seconds)
        let recording = subscriber.endRecording()
        guard let after = ProcessSnapshot(pid: process.pid) else { throw BenchError("\(name) exited: \(logTail())") }
        let brokerAfter = brokerPID.flatMap { ProcessSnapshot(pid: $0) }
        let elapsed = Double(after.takenAt - before.takenAt) / 1e9
        let clean = process.terminate(grace: .seconds(5))
        let latencies = recording.latencies()

        var brokerCPU: Double?
        if let brokerBefore, let brokerAfter { brokerCPU = brokerAfter.cpuPercent(since: brokerBefore) }
        var rates: [String: Double] = [:]
        for topic in topics { rates[topic] = Double(recording.countsByTopic[topic] ?? 0) / elapsed }
        return Result(
            name: name, commandLine: process.commandLine, executableMegabytes: Self.fileMegabytes(executable),
            seconds: elapsed,
            cpuPercent: after.cpuPercent(since: before),
            threads: after.threadCPUPercent(since: before),
            residentMegabytes: Double(after.residentKilobytes) / 1024,
            anonymousResidentMegabytes: Double(after.anonymousResidentKilobytes) / 1024,
            peakResidentMegabytes: Double(after.peakResidentKilobytes) / 1024,
            ratesByTopic: rates, latency: LatencyStatistics(milliseconds: latencies.milliseconds),
            missingTimestamps: latencies.missingTimestamps, brokerCPUPercent: brokerCPU, cleanExit: clean)
    }

    /// Drops the file's pages from the page cache (written back first), so that the process starts as on a
    /// board after boot and its file-backed memory is what it touches. A file just written by the build sits
    /// in the cache in large folios, which the kernel maps whole on the first fault in them: up to 1.7 MB
    /// more file-backed RSS, measured, that depends on how the file was written rather than on the code.
    /// Best effort: a file that cannot be opened is left as it is.
    static func evictFromPageCache(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = fdatasync(descriptor)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    }

    /// The size of the file at `path`, MB (10⁶ bytes); 0 when it cannot be read.
    static func fileMegabytes(_ path: String) -> Double {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return Double(status.st_size) / 1e6
    }
}
