// motion-agent: reads the IMU and publishes the MQTT contract until SIGTERM or SIGINT.
import Foundation
import MotionAgent

let commandLine: AgentCommandLine
do {
    commandLine = try AgentCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("motion-agent: \(error)\n\(AgentCommandLine.usage)\n".utf8))
    exit(AgentCommandLine.usageExitStatus)
}
if commandLine.helpRequested {
    print(AgentCommandLine.usage)
    exit(0)
}

let configuration: AgentConfiguration
do {
    configuration = try commandLine.configuration()
} catch {
    FileHandle.standardError.write(Data("motion-agent: \(error)\n".utf8))
    exit(ConfigurationError.exitStatus)
}
if commandLine.checkOnly {
    do {
        _ = try configuration.broker.clientConfiguration(clientID: configuration.clientID, will: nil)
    } catch {
        FileHandle.standardError.write(Data("motion-agent: \(error)\n".utf8))
        exit(ConfigurationError.exitStatus)
    }
    print("configuration OK: device \(configuration.device), broker \(configuration.broker.address), base topic \(configuration.topics.base)")
    exit(0)
}

let agent: MotionAgent
do {
    agent = try MotionAgent(configuration: configuration, version: AgentVersion.current)
    try agent.start()
} catch let error as ConfigurationError {
    FileHandle.standardError.write(Data("motion-agent: \(error)\n".utf8))
    exit(ConfigurationError.exitStatus)
} catch {
    FileHandle.standardError.write(Data("motion-agent: cannot start: \(error)\n".utf8))
    exit(1)
}

// SIGTERM and SIGINT: stop the services, publish `offline`, disconnect cleanly, exit 0. A parent may have
// left them blocked in the inherited signal mask (test runners do): unblock them first.
var shutdownSignals = sigset_t()
sigemptyset(&shutdownSignals)
var signalSources: [any DispatchSourceSignal] = []
for signalNumber in [SIGTERM, SIGINT] {
    sigaddset(&shutdownSignals, signalNumber)
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler {
        agent.shutdown(timeout: .seconds(2))
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}
// SIGHUP: re-read the configuration (with the same options on top) and apply it without reconnecting.
signal(SIGHUP, SIG_IGN)
let reloadSource = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
reloadSource.setEventHandler {
    do {
        agent.reload(try commandLine.configuration())
    } catch {
        AgentLog.info("reload refused, the running configuration stays: \(error)")
    }
}
reloadSource.resume()
sigaddset(&shutdownSignals, SIGHUP)
pthread_sigmask(SIG_UNBLOCK, &shutdownSignals, nil)
dispatchMain()
