import MotionCommandLine
import Testing

/// The one scanner of the three programs: options, switches, positional arguments, `--help` anywhere,
/// and errors that name the option.
@Suite struct ArgumentScannerTests {
    @Test func optionsSwitchesAndPositionalArgumentsAreTold() throws {
        let scanner = try ArgumentScanner(
            ["devices", "--broker", "mqtt://h:1", "--json", "motion/*", "--broker", "mqtt://h:2"],
            valued: ["--broker"], switches: ["--json"])
        #expect(scanner["--broker"] == "mqtt://h:2", "the last of a repeated option wins")
        #expect(scanner.has("--json") && !scanner.has("--watch"))
        #expect(scanner.positional == ["devices", "motion/*"])
        #expect(!scanner.helpRequested)
    }

    @Test(arguments: [["--help"], ["-h"], ["status", "--broker", "x", "--help"]])
    func helpIsSeenAnywhere(arguments: [String]) throws {
        #expect(try ArgumentScanner(arguments, valued: ["--broker"]).helpRequested)
    }

    @Test func negativeNumbersArePositionalNotOptions() throws {
        let scanner = try ArgumentScanner(["-12.5", "-3"])
        #expect(scanner.positional == ["-12.5", "-3"])
        #expect(try ArgumentScanner(["--offset", "-0.5"], valued: ["--offset"]).number("--offset") == -0.5)
    }

    @Test func errorsNameTheOption() {
        #expect(throws: CommandLineError("unknown option --verbose")) { try ArgumentScanner(["--verbose"]) }
        #expect(throws: CommandLineError("unknown option -v")) { try ArgumentScanner(["-v"]) }
        #expect(throws: CommandLineError("--broker needs a value")) { try ArgumentScanner(["--broker"], valued: ["--broker"]) }
        #expect(throws: CommandLineError("--broker needs a value")) {
            try ArgumentScanner(["--broker", "--json"], valued: ["--broker"], switches: ["--json"])
        }
        #expect(CommandLineError.exitStatus == 64)
    }

    @Test func numbersAreCheckedAgainstTheirBounds() throws {
        let scanner = try ArgumentScanner(
            ["--rate", "50", "--seconds", "nan", "--count", "3.5", "--devices", "0"],
            valued: ["--rate", "--seconds", "--count", "--devices"])
        #expect(try scanner.number("--rate", atLeast: 1, atMost: 1000) == 50)
        #expect(try scanner.number("--missing") == nil)
        #expect(throws: CommandLineError("--rate: expected a number between 100.0 and 200.0, got \"50\"")) {
            try scanner.number("--rate", atLeast: 100, atMost: 200)
        }
        #expect(throws: CommandLineError("--seconds: expected a number >= 0.0, got \"nan\"")) {
            try scanner.number("--seconds", atLeast: 0)
        }
        #expect(throws: CommandLineError("--count: expected a whole number, got \"3.5\"")) { try scanner.integer("--count") }
        #expect(throws: CommandLineError("--devices: expected a whole number >= 1, got \"0\"")) {
            try scanner.integer("--devices", atLeast: 1)
        }
        #expect(throws: CommandLineError("--rate: expected a whole number <= 10, got \"50\"")) { try scanner.integer("--rate", atMost: 10) }
    }

    @Test func extraPositionalArgumentsAreRefusedByName() throws {
        let scanner = try ArgumentScanner(["status", "dev-a", "dev-b"])
        #expect(throws: Never.self) { try scanner.expectPositional(atMost: 3) }
        #expect(throws: CommandLineError("unexpected argument dev-b")) { try scanner.expectPositional(atMost: 2) }
    }
}
