import MotionContract

/// `motionctl stop PATTERN SERVICE`: stops a service on every matching device and waits for each
/// device's answer.
enum StopCommand {
    static let usage = """
        usage: motionctl stop PATTERN SERVICE \(FleetCommandRound.usage)
          stops SERVICE (accelerometer, gyro, magnetometer, device-motion) on every device matching PATTERN
        \(FleetCommandRound.explanation)
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(arguments, valued: FleetCommandRound.valued, switches: ["--json"], usage: usage)
        guard options.positional.count == 2 else { options.fail("stop needs PATTERN SERVICE") }
        let request = FleetCommandRound.request(options, pattern: options.positional[0], service: options.positional[1]) { _ in
            ControlCommand(active: false).payload()
        }
        FleetCommandRound.run(request)
    }
}
