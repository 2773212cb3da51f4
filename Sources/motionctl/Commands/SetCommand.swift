import MotionContract

/// `motionctl set PATTERN SERVICE COMMAND`: sends one control command to a service of every matching
/// device and waits for each device's answer.
enum SetCommand {
    static let usage = """
        usage: motionctl set PATTERN SERVICE COMMAND \(FleetCommandRound.usage)
          sends COMMAND (start, stop, or JSON such as {"interval":0.1}) to {prefix}/{id}/{service}/set of every
          device matching PATTERN; a COMMAND the agent would refuse is refused here, before anything is sent
        \(FleetCommandRound.explanation)
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: FleetCommandRound.valued, switches: ["--json"], usage: usage)
        guard options.positional.count == 3 else { options.fail("set needs PATTERN SERVICE COMMAND") }
        let text = options.positional[2]
        let request = FleetCommandRound.request(options, pattern: options.positional[0], service: options.positional[1]) { service in
            do {
                _ = try ControlCommand.parse(Array(text.utf8), for: service)
            } catch {
                options.fail("COMMAND: \(error)")
            }
            return Array(text.utf8)
        }
        FleetCommandRound.run(request)
    }
}
