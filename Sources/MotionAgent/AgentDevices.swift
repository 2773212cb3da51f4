import MotionContract
import MotionEngine
import MotionHAL
import MotionLog
import MotionMath
import MotionSupervision

/// The agent's devices, a part with its own supervisors: the IMU (opened under the configured mount
/// matrix, and opened again with a back-off while it cannot be), the barometer (retried every
/// ``barometerRetryDelay``), the calibration, the magnetic reference and the field recording; and what
/// runs once the IMU is open (the active services and the detectors).
///
/// Threading: on the control queue; the supervisors run their attempts there, on the engine's clock.
final class AgentDevices: Sendable {
    /// First delay before opening a device again that was unavailable, s; it doubles up to
    /// ``maximumDeviceRetryDelay``.
    static let firstDeviceRetryDelay = 1.0
    /// Longest delay between attempts to open the device, s.
    static let maximumDeviceRetryDelay = 30.0
    /// How long the agent waits before opening a barometer again that could not be opened, s.
    static let barometerRetryDelay = 30.0

    private let core: AgentCore
    private let announcer: AgentAnnouncer
    private let publisher: ServicePublisher
    private let detectors: DetectorService
    /// Opens the device again while it cannot be opened.
    private let deviceSupervisor: DeviceSupervisor
    /// Opens the barometer again while it cannot be opened.
    private let barometerSupervisor: DeviceSupervisor

    init(core: AgentCore, announcer: AgentAnnouncer, publisher: ServicePublisher, detectors: DetectorService) {
        self.core = core
        self.announcer = announcer
        self.publisher = publisher
        self.detectors = detectors
        let clock = core.engine.environment.clock
        deviceSupervisor = DeviceSupervisor(
            backoff: Backoff(first: Self.firstDeviceRetryDelay, maximum: Self.maximumDeviceRetryDelay), clock: clock,
            queue: core.controlQueue)
        barometerSupervisor = DeviceSupervisor(
            backoff: Backoff(first: Self.barometerRetryDelay, maximum: Self.barometerRetryDelay), clock: clock,
            queue: core.controlQueue)
    }

    /// Stops both supervisors (at shutdown).
    func cancel() {
        deviceSupervisor.cancel()
        barometerSupervisor.cancel()
    }

    // MARK: - The IMU

    /// At start: opens the device; one that cannot be opened is marked unavailable and supervised.
    /// - Throws: ``ConfigurationError`` for `device` when the specification is malformed.
    func openAtStart() throws(ConfigurationError) {
        do {
            try openDevice()
        } catch {
            if case .invalidSpecification(let why) = error {
                throw ConfigurationError(fieldPath: "device", reason: why)
            }
            core.state.withLock { $0.deviceError = error.description }
            superviseDeviceOpen(after: error)
        }
    }

    /// Opens the configured device, turned into the board's axes by the configured mount matrix; without
    /// it the engine has no device (it never falls back to another one).
    /// - Throws: `IMUDeviceError` when the string is invalid or the device cannot be opened.
    private func openDevice() throws(IMUDeviceError) {
        let configuration = core.configuration
        do {
            try core.engine.openDevice(specification: configuration.device, mountMatrix: configuration.mountMatrix ?? .identity)
        } catch {
            core.engine.setDevice(nil)
            throw error
        }
    }

    /// Opens the device again under the mount matrix now in force (the subscriptions stay; the fusion
    /// starts over in the new axes); a device that cannot be opened is retried as at start.
    func reopenDevice() {
        let configuration = core.configuration
        do {
            try openDevice()
            Logger.agent.notice("device \(configuration.device) reopened with mount matrix \(configuration.mountMatrix ?? .identity)")
            announcer.publishDeviceState()
        } catch {
            core.state.withLock { $0.deviceError = "\(error)" }
            announcer.publishDeviceState()
            superviseDeviceOpen(after: error)
        }
    }

    /// Hands the device that could not be opened to the supervisor, which opens it again after 1 s, then
    /// after twice the delay each time up to ``maximumDeviceRetryDelay``.
    private func superviseDeviceOpen(after error: any Error) {
        deviceSupervisor.succeeded()  // a new episode: from the first delay
        let delay = deviceSupervisor.retry { [weak self] in self?.retryDeviceOpen() ?? .abandoned }
        Logger.agent.warning("device \(core.configuration.device): \(error); trying again in \(Int(delay)) s")
    }

    /// Opens the device that was unavailable (a chip not yet powered, a driver not yet loaded); on success
    /// starts the active services and the recording and publishes the new state, otherwise publishes a
    /// changed reason (the supervisor tries again).
    private func retryDeviceOpen() -> DeviceSupervisor.Outcome {
        guard core.state.withLock({ !$0.shuttingDown && $0.deviceError != nil }) else { return .abandoned }
        let device = core.configuration.device
        do {
            try openDevice()
        } catch {
            let description = error.description
            let changed = core.state.withLock { state -> Bool in
                defer { state.deviceError = description }
                return state.deviceError != description
            }
            if changed {
                Logger.agent.warning("device \(device): \(description)")
                announcer.publishDeviceState()
            }
            return .failed
        }
        Logger.agent.notice("device \(device) opened")
        core.state.withLock { $0.deviceError = nil }
        startActiveServices()
        do { try startRecording() } catch { Logger.agent.error("\(error)") }
        announcer.publishDeviceState()
        return .succeeded
    }

    /// Starts the updates of every active service, and the motion detectors.
    func startActiveServices() {
        publisher.startActiveServices()
        startDetectors()
    }

    /// Starts the detectors the configuration switches on, unless they run already, the device is not
    /// open or the agent stops.
    func startDetectors() {
        guard core.state.withLock({ $0.deviceError == nil && !$0.shuttingDown }) else { return }
        detectors.start(core.configuration)
    }

    /// Whether the IMU is open.
    var isDeviceOpen: Bool { core.state.withLock { $0.deviceError == nil } }

    // MARK: - The barometer

    /// Opens the configured barometer for the altimeter; one that cannot be opened is opened again by the
    /// supervisor every ``barometerRetryDelay`` seconds (the altitude service is unavailable with the reason
    /// meanwhile).
    func openBarometer() {
        if openBarometerOnce() == .failed {
            barometerSupervisor.retry { [weak self] in self?.openBarometerOnce() ?? .abandoned }
        }
    }

    /// One attempt at opening the configured barometer: on success the altitude service starts again if
    /// it had failed; on failure a changed reason is logged and published.
    private func openBarometerOnce() -> DeviceSupervisor.Outcome {
        guard let specification = core.configuration.barometer, !core.isShuttingDown else { return .abandoned }
        do {
            let device = try BarometerSpecification(parsing: specification).makeDevice()
            core.altimeter.setDevice(device)
            let recovered = core.state.withLock { state in
                defer { state.barometerError = nil }
                return state.barometerError != nil
            }
            if let info = device?.info { Logger.agent.info("barometer \(specification): \(info.chip), \(info.defaultSampleRate.fixedDecimal(places: 1)) Hz") }
            if recovered {
                core.controlQueue.async { self.publisher.restart(.altitude) }
            }
            return .succeeded
        } catch {
            let reason = "barometer \(specification): \(error)"
            let changed = core.state.withLock { state in
                defer { state.barometerError = reason }
                return state.barometerError != reason
            }
            if changed {
                Logger.agent.warning("\(reason); trying again in \(Int(Self.barometerRetryDelay)) s")
                core.controlQueue.async { self.announcer.statusChanged(.altitude) }
            }
            return .failed
        }
    }

    // MARK: - Calibration, magnetic reference, recording

    /// Starts the configured field recording of raw samples, if any.
    /// - Throws: ``ConfigurationError`` for `record.file` when the file cannot be created.
    func startRecording() throws(ConfigurationError) {
        guard let recording = core.configuration.recording else { return }
        do {
            try core.engine.startRecording(toFile: recording.file, duration: recording.seconds)
        } catch {
            throw ConfigurationError(fieldPath: "record.file", reason: "cannot record to \(recording.file): \(error)")
        }
        Logger.agent.info("recording raw samples to \(recording.file) (at most \(recording.seconds) s)")
    }

    /// Reads the calibration file at `path` and has the engine apply it to every sample (nil: none).
    /// - Throws: ``ConfigurationError`` for field `calibration` naming the file and its bad field.
    func applyCalibration(_ path: String?) throws(ConfigurationError) {
        guard let path else { return core.engine.setCalibration(nil) }
        let calibration = try AgentConfiguration.loadCalibration(path)
        core.engine.setCalibration(calibration)
        let parts = [
            calibration.gyroscope.map { _ in "gyroscope" }, calibration.accelerometer.map { _ in "accelerometer" },
            calibration.magnetometer.map { "magnetometer (\($0.quality.rawValue))" },
        ].compactMap { $0 }
        Logger.agent.info("calibration \(path): \(parts.isEmpty ? "no parts" : parts.joined(separator: ", "))")
    }

    /// Gives the engine the magnetic declination for true north (a running true-north service follows).
    /// - Throws: ``ConfigurationError`` for values outside the ranges that validation checks.
    func apply(_ reference: MagneticReference?) throws(ConfigurationError) {
        let engine = core.engine
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
