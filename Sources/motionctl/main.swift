// motionctl: the fleet tool. Each command is a type under Commands/ with its own usage; this file only
// dispatches. `motionctl --help` (or `-h`, `help`) lists them; `motionctl COMMAND --help` prints one.
import Foundation
import MotionCommandLine

/// Every command: its name, a one-line summary and where it runs.
let commands: [(name: String, summary: String, usage: String, run: ([String]) -> Never)] = [
    ("devices", "list the devices under a prefix: online, offline or stale", DevicesCommand.usage, DevicesCommand.run),
    ("watch", "live table of the devices under a prefix", WatchCommand.usage, WatchCommand.run),
    ("events", "follow the motion events (and states) of the matching devices", EventsCommand.usage, EventsCommand.run),
    ("vibration", "follow one machine's vibration: zone, levels, spectrum and peaks", VibrationCommand.usage, VibrationCommand.run),
    ("start", "start a service on the matching devices and wait for their answers", StartCommand.usage, StartCommand.run),
    ("stop", "stop a service on the matching devices and wait for their answers", StopCommand.usage, StopCommand.run),
    ("set", "send a control command to the matching devices and wait for their answers", SetCommand.usage, SetCommand.run),
    ("config", "show a device's run-time configuration, or change it on the matching devices", ConfigCommand.usage, ConfigCommand.run),
    ("hardware", "list the board's IMUs (IIO and I²C)", HardwareCommand.usage, HardwareCommand.run),
    ("record", "write an IMU's samples to a recording", RecordCommand.usage, RecordCommand.run),
    ("calibrate", "guide a person through calibrating an IMU", CalibrateCommand.usage, CalibrateCommand.run),
    ("fuse", "run the attitude filter over a recording", FuseCommand.usage, FuseCommand.run),
    ("provision", "prepare a new device's broker credentials", ProvisionCommand.usage, ProvisionCommand.run),
    ("simulate", "run N simulated agents in one process, for capacity planning", SimulateCommand.usage, SimulateCommand.run),
]

let overview = """
    usage: motionctl COMMAND [OPTIONS]   (motionctl COMMAND --help for its options)
    \(commands.map { "  " + $0.name.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))
    """

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else { CommandOptions.usageError("missing command", usage: overview) }
if ["--help", "-h", "help"].contains(name) {
    print(overview)
    exit(0)
}
guard let command = commands.first(where: { $0.name == name }) else {
    CommandOptions.usageError(
        name == "bench" ? "`bench broad` moved to motion-bench: motion-bench broad DIR" : "unknown command \(name)",
        usage: overview)
}
command.run(Array(arguments.dropFirst()))
