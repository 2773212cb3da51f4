import Foundation
import MQTT
import MotionTestSupport
import PrivateBroker

/// A real mosquitto running the repository's fleet configuration (`Deploy/mosquitto/fleet.conf` and
/// `motionbridge.acl`) as `Deploy/mosquitto/verify.sh` runs it: its paths pointed into a temporary
/// directory, its three listeners moved to free ports on 127.0.0.1, a test CA and server certificate, and
/// the password files made by `motionctl provision` (devices in `passwd`, operators in `operators.passwd`).
/// The ACL gets one line for the test subscribers' private sync topic, which grants nothing under `motion/`.
public final class FleetBroker: @unchecked Sendable {
    // Used by one test at a time; the broker process is stopped in `deinit`.
    public let directory: String
    public let certificates: TestCertificates
    /// The listeners: device certificates (8883), device passwords (8884), operators (8885).
    public let certificatePort: Int, devicePort: Int, operatorPort: Int
    private let pid: pid_t
    public let logPath: String

    public static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Deploy/mosquitto").standardizedFileURL.path

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Provisions `devices` and `operators` with passwords and starts the broker.
    public init(devices: [String], operators: [String] = ["operator"]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-broker-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        certificates = try TestCertificates(directory: directory)
        for (names, file, extra) in [(devices, "passwd", [String]()), (operators, "operators.passwd", ["--operator"])] {
            var lines = ""
            for name in names {
                let run = try AgentProcess.run("motionctl", arguments: ["provision", name, "--password", "--output", directory] + extra)
                guard run.status == 0 else { throw Failure(description: "provision \(name): \(run.log)") }
                lines += try String(contentsOfFile: "\(directory)/\(name).passwd", encoding: .utf8)
            }
            try lines.write(toFile: "\(directory)/\(file)", atomically: true, encoding: .utf8)
        }
        try (String(contentsOfFile: "\(Self.deploy)/motionbridge.acl", encoding: .utf8) + "\npattern readwrite motionbridge-test/sync/%c\n")
            .write(toFile: "\(directory)/motionbridge.acl", atomically: true, encoding: .utf8)
        (certificatePort, devicePort, operatorPort) = (
            try MosquittoBroker.freeLoopbackPort(), try MosquittoBroker.freeLoopbackPort(), try MosquittoBroker.freeLoopbackPort())
        logPath = directory + "/broker.log"
        var configuration = try String(contentsOfFile: "\(Self.deploy)/fleet.conf", encoding: .utf8)
            .replacingOccurrences(of: "/etc/mosquitto/motionbridge/", with: directory + "/")
            .replacingOccurrences(of: "/var/lib/mosquitto/", with: directory + "/data/")
            .replacingOccurrences(of: "pid_file /run/mosquitto/mosquitto.pid", with: "pid_file \(directory)/mosquitto.pid")
            .replacingOccurrences(of: "log_dest file /var/log/mosquitto/mosquitto.log", with: "log_dest file \(logPath)")
        for (port, local) in [(8883, certificatePort), (8884, devicePort), (8885, operatorPort)] {
            configuration = configuration.replacingOccurrences(of: "\nlistener \(port)\n", with: "\nlistener \(local) 127.0.0.1\n")
        }
        let settings = configuration.split(separator: "\n").filter { !$0.hasPrefix("#") }
        guard !settings.contains(where: { $0.contains("/etc/") || $0.contains("/var/") || $0.contains("/run/") }),
              settings.filter({ $0.hasPrefix("listener ") }).count == 3, configuration.contains("listener \(operatorPort) 127.0.0.1")
        else {
            throw Failure(description: "fleet.conf changed shape: the test's rewrite missed a path or a listener")
        }
        configuration += "\nlog_type debug\n" + (getuid() == 0 ? "user root\n" : "")
        try configuration.write(toFile: "\(directory)/mosquitto.conf", atomically: true, encoding: .utf8)
        pid = try CommandLineTool.spawn(MosquittoBroker.executablePath, ["-c", "\(directory)/mosquitto.conf"], outputPath: "\(directory)/mosquitto.out")
        let listening = eventually(within: .seconds(5)) {
            let text = self.log()
            return [operatorPort, devicePort, certificatePort].allSatisfy { text.contains("port \($0)") }
        }
        guard listening else { throw Failure(description: "fleet broker did not start: \(log())") }
    }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: directory)
    }

    public func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    public func password(_ name: String) throws -> MQTTPassword { try MQTTPassword(contentsOfFile: "\(directory)/\(name).password") }

    public var tls: MQTTTLSConfiguration { MQTTTLSConfiguration(caFile: certificates.caCertificatePath) }

    /// The configuration of agent `id` on the device password listener: `motionctl provision`'s snippet with
    /// this broker's address and files (as an operator edits it when installing the board), plus `extra`.
    public func agentConfiguration(_ id: String, extra: [String: Any] = [:]) throws -> String {
        let snippet = try String(contentsOfFile: "\(directory)/\(id).agent.json", encoding: .utf8)
            .replacingOccurrences(of: "mqtt://broker.example:8884", with: "mqtt://127.0.0.1:\(devicePort)")
            .replacingOccurrences(of: "/etc/motion-agent/ca.crt", with: certificates.caCertificatePath)
            .replacingOccurrences(of: "/etc/motion-agent/", with: "\(directory)/")
        var document = try JSONSerialization.jsonObject(with: Data(snippet.utf8)) as? [String: Any] ?? [:]
        document["device"] = "sim"
        document.merge(extra) { $1 }
        let path = "\(directory)/\(id)-agent.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `motionctl`'s options to log in as `name` on the operator listener.
    public func operatorOptions(_ name: String = "operator") -> [String] {
        ["--broker", "mqtt://127.0.0.1:\(operatorPort)", "--username", name, "--password-file", "\(directory)/\(name).password",
         "--ca-file", certificates.caCertificatePath]
    }

    /// A client of device `id`'s credentials on the device password listener, with `clientID`.
    public func deviceClient(_ id: String, clientID: String, onMessage: @escaping @Sendable (MQTTMessage) -> Void = { _ in }) throws -> MQTTClient {
        var configuration = MQTTClientConfiguration(
            broker: MQTTBrokerAddress(host: "127.0.0.1", port: devicePort), clientID: clientID, keepAlive: 10, reconnectDelay: 1...2,
            username: id, password: try password(id), tls: tls)
        configuration.cleanSession = true
        return try MQTTClient(configuration: configuration) { event in
            if case .message(let message) = event { onMessage(message) }
        }
    }
}
