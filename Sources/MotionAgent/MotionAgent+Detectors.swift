import MotionLog

// The on-board motion detectors (``DetectorService``) under the agent's control: started with the device,
// restarted or re-announced when their settings change.
extension MotionAgent {
    /// On the control queue: starts the detectors the configuration switches on, unless they run already,
    /// the device is not open or the agent stops.
    func startDetectors() {
        guard state.withLock({ $0.deviceError == nil && !$0.shuttingDown }) else { return }
        detectors.start(configuration)
    }

    /// On the control queue: stops the detectors (the event count goes on when they start again).
    func stopDetectors() {
        detectors.stop()
    }

    /// On the control queue, after the detectors' settings changed: the detectors start over when what
    /// they detect changed (`restart`; a change of the events' QoS or format alone keeps them, with their
    /// states and tilt reference, and takes effect in the running one), and the states and discovery are
    /// announced again.
    func detectorSettingsChanged(restart: Bool) {
        let settings = configuration.detectors
        if restart {
            stopDetectors()
            startDetectors()
            // The steps and activity services follow the moving and activity thresholds.
            activityMonitor.setDetectors(DetectorPipeline.activityBank(settings))
        } else {
            detectors.publishEvents(as: settings)
        }
        if let client = state.withLock({ $0.shuttingDown ? nil : $0.client }), client.isConnected {
            detectors.announce(configuration, on: client)
        }
        Logger.agent.notice(!settings.enabled ? "motion detectors off" : restart ? "motion detectors restarted with new settings"
            : "motion events now QoS \(settings.qos), \(settings.format.rawValue)")
    }
}
