import Dispatch
import MotionFusion
import MotionHAL
import MotionMath
import MotionSupervision
import Synchronization

/// One IMU shared by every client of a process (CoreMotion's managers, the agent's topics): starts the
/// device when the first subscription arrives and stops it when the last one leaves, runs one attitude
/// filter per reference frame in use at the full sensor rate, and hands each subscription its samples,
/// batches and faults (the routing is ``SampleRouter``'s).
///
/// Faults: a device `.fault`, a failed `start` (retried after 0.5 s, doubling to 8 s, while any
/// subscription is active; a device that reports itself unavailable, such as a chip gone from its bus, is
/// stopped and started again the same way) and a stall (no delivery for 5 × the observed delivery interval
/// + 0.5 s; checked every 0.25 s) each start a fault episode, reported once to every subscription as a
/// ``MotionEngineFault`` (``MotionEngineFault/Kind/notAvailable`` for an unavailable device or a failed
/// start, ``MotionEngineFault/Kind/unknown`` otherwise), and to a subscription added during the episode
/// when it is added. The episode ends when samples arrive again (data simply resumes), when the last
/// subscription leaves, or when the device is replaced. Pending batch samples are delivered before the
/// fault of a device.
///
/// Threads: every method may be called from any thread. Sinks are called on the device's delivery thread
/// (faults the engine detects itself on its supervision queue; a failed start's, and the fault told to a
/// new subscription, on the thread that subscribed or set the device), never with an engine lock held.
public final class MotionEngine: Sendable {
    /// The process-wide engine, reading the process's environment: CoreMotion's.
    public static let shared = MotionEngine()

    /// First delay before retrying a failed start, s; it doubles up to ``maximumRetryDelay``.
    static let firstRetryDelay = 0.5
    /// Longest delay between start retries, s.
    static let maximumRetryDelay = 8.0

    /// Where the engine reads its defaults and clocks.
    public let environment: MotionEngineEnvironment
    /// Device choice and run state; held while starting or stopping the device. Never taken by the
    /// device's event handler, so `stop()` (which waits for a delivery in progress) cannot deadlock.
    let lifecycle = Mutex(MotionEngineLifecycle())
    /// Subscriptions, fusion and health; taken briefly by the event handler and by (un)subscribing.
    let processing = Mutex(MotionEngineProcessing())
    /// Runs start retries and reports stalls (found by ``stallWatchdog``).
    let supervisionQueue: DispatchQueue
    /// Retries a failed start (or a device lost) on the environment's clock, with back-off.
    let supervisor: DeviceSupervisor
    /// Finds stalls on the environment's clock (shared by every engine on the process's clock).
    let stallWatchdog: StallWatchdog
    /// The magnetic declination for true north. A leaf lock: nothing else is taken while it is held.
    private let declination = Mutex(MotionEngineDeclination())
    /// The detectors' host, made on first use (``detectors``). A leaf lock.
    let detectorHost = Mutex<MotionDetectorHost?>(nil)

    /// Creates an engine; nothing runs until the first subscription.
    /// - Parameters:
    ///   - environment: the variables read on first use and the clocks (the process's by default).
    ///   - supervisionQueue: where start retries run and stalls are reported (a private queue by default).
    public init(
        environment: MotionEngineEnvironment = .process,
        supervisionQueue: DispatchQueue = DispatchQueue(label: "MotionEngine.supervision")
    ) {
        self.environment = environment
        self.supervisionQueue = supervisionQueue
        supervisor = DeviceSupervisor(
            backoff: Backoff(first: Self.firstRetryDelay, maximum: Self.maximumRetryDelay), clock: environment.clock, queue: supervisionQueue)
        stallWatchdog = StallWatchdog.on(environment.clock)
    }

    // MARK: - Device choice

    /// Makes `device` the engine's IMU (nil: none). A running device is stopped; if subscriptions are
    /// active the new device is started for them. Samples of open batches are dropped.
    public func setDevice(_ device: (any IMUDevice)?) {
        var reports: [FaultReport] = []
        lifecycle.withLock { lifecycle in
            if lifecycle.isRunning {
                stopDevice(&lifecycle)
            }
            lifecycle.generation &+= 1
            supervisor.succeeded()  // abandons a pending start retry of the previous device
            lifecycle.device = device
            lifecycle.isDeviceChosen = true
            let generation = lifecycle.generation
            let hasSubscribers = processing.withLock { processing in
                processing.router.restart()
                // The old device's fault is not the new one's, and its late events are dropped.
                processing.generation = generation
                processing.health.forgetFault()
                return !processing.router.isEmpty
            }
            if hasSubscribers { startDeviceOrRetry(&lifecycle, reports: &reports) }
        }
        for report in reports { report.send() }
    }

    /// Opens the device named by `specification` (for example `sim:rate=500,motion=stationary`) with
    /// `IMUDeviceSpecification.open`, turned into the board's axes by `mountMatrix`, and makes it the
    /// engine's IMU as ``setDevice(_:)`` does.
    /// - Throws: `IMUDeviceError` if the string is invalid or the device cannot be opened; the current
    ///   device is then unchanged.
    public func openDevice(specification: String, mountMatrix: MountMatrix = .identity) throws(IMUDeviceError) {
        let device = try IMUDeviceSpecification.open(specification)
        setDevice(mountMatrix == .identity ? device : MountedIMU(device, mountMatrix: mountMatrix))
    }

    /// What the engine's IMU is, or nil without one. The first call without a chosen device opens the one
    /// named by the `MOTION_DEVICE` environment variable or, without it, the IMU the kernel offers (`auto`).
    public var deviceInfo: IMUDeviceInfo? {
        lifecycle.withLock { lifecycle in
            resolveDevice(&lifecycle)
            return lifecycle.device?.info
        }
    }

    /// The sample rate the device runs (or will run) at, Hz; nil without a device.
    public var sampleRate: Double? {
        deviceInfo?.defaultSampleRate
    }

    /// The first time without a chosen device (or calibration): the environment's.
    func resolveDevice(_ lifecycle: inout MotionEngineLifecycle) {
        resolveCalibration(&lifecycle)
        guard !lifecycle.isDeviceChosen else { return }
        lifecycle.isDeviceChosen = true
        lifecycle.device = environment.device()
    }

    // MARK: - Recording

    /// Starts writing every raw sample of the device to `recorder`'s file, replacing a recording in progress
    /// (which is finished first); nil stops recording.
    /// - Returns: the recording that was replaced, to be finished by the caller.
    public func setRecorder(_ recorder: MotionRecorder?) -> MotionRecorder? {
        processing.withLock { processing in
            defer { processing.recorder = recorder }
            return processing.recorder
        }
    }

    /// Writes every raw sample of the device (SI units, the board's axes, before any calibration) to
    /// `path` in `IMURecording`'s format while the device runs; a recording in progress is finished first.
    /// - Parameters:
    ///   - path: the file, created or truncated.
    ///   - duration: seconds of samples after which the recording ends by itself (nil: until
    ///     ``stopRecording()``).
    /// - Throws: ``MotionEngineFault`` without a device, `IMURecordingError` when the file cannot be created.
    public func startRecording(toFile path: String, duration: Double? = nil) throws {
        guard let info = deviceInfo else { throw MotionEngineFault(.notAvailable, "There is no motion device to record.") }
        _ = try setRecorder(MotionRecorder(path: path, device: info, duration: duration))?.finish()
    }

    /// Ends the recording started by ``startRecording(toFile:duration:)``: flushes and closes its file.
    /// - Returns: the number of samples written (0 without a recording).
    /// - Throws: `IMURecordingError` if writing the file failed.
    @discardableResult
    public func stopRecording() throws(IMURecordingError) -> Int {
        try setRecorder(nil)?.finish() ?? 0
    }

    // MARK: - Calibration

    /// The calibration applied to the samples, or nil. The first look without one set reads the file named
    /// by the `MOTION_CALIBRATION` environment variable, if any (an unreadable or invalid file: none).
    public var calibration: IMUCalibration? {
        lifecycle.withLock { lifecycle in
            resolveCalibration(&lifecycle)
            return processing.withLock { $0.router.calibration }
        }
    }

    /// Applies `calibration` (nil: none) to every sample from the next one on: fusion and the accelerometer
    /// stream see corrected samples, and the device motion's magnetic field reports the grade of its
    /// magnetometer part.
    public func setCalibration(_ calibration: IMUCalibration?) {
        lifecycle.withLock { lifecycle in
            lifecycle.isCalibrationChosen = true
            processing.withLock { $0.router.calibration = calibration }
        }
    }

    private func resolveCalibration(_ lifecycle: inout MotionEngineLifecycle) {
        guard !lifecycle.isCalibrationChosen else { return }
        lifecycle.isCalibrationChosen = true
        if let calibration = environment.calibration() { processing.withLock { $0.router.calibration = calibration } }
    }

    // MARK: - Magnetic declination

    /// The magnetic declination, degrees east of true north (negative west), or nil when unknown (then
    /// true north is not available). The first read without a value set looks at `MOTION_DECLINATION`.
    public var magneticDeclination: Double? {
        declination.withLock { $0.resolved { environment.declination() } }
    }

    /// Sets the magnetic declination (nil: unknown). True-north filters already running take a new value at
    /// once; clearing it leaves them on the last value (their subscriptions were started with true north).
    public func setMagneticDeclination(_ degrees: Double?) {
        declination.withLock { $0.set(degrees) }
        guard let degrees else { return }
        processing.withLock { $0.router.setDeclination(degrees) }
    }

    /// Sets the magnetic declination from a location: the World Magnetic Model's declination there, at the
    /// environment's date.
    public func setLocation(_ location: GeodeticLocation) {
        setMagneticDeclination(WorldMagneticModel.wmm2025.declination(at: location, unixTime: environment.unixTime()))
    }

    /// A snapshot of the device's health and the fusion state.
    public var diagnostics: MotionDiagnostics {
        lifecycle.withLock { lifecycle in
            resolveDevice(&lifecycle)
            let info = lifecycle.device?.info
            let isRunning = lifecycle.isRunning
            let now = environment.monotonicNanoseconds()
            return processing.withLock { MotionDiagnostics(device: info, isRunning: isRunning, processing: $0, at: now) }
        }
    }

    // MARK: - Subscriptions

    /// Adds a subscription and starts the device if it is the first. Returns false (and adds nothing) when
    /// there is no device or it lacks a sensor the stream needs. If the device fails to start, the
    /// subscription stays, receives a ``MotionEngineFault/Kind/notAvailable`` fault and the start is retried.
    /// Added while the device is in a fault episode (failed, stalled, or not starting), the subscription
    /// receives the fault the others were told, at once: it learns the device is down without waiting for
    /// the next episode.
    @discardableResult
    public func subscribe(_ subscription: MotionSubscription) -> Bool {
        var reports: [FaultReport] = []
        var episodeBefore: Int?
        let added = lifecycle.withLock { lifecycle -> Bool in
            resolveDevice(&lifecycle)
            guard let info = lifecycle.device?.info,
                info.sensors.isSuperset(of: subscription.service.requiredSensors)
            else { return false }
            let declination = magneticDeclination
            let episode = processing.withLock { processing in
                processing.router.add(subscription, declination: declination)
                return processing.health.faultsSeen
            }
            // A start that fails now is inside the episode and tells no one again; one that succeeds is
            // news the episode's fault would contradict (samples will end it).
            if !lifecycle.isRunning {
                startDeviceOrRetry(&lifecycle, reports: &reports)
                if lifecycle.isRunning { return true }
            }
            episodeBefore = episode
            return true
        }
        for report in reports { report.send() }
        // Still the episode that was in progress when the subscription was added (not one this call's start
        // began and reported, nor one that samples ended meanwhile): tell the newcomer.
        if let episodeBefore, let fault = processing.withLock({ $0.health.reportedFault(ofEpisode: episodeBefore) }) {
            subscription.deliver(fault)
        }
        return added
    }

    /// Removes a subscription (cancelling it; samples of its open batch are dropped) and stops the device
    /// if it was the last, which also ends a fault episode: the next subscriber starts a new run and hears of
    /// that run's faults.
    public func unsubscribe(_ subscription: MotionSubscription) {
        subscription.cancel()
        lifecycle.withLock { lifecycle in
            let isEmpty = processing.withLock { processing in
                processing.router.remove(subscription)
                return processing.router.isEmpty
            }
            guard isEmpty else { return }
            lifecycle.generation &+= 1
            supervisor.succeeded()  // abandons a pending start retry
            if lifecycle.isRunning { stopDevice(&lifecycle) }
            // After the stop: a fault of the run that ends here is dropped, not kept for the next run.
            let generation = lifecycle.generation
            processing.withLock { processing in
                processing.generation = generation
                processing.health.forgetFault()
            }
        }
    }

    /// Whether the device has the sensors `stream` needs (false without a device).
    public func hasSensors(for stream: MotionStream) -> Bool {
        deviceInfo?.sensors.isSuperset(of: stream.requiredSensors) ?? false
    }

    /// The reference frames the device can deliver device motion in: the 6-axis frame with an
    /// accelerometer and a gyroscope, the others with a magnetometer too, true north only while the
    /// magnetic declination is known. Empty without a device.
    public var availableFrames: [AttitudeReferenceFrame] {
        guard let sensors = deviceInfo?.sensors else { return [] }
        let hasDeclination = magneticDeclination != nil
        return AttitudeReferenceFrame.allCases.filter { frame in
            sensors.isSuperset(of: MotionStream.deviceMotion(frame).requiredSensors)
                && (frame != .xTrueNorthZVertical || hasDeclination)
        }
    }
}
