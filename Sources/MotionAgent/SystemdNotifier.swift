import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Where the agent reports its state to a service manager: readiness, a status line, stopping and the
/// watchdog (systemd's `sd_notify` protocol). ``SystemdNotifier`` is the real one; tests pass a recording
/// twin.
public protocol ServiceManagerNotifier: Sendable {
    /// The period within which the manager expects a watchdog ping, s; `nil` when it watches nothing.
    var watchdogInterval: Double? { get }
    /// Sends newline-separated `VARIABLE=value` assignments (`READY=1`, `STATUS=…`, `STOPPING=1`,
    /// `WATCHDOG=1`). Any thread; must not block.
    func notify(_ assignments: String)
}

/// The service manager of a systemd `Type=notify` unit, through libsystemd's `sd_notify` (a datagram to
/// `$NOTIFY_SOCKET`) and `sd_watchdog_enabled` (`$WATCHDOG_USEC`, for this process when `$WATCHDOG_PID`
/// says so or is unset).
public struct SystemdNotifier: ServiceManagerNotifier {
    public let watchdogInterval: Double?

    /// The notifier of this process's service manager, or `nil` when it was not started by one that
    /// listens (`$NOTIFY_SOCKET` unset or empty).
    public static func fromEnvironment() -> SystemdNotifier? {
        guard let socket = getenv("NOTIFY_SOCKET"), socket.pointee != 0 else { return nil }
        var microseconds: UInt64 = 0
        let watched = sd_watchdog_enabled(0, &microseconds) > 0 && microseconds > 0
        return SystemdNotifier(watchdogInterval: watched ? Double(microseconds) / 1e6 : nil)
    }

    public func notify(_ assignments: String) {
        // Fails only when the socket is gone (the manager stopped listening): nothing to report to.
        _ = sd_notify(0, assignments)
    }
}
