import Dispatch
import MotionContract
import MotionSupervision
import Synchronization

/// What the agent keeps about its service manager: the notifier, the watchdog's rule, and the counters
/// and status line of the previous check.
struct ServiceManagerLink {
    let notifier: any ServiceManagerNotifier
    var watchdog = SampleWatchdog()
    var lastCheck: PipelineCounters?
    var lastStatus: String?
}

/// The agent's reports to its service manager (systemd), a part with its own state: readiness, a status
/// line with the measured rates and faults, the watchdog fed while the sample path makes progress, and
/// stopping.
///
/// Threading: the checks run on the control queue, so a dead-locked control queue starves the watchdog
/// too; every method may be called from any thread but ``attach(_:)``, which must not be called on the
/// control queue.
final class ServiceManagerReporter: Sendable {
    /// How often the status line is refreshed when the manager watches nothing, s.
    static let statusInterval = 5.0

    private let core: AgentCore
    private let announcer: AgentAnnouncer
    private let publisher: ServicePublisher
    private let link = Mutex<ServiceManagerLink?>(nil)
    private let timer = Mutex<ScheduledWork?>(nil)

    init(core: AgentCore, announcer: AgentAnnouncer, publisher: ServicePublisher) {
        self.core = core
        self.announcer = announcer
        self.publisher = publisher
    }

    /// Reports to `notifier` from now on: `READY=1` with a first `STATUS=` at once; then, every half
    /// watchdog interval (systemd's advice; every ``statusInterval`` without a watchdog), the status line
    /// when it changed and, when the sample path made progress (``SampleWatchdog``), `WATCHDOG=1`.
    func attach(_ notifier: any ServiceManagerNotifier) {
        core.controlQueue.sync {
            let status = statusLine(rates: [:])
            link.withLock { $0 = ServiceManagerLink(notifier: notifier, lastStatus: status) }
            notifier.notify("READY=1\nSTATUS=\(status)")
            let period = notifier.watchdogInterval.map { $0 / 2 } ?? Self.statusInterval
            let work = core.engine.environment.clock.scheduleRepeating(on: core.controlQueue, every: period) { [weak self] in
                self?.check()
            }
            timer.withLock { $0?.cancel(); $0 = work }
        }
    }

    /// `STOPPING=1`, and no more checks.
    func stopping() {
        timer.withLock { $0?.cancel(); $0 = nil }
        link.withLock { $0?.notifier.notify("STOPPING=1\nSTATUS=stopping") }
    }

    /// One check: measured rates since the previous one, the status line, the watchdog.
    func check() {
        guard !core.isShuttingDown else { return }
        let counters = publisher.counters()
        // The IMU's sample path only: the altitude service's barometer may be missing or slow without the
        // agent being stuck.
        let (active, deviceIsOpen) = core.state.withLock {
            (Set($0.services.byService.filter { $0.value.active && $0.key != .altitude }.keys), $0.deviceError == nil)
        }
        let previous = link.withLock { $0?.lastCheck }
        var rates: [MotionService: Double] = [:]
        if let previous {
            for service in MotionService.allCases { rates[service] = counters.messageRate(of: service, since: previous) }
        }
        let status = statusLine(rates: rates)
        link.withLock { link in
            guard var current = link else { return }
            var assignments: [String] = []
            if current.lastStatus != status { assignments.append("STATUS=\(status)") }
            if current.notifier.watchdogInterval != nil,
                current.watchdog.check(activeServices: active, samplesIn: counters.imuSamplesIn, deviceIsOpen: deviceIsOpen)
            {
                assignments.append("WATCHDOG=1")
            }
            if !assignments.isEmpty { current.notifier.notify(assignments.joined(separator: "\n")) }
            current.lastStatus = status
            current.lastCheck = counters
            link = current
        }
    }

    /// The one-line state for the service manager (`systemctl status`): the connection, each active
    /// service with its measured message rate (the configured one before a rate is measured), and the
    /// faults.
    private func statusLine(rates: [MotionService: Double]) -> String {
        let (native, configured) = core.state.withLock { ($0.client, $0.configuration.broker.address) }
        // Without the native contract the agent's one connection is the Sparkplug edge node's.
        let sparkplug = native == nil ? announcer.sparkplug : nil
        let client = native ?? sparkplug?.currentClient
        let broker = client?.currentBroker ?? configured
        let connection = (sparkplug == nil ? "" : "Sparkplug B ")
            + ((client?.isConnected ?? false) ? "connected to \(broker)" : "connecting to \(broker)")
        var services: [String] = []
        var faults: [String] = []
        for service in MotionService.allCases {
            let status = announcer.status(of: service)
            guard status.active else { continue }
            let rate = rates[service] ?? (status.interval > 0 ? 1 / status.interval : 0)
            services.append("\(service.topicName) \(Self.formatRate(rate)) Hz")
            if let error = status.error, !faults.contains(error) { faults.append(error) }
        }
        return Self.statusLine(connection: connection, services: services, faults: faults)
    }

    /// `connection; service rate Hz, …; faults: …` (`no service active`, `no faults` when empty).
    static func statusLine(connection: String, services: [String], faults: [String]) -> String {
        let running = services.isEmpty ? "no service active" : services.joined(separator: ", ")
        let problems = faults.isEmpty ? "no faults" : "faults: " + faults.joined(separator: "; ")
        // One line: a fault text must not end the assignment.
        return "\(connection); \(running); \(problems)".map { $0.isNewline ? " " : $0 }.reduce(into: "") { $0.append($1) }
    }

    /// A rate with at most one decimal (`50`, `12.5`).
    static func formatRate(_ rate: Double) -> String {
        let tenths = (rate * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
