import Foundation
import MotionHAL
import Synchronization
import Testing

/// The wall clock against the monotonic one: steps told from slewing, the kernel's synchronization status,
/// and the daemon that disciplines the clock.
@Suite struct WallClockTests {
    static let second: UInt64 = 1_000_000_000

    @Test func slewingAndJitterAreNoStepAndTheOffsetFollows() {
        var watch = WallClockWatch()
        #expect(watch.observe(monotonic: 100 * Self.second, unixTime: 1_800_000_000) == nil)
        // A daemon slewing at the kernel's 500 ppm for 10 s, then a reading 3 ms late.
        #expect(watch.observe(monotonic: 110 * Self.second, unixTime: 1_800_000_010.005) == nil)
        #expect(watch.observe(monotonic: 111 * Self.second, unixTime: 1_800_000_011.008) == nil)
        // chrony slewing at its default maxslewrate, 83 333 ppm: 83 ms in a second is no step.
        #expect(watch.observe(monotonic: 112 * Self.second, unixTime: 1_800_000_012.091) == nil)
        #expect(watch.steps == 0 && watch.lastStep == nil)
        #expect(abs((watch.offset ?? 0) - (1_800_000_012.091 - 112)) < 1e-6)
    }

    @Test func aClockSetForwardOrBackIsAStepOfItsSize() throws {
        var watch = WallClockWatch()
        // A board without a real-time clock boots in 1970 and synchronizes an hour into its run.
        _ = watch.observe(monotonic: 5 * Self.second, unixTime: 5)
        let seenForward = watch.observe(monotonic: 6 * Self.second, unixTime: 1_795_000_000)
        let forward = try #require(seenForward)
        #expect(abs(forward.size - (1_795_000_000 - 6)) < 1e-3)
        #expect(forward.monotonicTime == 6 * Self.second)
        let seenBack = watch.observe(monotonic: 7 * Self.second, unixTime: 1_794_999_999)
        let back = try #require(seenBack)
        #expect(abs(back.size + 2) < 1e-6)
        #expect(watch.steps == 2 && watch.lastStep == back)
        #expect(abs((watch.offset ?? 0) - (1_794_999_999 - 7)) < 1e-6)
    }

    @Test func theKernelReportsItsClock() throws {
        let status = try #require(KernelClockStatus.current(), "adjtimex answers on Linux")
        #expect(status.estimatedError >= 0 && status.maximumError >= status.estimatedError)
        // The kernel caps maxerror at 16 s (NTP_PHASE_LIMIT's MAXPHASE-based bound).
        #expect(status.maximumError <= 16.000_001)
    }

    @Test func theSourceIsTheMostPreciseDaemonRunning() {
        #expect(TimeSynchronizationSource.detect(amongProcesses: ["bash", "chronyd", "systemd-timesyn"]) == .chrony)
        #expect(TimeSynchronizationSource.detect(amongProcesses: ["systemd-timesyn"]) == .timesyncd)
        #expect(TimeSynchronizationSource.detect(amongProcesses: ["chronyd", "phc2sys", "ptp4l"]) == .ptp4l)
        #expect(TimeSynchronizationSource.detect(amongProcesses: ["ntpd"]) == .ntpd)
        #expect(TimeSynchronizationSource.detect(amongProcesses: ["bash", "mosquitto"]) == nil)
    }

    @Test func theRunningSourceIsReadFromProc() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (pid, comm) in [("1", "systemd"), ("412", "systemd-timesyn"), ("977", "motion-agent")] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(pid)", withIntermediateDirectories: true)
            try "\(comm)\n".write(toFile: "\(root)/\(pid)/comm", atomically: false, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: "\(root)/self", withIntermediateDirectories: true)
        #expect(TimeSynchronizationSource.running(procRoot: root) == .timesyncd)
        #expect(TimeSynchronizationSource.running(procRoot: root + "/missing") == nil)
    }

    @Test func theProbeSharesOneScanUntilItIsTooOld() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        func run(_ pid: String, _ comm: String) throws {
            try FileManager.default.createDirectory(atPath: "\(root)/\(pid)", withIntermediateDirectories: true)
            try "\(comm)\n".write(toFile: "\(root)/\(pid)/comm", atomically: false, encoding: .utf8)
        }
        try run("1", "systemd")
        let clock = Atomic<UInt64>(1_000 * Self.second)
        let probe = TimeSynchronizationProbe(procRoot: root, maximumAge: 30, now: { clock.load(ordering: .relaxed) })
        #expect(probe.source() == nil)
        try run("412", "chronyd")
        clock.add(29 * Self.second, ordering: .relaxed)
        #expect(probe.source() == nil)  // the first scan still answers
        clock.add(1 * Self.second, ordering: .relaxed)
        #expect(probe.source() == .chrony)  // 30 s old: scanned again
        try FileManager.default.removeItem(atPath: "\(root)/412")
        clock.add(10 * Self.second, ordering: .relaxed)
        #expect(probe.source() == .chrony)
        clock.add(20 * Self.second, ordering: .relaxed)
        #expect(probe.source() == nil)
    }
}
