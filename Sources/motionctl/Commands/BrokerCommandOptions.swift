import MQTT

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
}
