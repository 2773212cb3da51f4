/// The daemon that disciplines the wall clock, told by the processes running: ptp4l (PTP, with phc2sys),
/// chrony, ntpd (the reference implementation or OpenNTPD) or systemd-timesyncd (SNTP).
public enum TimeSynchronizationSource: String, Sendable, CaseIterable {
    /// `ptp4l` (linuxptp): the Precision Time Protocol, sub-microsecond on a PTP network.
    case ptp4l
    /// `chronyd`.
    case chrony
    /// `ntpd`.
    case ntpd
    /// `systemd-timesyncd`, an SNTP client.
    case timesyncd = "systemd-timesyncd"

    /// The most precise source among running processes' names (`/proc/PID/comm`, at most 15 characters:
    /// `systemd-timesyn`), in this order: ptp4l (or phc2sys), chrony, ntpd, systemd-timesyncd; `nil` when
    /// none runs.
    /// - Parameter processNames: the `comm` of each running process.
    public static func detect(amongProcesses processNames: some Sequence<String>) -> TimeSynchronizationSource? {
        var found = Set<TimeSynchronizationSource>()
        for name in processNames {
            switch name {
            case "ptp4l", "phc2sys": found.insert(.ptp4l)
            case "chronyd": found.insert(.chrony)
            case "ntpd", "openntpd": found.insert(.ntpd)
            case "systemd-timesyn", "systemd-timesyncd": found.insert(.timesyncd)
            default: continue
            }
        }
        return allCases.first(where: found.contains)
    }

    /// The source running on this machine, from `/proc` (``detect(amongProcesses:)``); `nil` when none runs
    /// or `/proc` cannot be read. Reads one small file per process: call it seldom, or through
    /// ``TimeSynchronizationProbe``, which shares one scan among the callers of a process.
    /// - Parameter procRoot: the proc file system (`/proc`; a fake tree in tests).
    public static func running(procRoot: String = "/proc") -> TimeSynchronizationSource? {
        var names: [String] = []
        for name in DirectoryListing.names(in: procRoot) {
            guard let first = name.utf8.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) else { continue }
            if let comm = try? RegularFile.read("\(procRoot)/\(name)/comm", maximumSize: 64) {
                names.append(String(decoding: comm.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
            }
        }
        return detect(amongProcesses: names)
    }
}
