import Foundation
import MotionAgent
import MotionContract
import MotionLog
import MotionMath
import MQTT

/// `motionctl simulate --devices N`: N simulated agents in one process, each the real agent (its own
/// engine on a simulated IMU, MQTT client id, last will, statuses, health and control), for capacity
/// planning and for trying fleet tools on many devices.
enum SimulateCommand {
    static let usage = """
        usage: motionctl simulate --devices N [--rate HZ] [--device-rate HZ] [--services LIST] [--id-prefix NAME] [--seconds S] [--protocol mqtt5|mqtt311] [--detectors on|off] \(BrokerCommandOptions.usage)
          runs N simulated agents, device ids NAME-0001… (default sim), each publishing the services in LIST
          (comma-separated, default device-motion) at --rate HZ (default 10) and the others stopped; until
          Ctrl-C or S seconds, then each stops cleanly (inactive statuses, offline)
          --protocol P      the agents' broker.protocol (default mqtt5, which falls back to 3.1.1 by itself;
                            mqtt311 spares a broker without MQTT 5, such as RabbitMQ 3.x, the refused attempts)
          --detectors S     on (default, as an agent: the motion detectors' events and states topics) or off
                            (no detectors: spares the simulator their CPU when only the services' traffic matters)
          --device-rate HZ  the simulated IMUs' sample rate (default: the publishing rate, at least 1 Hz; a
                            board's 100–1000 Hz costs the simulator more CPU, not the broker more messages)
          The agents log warnings and errors only (their routine lines would be N times each).
          The simulated IMUs share four delivery threads per core (sim:…,clock=shared) and deliver each sample
          as it is taken, so the process's cost per device stays near the MQTT traffic's
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: BrokerCommandOptions.valued.union(["--devices", "--rate", "--device-rate", "--services", "--id-prefix", "--seconds", "--protocol", "--detectors"]),
            usage: usage)
        guard options.positional.isEmpty else { options.fail("simulate takes no positional arguments") }
        guard let count = options.number("--devices", atLeast: 1, atMost: 10_000).map(Int.init) else {
            options.fail("--devices is required")
        }
        let rate = options.number("--rate", atLeast: 0.01, atMost: 1_000) ?? 10
        let seconds = options.number("--seconds", atLeast: 0.1)
        let idPrefix = options["--id-prefix"] ?? "sim"
        guard DeviceIdentifier.isValid(idPrefix) else { options.fail("--id-prefix \(idPrefix): only a-z, 0-9, _ and -") }
        var services: Set<MotionService> = []
        for name in (options["--services"] ?? MotionService.deviceMotion.topicName).split(separator: ",") {
            guard let service = MotionService(topicName: String(name.trimmingBlanks())) else {
                options.fail("--services: unknown service \(name) (one of \(MotionService.allCases.map(\.topicName).joined(separator: ", ")))")
            }
            services.insert(service)
        }
        let connection = BrokerCommandOptions(options)
        let protocolVersion: MQTTProtocolVersion
        switch options["--protocol"] ?? "mqtt5" {
        case "mqtt5": protocolVersion = .v5
        case "mqtt311": protocolVersion = .v311
        case let other: options.fail("--protocol \(other): mqtt5 or mqtt311")
        }
        let detectors: Bool
        switch options["--detectors"] ?? "on" {
        case "on": detectors = true
        case "off": detectors = false
        case let other: options.fail("--detectors \(other): on or off")
        }
        // One sample per message by default: the broker's load is the same, and a fleet of thousands fits.
        let deviceRate = options.number("--device-rate", atLeast: 1, atMost: 2_000) ?? min(max(rate, 1), 2_000)
        LoggingSystem.setMinimumPriority(.warning)
        var agents: [MotionAgent] = []
        for index in 1...count {
            var configuration = AgentConfiguration(
                deviceID: "\(idPrefix)-\(String(format: "%04d", index))", topicPrefix: connection.prefix,
                device: "sim:rate=\(deviceRate),seed=\(index),batch=\(min(1, max(0.0005, 1 / deviceRate))),clock=shared")
            configuration.broker.address = connection.broker
            configuration.broker.protocolVersion = protocolVersion
            configuration.broker.username = connection.username
            configuration.broker.password = connection.passwordSource
            configuration.broker.tls = connection.tls.map {
                BrokerSettings.TLSSettings(caFile: $0.caFile, certificateFile: $0.certificateFile, keyFile: $0.keyFile)
            }
            configuration.detectors.enabled = detectors
            for service in MotionService.allCases {
                configuration.services[service] = ServiceSettings(enabled: services.contains(service), rateHz: rate)
            }
            do {
                try configuration.validate()
                let agent = try MotionAgent(configuration: configuration, version: AgentVersion.current)
                try agent.start()
                agents.append(agent)
            } catch {
                for agent in agents { agent.shutdown(timeout: .seconds(1)) }
                CommandOptions.exit("cannot start simulated device \(index): \(error)", status: 69)
            }
        }
        FileHandle.standardError.write(Data(
            "motionctl: \(count) simulated devices \(idPrefix)-0001…\(String(format: "%04d", count)) on \(connection.broker), \(services.map(\.topicName).sorted().joined(separator: ", ")) at \(TextChart.format(rate)) Hz\n".utf8))
        CommandOptions.waitForStop(after: seconds)
        let running = agents
        DispatchQueue.concurrentPerform(iterations: running.count) { running[$0].shutdown(timeout: .seconds(2)) }
        exit(0)
    }
}
