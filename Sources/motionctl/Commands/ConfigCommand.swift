import Foundation

/// `motionctl config get|set`: a device's run-time configuration, read from its retained `{base}/config`
/// and changed through `{base}/config/set`.
enum ConfigCommand {
    static let usage = """
        usage: motionctl config get DEVICE [--json] \(BrokerCommandOptions.usage)
               motionctl config set PATTERN FILE|KEY=VALUE… \(FleetCommandRound.usage)
          get: the run-time configuration DEVICE has in force, each setting with where it came from (file or
               remote), its version and hash
          set: merges a document into the run-time configuration of every device matching PATTERN (services,
               health_interval, mount_matrix, with the configuration file's names; `null` hands a setting back
               to the device's file); kept in the device's state file and applied without reconnecting
        (motionctl config get --help, motionctl config set --help for the details)
        """

    static func run(_ arguments: [String]) -> Never {
        switch arguments.first {
        case "get": ConfigGetCommand.run(Array(arguments.dropFirst()))
        case "set": ConfigSetCommand.run(Array(arguments.dropFirst()))
        case "--help", "-h":
            print(usage)
            exit(0)
        case let other:
            CommandOptions.usageError(other.map { "unknown config command \($0) (get or set)" } ?? "config needs get or set", usage: usage)
        }
    }
}
