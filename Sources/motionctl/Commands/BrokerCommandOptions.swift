import Foundation
import MQTT
import Synchronization

/// The options every broker command takes: `--broker mqtt://HOST:PORT` and `--prefix motion`.
struct BrokerCommandOptions {
    /// The broker's address.
    let broker: MQTTBrokerAddress
    /// The contract's first topic level.
    let prefix: String

    /// The option names, for ``CommandOptions``.
    static let valued: Set<String> = ["--broker", "--prefix"]
    /// The usage line's part for them.
    static let usage = "[--broker mqtt://HOST:PORT] [--prefix motion]"

    /// Reads the options; a usage error names a broker address that cannot be used.
    init(_ options: CommandOptions) {
        do {
            broker = try MQTTBrokerAddress(url: options["--broker"] ?? "mqtt://127.0.0.1:1883")
        } catch {
            options.fail("--broker: \(error)")
        }
        prefix = options["--prefix"] ?? "motion"
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
                    broker: broker, clientID: "motionctl-\(command)-\(ProcessInfo.processInfo.processIdentifier)")
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
