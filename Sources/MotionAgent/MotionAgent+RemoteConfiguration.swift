import Dispatch
import MQTT
import MotionContract
import MotionHAL
import MotionLog
import MotionSupervision
import Synchronization

// Remote configuration: documents on `{base}/config/set` (the desired state), the retained `{base}/config`
// (the reported state), the state file that keeps the documents, and the one way both reloads and
// documents change the configuration in force.
extension MotionAgent {
    /// The largest configuration document taken, bytes (every run-time field set is under 2 KiB).
    static let maximumConfigurationDocument = 64 * 1024

    /// On the control queue: a document received on `{base}/config/set`. Checked, merged into the
    /// accepted ones and applied to the file's configuration; kept in the state file before anything
    /// changes (or in memory only, when the file cannot be written: said in the log, in health and in the
    /// answer's `warning`); then applied without reconnecting, reported on `{base}/config` and answered
    /// `{"ok":true,"version":n}`. A document that fails any check is answered with the reason and changes
    /// nothing.
    func handleConfigurationDocument(_ message: MQTTMessage) {
        guard isAnswerable(message, service: nil) else { return }
        let (file, remote, inForce, store) = state.withLock { ($0.fileConfiguration, $0.remote, $0.configuration, $0.remoteStore) }
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
        state.withLock { state in
            state.remote = next
            state.remoteStore = keeping
            state.remoteError = nil
        }
        let notes = apply(candidate, keepingCommandedStates: true)
        Logger.agent.notice(
            "remote configuration version \(next.version) applied" + (notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")))
        respond(to: message, with: CommandAnswer.accepted(version: next.version, warning: warning).json())
    }

    /// On the control queue: makes `new` the configuration in force without dropping the connection (the
    /// service settings, health interval, magnetic reference, calibration and mount matrix; what needs a
    /// restart stays and is returned as notes), then publishes `{base}/config`.
    /// - Parameter keepingCommandedStates: see ``ReloadPlan``.
    /// - Returns: one line per setting that was not applied.
    func apply(_ new: AgentConfiguration, keepingCommandedStates: Bool) -> [String] {
        let old = configuration
        let plan = ReloadPlan(
            from: old, to: new, services: state.withLock { $0.services.byService }, keepingCommandedStates: keepingCommandedStates)
        var notes = plan.restartNotes
        state.withLock { state in
            state.configuration.services = new.services
            state.configuration.healthInterval = new.healthInterval
            state.configuration.detectors = new.detectors
            state.configuration.magneticReference = new.magneticReference
            state.configuration.mountMatrix = plan.reopensDevice ? new.mountMatrix : old.mountMatrix
            state.configuration.remoteConfiguration.enabled = new.remoteConfiguration.enabled
            if old.runtimeSettings != state.configuration.runtimeSettings { state.configurationSince = WallClock.unixTime() }
        }
        if plan.reloadsCalibration {
            do {
                if let path = new.calibration {
                    try applyCalibration(path)
                } else {
                    engine.setCalibration(nil)
                }
                state.withLock { $0.configuration.calibration = new.calibration }
            } catch {
                notes.append("calibration: \(error)")
            }
        }
        if plan.changesMagneticReference {
            // Validated with the file: a failure here would be a range the validation missed.
            do { try apply(new.magneticReference) } catch { notes.append("magnetic reference: \(error)") }
        }
        if plan.reopensDevice {
            reopenDevice()
        } else if MotionService.allCases.contains(where: {
            old.settings(for: $0).sampling.mode != new.settings(for: $0).sampling.mode || old.settings(for: $0).format != new.settings(for: $0).format
        }) {
            publishDeviceState()  // `info` names each topic's mode and format
        }
        for (service, next) in plan.restartedServices {
            state.withLock { $0.services[service] = next }
            restart(service)
        }
        if plan.changesDetectors || plan.restartsDetectors { detectorSettingsChanged(restart: plan.restartsDetectors) }
        scheduleHealthReports(every: new.healthInterval)
        if let client = state.withLock({ $0.client }), client.isConnected { publishConfiguration(on: client) }
        return notes
    }

    /// Opens the device again under the mount matrix now in force (the subscriptions stay; the fusion
    /// starts over in the new axes); a device that cannot be opened is retried as at start.
    private func reopenDevice() {
        do {
            try openDevice()
            Logger.agent.notice("device \(configuration.device) reopened with mount matrix \(configuration.mountMatrix ?? .identity)")
            publishDeviceState()
        } catch {
            state.withLock { $0.deviceError = "\(error)" }
            publishDeviceState()
            superviseDeviceOpen(after: error)
        }
    }

    /// The report of the configuration in force.
    var configurationReport: ConfigurationReport {
        state.withLock { state in
            // With remote configuration off, the kept documents are not in force: everything is the file's.
            let remote = state.configuration.remoteConfiguration.enabled ? state.remote : RemoteConfiguration(version: state.remote.version)
            return state.configuration.configurationReport(remote: remote, ts: state.configurationSince, error: state.remoteError)
        }
    }

    /// Publishes the retained `{base}/config`.
    func publishConfiguration(on client: any MessageTransport) {
        do {
            try client.publish(MQTTMessage(
                topic: topics.configuration, string: configurationReport.json(), qos: .atLeastOnce, retain: true,
                contentType: Self.json))
        } catch {
            Logger.agent.error("publishing the configuration report failed: \(error)")
        }
    }
}
