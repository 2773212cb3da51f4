import MotionContract

extension ServiceState {
    /// The state `command` leads to, decided without side effects: the agent applies it, or answers the
    /// refusal and changes nothing (a command that cannot work is refused, not accepted and left to fail).
    ///
    /// Refused: starting a service that cannot deliver data now, and a reference frame the device cannot
    /// compute now (true north without a magnetic declination, a north frame without a magnetometer).
    /// - Parameters:
    ///   - command: a command that ``ControlCommand/parse(_:for:)`` accepted.
    ///   - service: the service it is for.
    ///   - unavailableReason: why the service cannot deliver data now, or `nil` when it can.
    ///   - availableFrames: the reference frames the device can compute now, or `nil` while no device is
    ///     open (then any frame is accepted, and checked again when the service starts).
    /// - Throws: ``ControlCommandError`` saying why the command is refused.
    public func applying(
        _ command: ControlCommand, for service: MotionService, unavailableReason: String?, availableFrames: Set<AttitudeReferenceFrame>?
    ) throws(ControlCommandError) -> ServiceState {
        if let frame = command.referenceFrame, let availableFrames, !availableFrames.contains(frame) {
            throw ControlCommandError(
                "reference frame \(frame.rawValue) is not available on this device: "
                    + (frame == .xTrueNorthZVertical
                        ? "it needs the magnetic declination (location or declination in the configuration)"
                        : "it needs a magnetometer"))
        }
        // A new frame may be what makes an unavailable device motion work again.
        let frameWasTheProblem = command.referenceFrame != nil && availableFrames != nil
            && settings.referenceFrame.map { !availableFrames!.contains($0) } == true
        if command.active == true, let unavailableReason, !frameWasTheProblem {
            throw ControlCommandError("\(service.topicName) is unavailable: \(unavailableReason)")
        }
        if command.requestsSpectrum, !active {
            throw ControlCommandError("\(service.topicName) is not running: start it first")
        }
        if let interval = command.interval, service == .vibration, interval < ServiceSettings.shortestVibrationInterval {
            throw ControlCommandError("interval: must be 1…3600 seconds for the vibration service (a summary)")
        }
        var next = self
        if let interval = command.interval { next.settings.sampling.interval = interval }
        if let frame = command.referenceFrame { next.settings.referenceFrame = frame }
        if let active = command.active { next.active = active }
        return next
    }
}
