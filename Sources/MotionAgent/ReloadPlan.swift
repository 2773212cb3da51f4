import MotionContract

/// What a reload (SIGHUP, a new file) or a remote document does with the new configuration, decided from
/// the old and new configurations and the services' current states alone: which settings need a restart
/// (kept as they are, reported as notes), whether the calibration, the magnetic reference and the mount
/// matrix are applied again, and which services restart with which settings. A pure value;
/// ``MotionAgent/reload(_:)`` and the remote configuration carry it out.
struct ReloadPlan {
    /// One line per setting that cannot change without a restart.
    let restartNotes: [String]
    /// Whether the calibration file is read again: it changed, or it is set (it may have been recalibrated
    /// under the same name).
    let reloadsCalibration: Bool
    /// Whether the magnetic reference (location or declination) changed.
    let changesMagneticReference: Bool
    /// Whether the device is opened again under a new mount matrix (the broker connection stays).
    let reopensDevice: Bool
    /// The services whose settings or activity change, with their new state.
    let restartedServices: [(MotionService, ServiceState)]
    /// Whether any of the motion detectors' settings changed (their states and discovery are announced
    /// again).
    let changesDetectors: Bool
    /// Whether the motion detectors start over: what they detect changed (not only the events' QoS or
    /// format), the device-motion frame their events' attitude is given in, or the device's axes.
    let restartsDetectors: Bool

    /// Plans the change from `old` to `new` for services currently in `services`.
    /// - Parameters:
    ///   - old: the configuration in force.
    ///   - new: the one to apply.
    ///   - services: the services' current states (a command may have changed them since `old`).
    ///   - keepingCommandedStates: restart only the services whose configured settings changed, leaving
    ///     what commands did to the others (a remote document changes what it names); `false` (a file
    ///     reload): every service that differs from the new file is restarted as the file says.
    init(
        from old: AgentConfiguration, to new: AgentConfiguration, services: [MotionService: ServiceState],
        keepingCommandedStates: Bool = false
    ) {
        var notes: [String] = []
        if new.device != old.device { notes.append("device changed: restart to apply") }
        if new.barometer != old.barometer { notes.append("barometer changed: restart to apply") }
        if new.remoteConfiguration.stateFile != old.remoteConfiguration.stateFile {
            notes.append("remote_config.state_file changed: restart to apply")
        }
        if new.recording != old.recording { notes.append("record changed: restart to apply") }
        if new.topics != old.topics { notes.append("device_id or topic_prefix changed: restart to apply") }
        if new.broker != old.broker { notes.append("broker settings changed: restart to apply") }
        if new.homeAssistant != old.homeAssistant { notes.append("home_assistant changed: restart to apply") }
        if new.senml != old.senml { notes.append("senml changed: restart to apply") }
        if new.sparkplug != old.sparkplug { notes.append("sparkplug changed: restart to apply") }
        restartNotes = notes
        reloadsCalibration = new.calibration != old.calibration || new.calibration != nil
        changesMagneticReference = new.magneticReference != old.magneticReference
        reopensDevice = new.device == old.device && new.mountMatrix != old.mountMatrix
        changesDetectors = new.detectors != old.detectors
        restartsDetectors = !new.detectors.detectsAlike(old.detectors) || reopensDevice
            || new.settings(for: .deviceMotion).referenceFrame != old.settings(for: .deviceMotion).referenceFrame
        restartedServices = MotionService.allCases.compactMap { service in
            let settings = new.settings(for: service)
            guard var current = services[service] else { return nil }
            if keepingCommandedStates, settings == old.settings(for: service) { return nil }
            guard current.settings != settings || current.active != settings.enabled else { return nil }
            current.settings = settings
            current.active = settings.enabled
            return (service, current)
        }
    }
}
