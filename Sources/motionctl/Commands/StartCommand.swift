import MotionContract

/// `motionctl start PATTERN SERVICE`: starts a service on every matching device and waits for each
/// device's answer.
enum StartCommand {
    static let usage = """
        usage: motionctl start PATTERN SERVICE [--interval SECONDS] [--frame FRAME] \(FleetCommandRound.usage)
          starts SERVICE (accelerometer, gyro, magnetometer, device-motion) on every device matching PATTERN,
          with the update interval and (device-motion) reference frame given
        \(FleetCommandRound.explanation)
        """

    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: FleetCommandRound.valued.union(["--interval", "--frame"]), switches: ["--json"], usage: usage)
        guard options.positional.count == 2 else { options.fail("start needs PATTERN SERVICE") }
        let interval = options.number("--interval", atLeast: ControlCommand.intervalRange.lowerBound,
                                      atMost: ControlCommand.intervalRange.upperBound)
        let frameName = options["--frame"]
        let request = FleetCommandRound.request(options, pattern: options.positional[0], service: options.positional[1]) { service in
            var frame: AttitudeReferenceFrame?
            if let frameName {
                guard service == .deviceMotion else { options.fail("--frame is for device-motion only") }
                guard let known = AttitudeReferenceFrame(rawValue: frameName) else {
                    options.fail("--frame: unknown frame \(frameName) (one of \(ReferenceFrameName.all.joined(separator: ", ")))")
                }
                frame = known
            }
            return ControlCommand(active: true, interval: interval, referenceFrame: frame).payload()
        }
        FleetCommandRound.run(request)
    }
}
