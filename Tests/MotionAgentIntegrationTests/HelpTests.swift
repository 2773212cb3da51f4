import AgentTestSupport
import Testing

/// `--help` and `-h` work everywhere and exit 0, printing that program's or command's usage; a usage
/// error exits 64 naming what is wrong.
@Suite struct HelpTests {
    static let motionctlCommands = ["devices", "watch", "events", "start", "stop", "set", "hardware", "record", "calibrate", "fuse", "provision", "simulate", "config", "vibration"]

    @Test(arguments: ["--help", "-h"])
    func everyProgramAndCommandPrintsItsUsage(flag: String) throws {
        let invocations: [(String, [String], String)] =
            [("motion-agent", [flag], "usage: motion-agent"), ("motionctl", [flag], "usage: motionctl COMMAND"),
             ("motion-bench", [flag], "usage: motion-bench"), ("motion-bench", ["broad", flag], "usage: motion-bench broad"),
             ("motion-bench", ["broad-variants", flag], "usage: motion-bench broad-variants"),
             ("motion-bench", ["formats", flag], "usage: motion-bench formats"),
             ("motion-bench", ["vibration", flag], "usage: motion-bench vibration"),
             ("allocation-probe", [flag], "usage: allocation-probe")]
            + Self.motionctlCommands.map { ("motionctl", [$0, flag], "usage: motionctl \($0)") }
        for (program, arguments, expected) in invocations {
            let run = try AgentProcess.run(program, arguments: arguments)
            #expect(run.status == 0, "\(program) \(arguments): \(run.log)")
            #expect(run.output.contains(expected), "\(program) \(arguments): \(run.output)")
        }
    }

    @Test func usageErrorsNameTheProblemAndExit64() throws {
        for (program, arguments, expected) in [
            ("motionctl", ["frobnicate"], "unknown command frobnicate"), ("motionctl", ["watch", "--bogus"], "unknown option --bogus"),
            ("motionctl", ["watch", "--duration", "soon"], "--duration: expected a number"),
            ("motionctl", ["bench", "broad", "x"], "moved to motion-bench"), ("motionctl", [], "missing command"),
            ("motion-agent", ["--config"], "--config needs a value"), ("motion-bench", ["broad"], "broad takes one directory"),
            ("motion-bench", ["broad-variants", "x"], "broad-variants needs --out DIR"),
            ("motion-bench", ["broad-variants", "x", "--out", "/nonexistent", "--variant", "rate-7Hz"], "unknown variant rate-7Hz"),
        ] {
            let run = try AgentProcess.run(program, arguments: arguments)
            #expect(run.status == 64, "\(program) \(arguments): \(run.log)")
            #expect(run.log.contains(expected), "\(program) \(arguments): \(run.log)")
        }
    }
}
