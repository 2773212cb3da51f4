// motion-agent: reads the IMU and publishes the MQTT contract until SIGTERM or SIGINT.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import MotionAgent
import MotionLog
import Synchronization

/// The running agent, once there is one, for the signal handlers.
let runningAgent = Mutex<MotionAgent?>(nil)

// Signals first, before anything slow. SIGTERM, SIGINT: stop the services, publish `offline`, disconnect
// cleanly, exit 0. SIGHUP: re-read the configuration (with the same options on top) and apply it without
// reconnecting. Whichever thread the kernel picks runs the handler, which only writes the signal's number
// to a pipe (async-signal-safe); one thread reads the pipe and acts, so no signal is lost or ignored.
let signalPipe: (read: Int32, write: Int32) = {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { fatalError("motion-agent: cannot create the signal pipe") }
    return (descriptors[0], descriptors[1])
}()
var handledSignals = sigset_t()
sigemptyset(&handledSignals)
for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signalNumber in
        var byte = UInt8(truncatingIfNeeded: signalNumber)
        _ = write(signalPipe.write, &byte, 1)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(signalNumber, &action, nil)
    sigaddset(&handledSignals, signalNumber)
}
// A parent may have left these signals blocked in the inherited mask (test runners do).
pthread_sigmask(SIG_UNBLOCK, &handledSignals, nil)
// A thread of its own that blocks in read(2) for the life of the process.
DispatchQueue(label: "motion-agent.signals").async {
    var byte: UInt8 = 0
    while true {
        let count = read(signalPipe.read, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { break }
        let agent = runningAgent.withLock { $0 }
        if Int32(byte) == SIGHUP {
            reload(agent)
        } else {
            agent?.shutdown(timeout: .seconds(2))
            exit(0)
        }
    }
}

let commandLine: AgentCommandLine
do {
    commandLine = try AgentCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    StandardErrorLogHandler.write("motion-agent: \(error)\n\(AgentCommandLine.usage)\n")
    exit(AgentCommandLine.usageExitStatus)
}
if commandLine.helpRequested {
    print(AgentCommandLine.usage)
    exit(0)
}

func reload(_ agent: MotionAgent?) {
    guard let agent else { return }
    do {
        agent.reload(try commandLine.configuration())
    } catch {
        Logger.agent.warning("reload refused, the running configuration stays: \(error)")
    }
}

let configuration: AgentConfiguration
do {
    configuration = try commandLine.configuration()
} catch {
    StandardErrorLogHandler().failure("\(error)", program: "motion-agent")
    exit(ConfigurationError.exitStatus)
}
// `configuration()` ran every check a start makes (AgentConfiguration.validate), so a file that passes
// here starts.
if commandLine.checkOnly {
    print("configuration OK: device \(configuration.device), broker \(configuration.broker.address), base topic \(configuration.topics.base)")
    // Not errors: the agent starts and keeps these in memory, but the operator should know now.
    for warning in configuration.storageWarnings { print("warning: \(warning)") }
    exit(0)
}

do {
    let agent = try MotionAgent(configuration: configuration, version: AgentVersion.current)
    runningAgent.withLock { $0 = agent }
    try agent.start()
    // Under systemd (Type=notify): readiness, status, stopping and the watchdog, fed from the sample path.
    if let notifier = SystemdNotifier.fromEnvironment() { agent.attach(serviceManager: notifier) }
} catch let error as ConfigurationError {
    StandardErrorLogHandler().failure("\(error)", program: "motion-agent")
    exit(ConfigurationError.exitStatus)
} catch {
    StandardErrorLogHandler().failure("cannot start: \(error)", program: "motion-agent")
    exit(1)
}
dispatchMain()
