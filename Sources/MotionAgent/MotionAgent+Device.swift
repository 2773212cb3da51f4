import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionLog
import MotionMath
import MotionSupervision
import Synchronization

// The device, its calibration, the magnetic reference and the field recording.
extension MotionAgent {
    /// First delay before opening a device again that was unavailable at start, s; it doubles up to
    /// ``maximumDeviceRetryDelay``.
    static let firstDeviceRetryDelay = 1.0
    /// Longest delay between attempts to open the device, s.
    static let maximumDeviceRetryDelay = 30.0

    /// Hands the device that could not be opened to the supervisor, which opens it again after 1 s, then
    /// after twice the delay each time up to ``maximumDeviceRetryDelay``.
    func superviseDeviceOpen(after error: any Error) {
        deviceSupervisor.succeeded()  // a new episode: from the first delay
        let delay = deviceSupervisor.retry { [weak self] in self?.retryDeviceOpen() ?? .abandoned }
        Logger.agent.warning("device \(configuration.device): \(error); trying again in \(Int(delay)) s")
    }

    /// On the control queue: opens the device that was unavailable (a chip not yet powered, a driver not
    /// yet loaded); on success starts the active services and the recording and publishes the new state,
    /// otherwise publishes a changed reason (the supervisor tries again).
    func retryDeviceOpen() -> DeviceSupervisor.Outcome {
        guard state.withLock({ !$0.shuttingDown && $0.deviceError != nil }) else { return .abandoned }
        let configuration = self.configuration
        do {
            try openDevice()
        } catch {
            let description = (error as? IMUDeviceError)?.description ?? "\(error)"
            let changed = state.withLock { state -> Bool in
                defer { state.deviceError = description }
                return state.deviceError != description
            }
            if changed {
                Logger.agent.warning("device \(configuration.device): \(description)")
                publishDeviceState()
            }
            return .failed
        }
        Logger.agent.notice("device \(configuration.device) opened")
        state.withLock { $0.deviceError = nil }
        startActiveServices()
        do { try startRecording() } catch { Logger.agent.error("\(error)") }
        publishDeviceState()
        return .succeeded
    }

    /// Opens the configured device, turned into the board's axes by the configured mount matrix; without
    /// it the engine has no device (it never falls back to another one).
    /// - Throws: `IMUDeviceError` when the string is invalid or the device cannot be opened.
    func openDevice() throws {
        let configuration = self.configuration
        do {
            try engine.openDevice(specification: configuration.device, mountMatrix: configuration.mountMatrix ?? .identity)
        } catch {
            engine.setDevice(nil)
            throw error
        }
    }

    /// On the control queue: starts the updates of every active service, and the motion detectors.
    func startActiveServices() {
        for service in MotionService.allCases where state.withLock({ $0.services[service].active }) {
            startUpdates(service)
        }
        startDetectors()
    }

    /// Starts the configured field recording of raw samples, if any.
    /// - Throws: ``ConfigurationError`` for `record.file` when the file cannot be created.
    func startRecording() throws(ConfigurationError) {
        guard let recording = configuration.recording else { return }
        do {
            try engine.startRecording(toFile: recording.file, duration: recording.seconds)
        } catch {
            throw ConfigurationError(fieldPath: "record.file", reason: "cannot record to \(recording.file): \(error)")
        }
        Logger.agent.info("recording raw samples to \(recording.file) (at most \(recording.seconds) s)")
    }

    /// Publishes `info` and every service status again (after the device came or changed), when connected.
    func publishDeviceState() {
        guard let client = state.withLock({ $0.shuttingDown ? nil : $0.client }), client.isConnected else { return }
        do {
            try client.publish(MQTTMessage(
                topic: topics.info, string: infoPayload(), qos: .atLeastOnce, retain: true, contentType: Self.json))
            for service in MotionService.allCases { try publishStatus(service, on: client) }
        } catch {
            Logger.agent.error("publishing the device's state failed: \(error)")
        }
    }

    /// Reads the calibration file at `path` and has the engine apply it to every sample.
    /// - Throws: ``ConfigurationError`` for field `calibration` naming the file and its bad field.
    func applyCalibration(_ path: String) throws(ConfigurationError) {
        let calibration = try AgentConfiguration.loadCalibration(path)
        engine.setCalibration(calibration)
        let parts = [
            calibration.gyroscope.map { _ in "gyroscope" }, calibration.accelerometer.map { _ in "accelerometer" },
            calibration.magnetometer.map { "magnetometer (\($0.quality.rawValue))" },
        ].compactMap { $0 }
        Logger.agent.info("calibration \(path): \(parts.isEmpty ? "no parts" : parts.joined(separator: ", "))")
    }

    /// Gives the engine the magnetic declination for true north (a running true-north service follows).
    /// - Throws: ``ConfigurationError`` for values outside the ranges that validation checks.
    func apply(_ reference: MagneticReference?) throws(ConfigurationError) {
        switch reference {
        case .location(let latitude, let longitude, let altitude):
            engine.setLocation(try MagneticReference.geodeticLocation(latitude: latitude, longitude: longitude, altitude: altitude))
        case .declination(let degrees):
            try reference?.validate()
            engine.setMagneticDeclination(degrees)
        case nil:
            return
        }
        if let declination = engine.magneticDeclination {
            Logger.agent.info("magnetic declination \(declination.fixedDecimal(places: 2))° (true north available)")
        }
    }
}
