/// The options of `motion-bench`; see ``usage``.
struct BenchCommandLine {
    /// What to measure.
    enum Command: String {
        /// QoS 0 burst over one connection (Swift MQTTClient).
        case throughput
        /// The agent on the simulated IMU.
        case agent
        /// The C floor program: agent-like run and QoS 0 burst.
        case floor
        /// Everything, with the targets table.
        case all
    }

    /// The usage text.
    static let usage = """
        usage: motion-bench throughput [--messages N] [--payload BYTES] [--window W] [--broker URL] [--json]
               motion-bench agent [--agent PATH] [--device SPEC] [--seconds S] [--warmup S] [--broker URL] [--json]
               motion-bench floor [--floor PATH] [--seconds S] [--messages N] [--broker URL] [--json]
               motion-bench all [all of the above options]
          --messages N      QoS 0 burst length (default 500000)
          --payload BYTES   burst payload size (default 32)
          --window W        at most W published but unwritten messages (default 1000; 0 = unpaced)
          --agent PATH      motion-agent executable (default: next to motion-bench)
          --device SPEC     the agent's device (default sim:rate=1000)
          --floor PATH      the C floor program (default: motion-floor next to motion-bench, built from
                            Benchmarks/c-floor/floor.c with gcc if missing)
          --seconds S       measurement length after the warm-up (default 20)
          --warmup S        warm-up after the first data message (default 2)
          --broker URL      use this broker instead of starting a private mosquitto
          --json            print JSON instead of the text table
        """

    var command: Command
    var messages = 500_000
    var payloadBytes = 32
    var window = 1000
    var agentPath: String?
    var device = "sim:rate=1000"
    var floorPath: String?
    var seconds = 20.0
    var warmUpSeconds = 2.0
    var brokerURL: String?
    var json = false

    /// Parses the arguments (without the program name).
    /// - Throws: ``BenchError`` for an unknown command or option, or a bad value.
    init(arguments: [String]) throws(BenchError) {
        var remaining = arguments[...]
        guard let first = remaining.popFirst(), let command = Command(rawValue: first) else {
            throw BenchError("expected a command: throughput, agent, floor or all")
        }
        self.command = command
        func text(_ option: String) throws(BenchError) -> String {
            guard let value = remaining.popFirst() else { throw BenchError("\(option) needs a value") }
            return value
        }
        func number(_ option: String, atLeast minimum: Double) throws(BenchError) -> Double {
            let value = try text(option)
            guard let number = Double(value), number >= minimum else {
                throw BenchError("\(option): expected a number >= \(minimum), got \"\(value)\"")
            }
            return number
        }
        while let option = remaining.popFirst() {
            switch option {
            case "--messages": messages = Int(try number(option, atLeast: 1))
            case "--payload": payloadBytes = Int(try number(option, atLeast: 0))
            case "--window": window = Int(try number(option, atLeast: 0))
            case "--agent": agentPath = try text(option)
            case "--device": device = try text(option)
            case "--floor": floorPath = try text(option)
            case "--seconds": seconds = try number(option, atLeast: 0.5)
            case "--warmup": warmUpSeconds = try number(option, atLeast: 0)
            case "--broker": brokerURL = try text(option)
            case "--json": json = true
            default: throw BenchError("unknown option \(option)")
            }
        }
        guard window < 65_535 else { throw BenchError("--window must be below 65535 (MQTT message IDs wrap)") }
    }
}
