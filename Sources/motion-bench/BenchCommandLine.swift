import MotionCommandLine

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

    /// Parses the arguments (without the program name) with the programs' shared ``ArgumentScanner``.
    /// - Throws: ``MotionCommandLine/CommandLineError`` naming the unknown command or option, or the bad value.
    init(arguments: [String]) throws(CommandLineError) {
        guard let first = arguments.first, let command = Command(rawValue: first) else {
            throw CommandLineError("expected a command: throughput, agent, floor, all, broad, broad-variants, payloads, vibration or formats")
        }
        self.command = command
        let options = try ArgumentScanner(
            Array(arguments.dropFirst()),
            valued: ["--messages", "--payload", "--window", "--agent", "--device", "--floor", "--seconds", "--warmup", "--broker"],
            switches: ["--json"])
        try options.expectPositional(atMost: 0)
        messages = try options.integer("--messages", atLeast: 1) ?? messages
        payloadBytes = try options.integer("--payload", atLeast: 0) ?? payloadBytes
        window = try options.integer("--window", atLeast: 0, atMost: 65_534) ?? window
        agentPath = options["--agent"]
        device = options["--device"] ?? device
        floorPath = options["--floor"]
        seconds = try options.number("--seconds", atLeast: 0.5) ?? seconds
        warmUpSeconds = try options.number("--warmup", atLeast: 0) ?? warmUpSeconds
        brokerURL = options["--broker"]
        json = options.has("--json")
    }
}
