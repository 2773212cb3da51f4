import MQTT
import MotionContract
import MotionHAL
import MotionLog
import MotionSupervision

// Remote configuration and reloads: documents on `{base}/config/set` (the desired state), the retained
// `{base}/config` (the reported state), the state file that keeps the documents, and the one way both
// reloads and documents change the configuration in force.
extension ControlPlane {
    /// A document received on `{base}/config/set`. Checked, merged into the accepted ones and applied to
    /// the file's configuration; kept in the state file before anything changes (or in memory only, when
    /// the file cannot be written: said in the log, in health and in the answer's `warning`); then applied
    /// without reconnecting, reported on `{base}/config` and answered `{"ok":true,"version":n}`. A document
    /// that fails any check is answered with the reason and changes nothing.
    func handleConfigurationDocument(_ message: MQTTMessage) {
        guard isAnswerable(message, service: nil) else { return }
        let (file, remote, inForce, store) = core.state.withLock { ($0.fileConfiguration, $0.remote, $0.configuration, $0.remoteStore) }
        guard inForce.remoteConfiguration.enabled else {
            return answerError("remote configuration is off on this device (remote_config.enabled)", service: nil, command: message)
        }
        guard message.payload.count <= Self.maximumConfigurationDocument else {
            return answerError(
                "configuration error: the document is larger than \(Self.maximumConfigurationDocument / 1024) KiB",
                service: nil, command: message)
        }
        let next: RemoteConfiguration
        var candidate: AgentConfiguration
        do {
            next = try remote.accepting(message.payload)
            candidate = try file.applying(remote: next.overlay)
        } catch {
            return answerError(error.description, service: nil, command: message)
        }
        // The store changes on this queue only: its file is written outside the lock.
        var keeping = store
        let warning = keeping.keep(next)
        if let warning { Logger.agent.warning("remote configuration version \(next.version): \(warning)") }
        candidate.remoteConfiguration = inForce.remoteConfiguration
        core.state.withLock { state in
            state.remote = next
            state.remoteStore = keeping
            state.remoteError = nil
        }
        let notes = apply(candidate, keepingCommandedStates: true)
        Logger.agent.notice(
            "remote configuration version \(next.version) applied" + (notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")))
        respond(to: message, with: CommandAnswer.accepted(version: next.version, warning: warning).json())
    }

    /// A new configuration file, with the accepted remote documents on top again (see
    /// ``MotionAgent/reload(_:)``).
    /// - Returns: one line per setting that was not applied.
    func reload(_ file: AgentConfiguration) -> [String] {
        let (new, remoteError) = file.inForce(with: core.state.withLock { $0.remote })
        core.state.withLock { state in
            state.fileConfiguration = file
            state.remoteError = remoteError
        }
        var notes = apply(new, keepingCommandedStates: false)
        if let remoteError { notes.append("\(remoteError); the file's values apply") }
        Logger.agent.notice("configuration reloaded" + (notes.isEmpty ? "" : "; not applied: " + notes.joined(separator: "; ")))
        return notes
    }

    /// Makes `new` the configuration in force without dropping the connection (the service settings,
    /// health interval, magnetic reference, calibration and mount matrix; what needs a restart stays and is
    /// returned as notes), then publishes `{base}/config`.
    /// - Parameter keepingCommandedStates: see ``ReloadPlan``.
    /// - Returns: one line per setting that was not applied.
    func apply(_ new: AgentConfiguration, keepingCommandedStates: Bool) -> [String] {
        let old = core.configuration
        let plan = ReloadPlan(
            from: old, to: new, services: core.state.withLock { $0.services.byService }, keepingCommandedStates: keepingCommandedStates)
        var notes = plan.restartNotes
        core.state.withLock { state in
            state.configuration.services = new.services
            state.configuration.healthInterval = new.healthInterval
            state.configuration.detectors = new.detectors
            state.configuration.magneticReference = new.magneticReference
            state.configuration.mountMatrix = plan.reopensDevice ? new.mountMatrix : old.mountMatrix
            state.configuration.remoteConfiguration.enabled = new.remoteConfiguration.enabled
            if old.runtimeSettings != state.configuration.runtimeSettings { state.configurationSince = Double(MonotonicClock.now()) / 1e9 }
        }
        if plan.reloadsCalibration {
            do {
                try devices.applyCalibration(new.calibration)
                core.state.withLock { $0.configuration.calibration = new.calibration }
            } catch {
                notes.append("calibration: \(error)")
            }
        }
        if plan.changesMagneticReference {
            // Validated with the file: a failure here would be a range the validation missed.
            do { try devices.apply(new.magneticReference) } catch { notes.append("magnetic reference: \(error)") }
        }
        if plan.reopensDevice {
            devices.reopenDevice()
        } else if MotionService.allCases.contains(where: {
            old.settings(for: $0).sampling.mode != new.settings(for: $0).sampling.mode || old.settings(for: $0).format != new.settings(for: $0).format
        }) {
            announcer.publishDeviceState()  // `info` names each topic's mode and format
        }
        for (service, next) in plan.restartedServices {
            core.state.withLock { $0.services[service] = next }
            publisher.restart(service)
        }
        if plan.changesDetectors || plan.restartsDetectors { detectorSettingsChanged(restart: plan.restartsDetectors) }
        health.schedule(every: new.healthInterval)
        if let client = core.client, client.isConnected { announcer.publishConfiguration(on: client) }
        return notes
    }

    /// After the detectors' settings changed: the detectors start over when what they detect changed
    /// (`restart`; a change of the events' QoS or format alone keeps them, with their states and tilt
    /// reference, and takes effect in the running one), and the states and discovery are announced again.
    func detectorSettingsChanged(restart: Bool) {
        let configuration = core.configuration
        let settings = configuration.detectors
        if restart {
            detectors.stop()
            // The steps and activity services follow the moving and activity thresholds: their bank alone
            // until the detectors start again with theirs (which then serves both).
            core.engine.detectors.setDetectors(DetectorPipeline.activityBank(settings))
            devices.startDetectors()
        } else {
            detectors.publishEvents(as: settings)
        }
        if let client = core.liveClient, client.isConnected {
            detectors.announce(configuration, on: client)
        }
        Logger.agent.notice(!settings.enabled ? "motion detectors off" : restart ? "motion detectors restarted with new settings"
            : "motion events now QoS \(settings.qos), \(settings.format.rawValue)")
    }
}
