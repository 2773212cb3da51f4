import Foundation
import MQTT
import MotionAgent
import Synchronization

/// The options every broker command takes: `--broker mqtt://HOST:PORT`, `--prefix motion`, and the
/// broker's credentials as a fleet broker wants them (Deploy/mosquitto/fleet.conf): a user name with a
/// password from a file or `MOTIONCTL_PASSWORD`, and TLS with the fleet CA and, for a listener that
/// requires one, a client certificate.
struct BrokerCommandOptions {
    /// The broker's address.
    let broker: MQTTBrokerAddress
    /// The contract's first topic level.
    let prefix: String
    /// `--username`.
    let username: String?
    /// From `--password-file` (its first line; refused when other users may read it), else from
    /// `MOTIONCTL_PASSWORD` when a user name is given.
    let password: MQTTPassword?
    /// Where ``password`` came from, for the simulated agents' own configuration.
    let passwordSource: BrokerSettings.PasswordSource?
    /// `--ca-file` (turns TLS on), `--cert` and `--key`.
    let tls: MQTTTLSConfiguration?
    /// The variable a password may come from instead of a file (never a command-line argument, which
    /// every user of the machine can read in the process list).
    static let passwordVariable = "MOTIONCTL_PASSWORD"

    /// The option names, for ``CommandOptions``.
    static let valued: Set<String> = ["--broker", "--prefix", "--username", "--password-file", "--ca-file", "--cert", "--key"]
    /// The usage line's part for them.
    static let usage = "[--broker mqtt://HOST:PORT] [--prefix motion] [--username NAME [--password-file FILE]] [--ca-file CA.crt [--cert C.crt --key C.key]]"

    /// Reads the options; a usage error names a broker address or a credential that cannot be used.
    init(_ options: CommandOptions) {
        do {
            broker = try MQTTBrokerAddress(url: options["--broker"] ?? "mqtt://127.0.0.1:1883")
        } catch {
            options.fail("--broker: \(error)")
        }
        prefix = options["--prefix"] ?? "motion"
        username = options["--username"]
        if let file = options["--password-file"] {
            guard username != nil else { options.fail("--password-file needs --username") }
            do {
                password = try MQTTPassword(contentsOfFile: file)
            } catch {
                options.fail("--password-file: \(error)")
            }
            passwordSource = .file(file)
        } else if username != nil, let secret = ProcessInfo.processInfo.environment[Self.passwordVariable], !secret.isEmpty {
            password = MQTTPassword(secret)
            passwordSource = .environment(Self.passwordVariable)
        } else {
            password = nil
            passwordSource = nil
        }
        let (caFile, certificate, key) = (options["--ca-file"], options["--cert"], options["--key"])
        guard (certificate == nil) == (key == nil) else { options.fail("--cert and --key go together") }
        guard caFile != nil || certificate == nil else { options.fail("--cert needs --ca-file (the CA that signed the broker's certificate)") }
        tls = caFile.map { MQTTTLSConfiguration(caFile: $0, certificateFile: certificate, keyFile: key) }
    }

    /// A started client that subscribes to `filters` (QoS 0) on every (re)connect and hands each message
    /// to `onMessage` on its network thread; connection problems go to standard error. Exits with status
    /// 69 (EX_UNAVAILABLE) when the client cannot be started.
    /// - Parameters:
    ///   - filters: the topic filters.
    ///   - command: the command's name, for the client id (`motionctl-COMMAND-PID`).
    ///   - onSubscribed: called on every connection after the subscriptions were sent, with the client
    ///     (what it publishes now reaches the broker after them).
    ///   - onMessage: called for every message.
    func subscriber(
        to filters: [String], command: String, onSubscribed: @escaping @Sendable (MQTTClient) -> Void = { _ in },
        onMessage: @escaping @Sendable (MQTTMessage) -> Void
    ) -> MQTTClient {
        let clientBox = Mutex<MQTTClient?>(nil)
        let broker = broker
        do {
            let client = try MQTTClient(
                configuration: MQTTClientConfiguration(
                    broker: broker, clientID: "motionctl-\(command)-\(ProcessInfo.processInfo.processIdentifier)",
                    username: username, password: password, tls: tls)
            ) { event in
                switch event {
                case .connected:
                    guard let client = clientBox.withLock({ $0 }) else { return }
                    for filter in filters { _ = try? client.subscribe(filter, qos: .atMostOnce) }
                    onSubscribed(client)
                case .message(let message):
                    onMessage(message)
                case .connectionRefused(_, let reason), .disconnected(_, let reason), .offlineBufferProblem(let reason):
                    FileHandle.standardError.write(Data("motionctl: broker \(broker): \(reason)\n".utf8))
                case .published:
                    break
                }
            }
            clientBox.withLock { $0 = client }
            try client.start()
            return client
        } catch {
            CommandOptions.exit("cannot connect to \(broker): \(error)", status: 69)  // EX_UNAVAILABLE
        }
    }

    /// Polls `condition` every 10 ms until it holds (true) or `deadline` passes (false).
    static func wait(until deadline: Date, for condition: () -> Bool) -> Bool {
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}
