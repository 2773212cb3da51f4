import MotionMath
import Dispatch
import MotionFusion
import MotionHAL
import Synchronization

/// The one IMU of the process, shared by every ``CMMotionManager`` and ``CMBatchedSensorManager``: starts the
/// device when the first service of any manager starts and stops it when the last one stops, runs one
/// attitude filter per reference frame in use at the full sensor rate, decimates each decimated
/// subscription to its update interval, collects every sample into batches for batched subscriptions, and
/// hands samples and faults to the subscriptions.
///
/// Decimation uses the sample timestamps with next-due accumulation: a subscription with interval `T`
/// receives the first sample, then the sample nearest each `t₀ + k·T`, so its long-run rate is exactly
/// `1/T` (e.g. 33.3 updates/s at 0.03 s from a 200 Hz device). After a gap longer than `T` the schedule
/// restarts from the next sample.
///
/// Batching also uses the sample timestamps: a batch closes with the sample that makes it span its interval
/// (e.g. 50 samples for 0.25 s at 200 Hz), or, with interval 0, at the end of each device delivery. The
/// arrays are built in the delivery path itself: one sink call per batch, none per sample.
///
/// Faults: a device `.fault`, a failed `start` (retried after 0.5 s, doubling to 8 s, while any service is
/// active; a device that reports itself unavailable, such as a chip gone from its bus, is stopped and
/// started again the same way) and a stall (no delivery for 5 × the observed delivery interval + 0.5 s; checked every 0.25 s)
/// each start a fault episode, reported once to every subscription as an `NSError` in ``CMErrorDomain``
/// (``CMErrorNotAvailable`` for an unavailable device or a failed start, ``CMErrorUnknown`` otherwise).
/// The episode ends when samples arrive again: data simply resumes. Pending batch samples are delivered
/// before the error of a device fault.
final class MotionHub: Sendable {
    /// The process-wide hub.
    static let shared = MotionHub()

    /// How often the stall watchdog looks, s: a stall is reported at most this much after its threshold,
    /// and the check costs two thread wake-ups (dispatch's timer thread and a worker), so not more often.
    static let stallCheckInterval = 0.25
    /// First delay before retrying a failed start, s; it doubles up to ``maximumRetryDelay``.
    static let firstRetryDelay = 0.5
    /// Longest delay between start retries, s.
    static let maximumRetryDelay = 8.0

    /// Device choice and run state; held while starting or stopping the device. Never taken by the
    /// device's event handler, so `stop()` (which waits for a delivery in progress) cannot deadlock.
    private let lifecycle = Mutex(Lifecycle())
    /// Subscriptions, fusion and health; taken briefly by the event handler and by (un)subscribing.
    private let processing = Mutex(Processing())
    /// Runs the stall watchdog and start retries.
    private let supervisionQueue = DispatchQueue(label: "CoreMotion.MotionHub.supervision")
    /// The magnetic declination for true north. A leaf lock: nothing else is taken while it is held.
    private let declination = Mutex(Declination())

    /// The magnetic declination known to the process: set by the API, else read once from the
    /// `MOTION_DECLINATION` environment variable (degrees) or computed from `MOTION_LOCATION`
    /// (`latitude,longitude[,altitude m]`) with the World Magnetic Model.
    private struct Declination {
        /// Degrees east of true north (negative west); nil = unknown.
        var degrees: Double?
        var isResolved = false

        mutating func resolve() {
            guard !isResolved else { return }
            isResolved = true
            let environment = ProcessInfo.processInfo.environment
            if let text = environment["MOTION_DECLINATION"] {
                degrees = GeodeticLocation.validDeclination(Double(text.trimmingCharacters(in: .whitespaces)))
            } else if let text = environment["MOTION_LOCATION"], let location = try? GeodeticLocation(parsing: text) {
                // "latitude,longitude[,altitude m]": the World Magnetic Model's declination there, today.
                degrees = MotionHub.modelDeclination(at: location)
            }
        }
    }

    private struct Lifecycle {
        var device: (any IMUDevice)?
        var isDeviceChosen = false
        /// Whether the calibration was set or looked up in `MOTION_CALIBRATION`.
        var isCalibrationChosen = false
        var isRunning = false
        var generation: UInt64 = 0
        /// The stall watchdog of the running device.
        var watchdog: WatchdogTimer?
        /// Delay before the next start retry, s.
        var retryDelay = MotionHub.firstRetryDelay
    }

    private struct Entry {
        let subscription: MotionSubscription
        /// Timestamp at which the next sample is due, s; nil before the first (decimated entries).
        var nextDue: Double?
        /// Samples of the open batch (batched entries).
        var pending: [CMLogItem] = []
        /// Timestamp of the first sample of the open batch, s.
        var pendingStart: Double = 0
    }

    private struct Processing {
        var entries: [Entry] = []
        var fusions: [ReferenceFrameFusion] = []
        /// Run whose events are accepted (events of an earlier run are ignored).
        var generation: UInt64 = 0
        /// Rate the device runs at, Hz.
        var sampleRate: Double = 0
        /// Timestamp of the previous sample, s.
        var previousTimestamp: Double?
        /// Counters, rate and fault episodes.
        var health = MotionHealth()
        /// Applied to every sample before fusion and the accelerometer service (nil: raw samples).
        var calibration: IMUCalibration?
        /// Writes every raw sample to a recording file while set.
        var recorder: MotionRecorder?

        /// The grade of `calibration`'s magnetometer part, reported with the device motion's field.
        var magneticCalibrationAccuracy: CMMagneticFieldCalibrationAccuracy? {
            calibration?.magnetometer.map { MotionHub.accuracy(of: $0.quality) }
        }
    }

    /// What the hub hands a subscription after a delivery.
    private enum Delivery {
        case sample(MotionSubscription, CMLogItem)
        case batch(MotionSubscription, [CMLogItem])

        func send() {
            switch self {
            case .sample(let subscription, let item): subscription.deliver(item)
            case .batch(let subscription, let items): subscription.deliver(batch: items)
            }
        }
    }

    // MARK: - Device choice

    /// Makes `device` the process's IMU (nil: none). A running device is stopped; if services are active
    /// the new device is started for them. Samples of open batches are dropped.
    func setDevice(_ device: (any IMUDevice)?) {
        lifecycle.withLock { lifecycle in
            if lifecycle.isRunning {
                stopDevice(&lifecycle)
            }
            lifecycle.generation &+= 1  // abandons a pending start retry of the previous device
            lifecycle.retryDelay = Self.firstRetryDelay
            lifecycle.device = device
            lifecycle.isDeviceChosen = true
            let hasSubscribers = processing.withLock { processing in
                processing.fusions = processing.fusions.map {
                    ReferenceFrameFusion(frame: $0.frame, declination: $0.declination)
                }
                processing.previousTimestamp = nil
                for index in processing.entries.indices {
                    processing.entries[index].nextDue = nil
                    processing.entries[index].pending = []
                }
                return !processing.entries.isEmpty
            }
            if hasSubscribers { startDevice(&lifecycle) }
        }
    }

    /// What the process's IMU is, or nil without one. The first call without a chosen device opens the one
    /// named by the `MOTION_DEVICE` environment variable or, without it, the IMU the kernel offers (`auto`).
    var deviceInfo: IMUDeviceInfo? {
        lifecycle.withLock { lifecycle in
            resolveDevice(&lifecycle)
            return lifecycle.device?.info
        }
    }

    private func resolveDevice(_ lifecycle: inout Lifecycle) {
        resolveCalibration(&lifecycle)
        guard !lifecycle.isDeviceChosen else { return }
        lifecycle.isDeviceChosen = true
        // Without MOTION_DEVICE, the IMU the kernel offers (IIO), if any.
        let variable = ProcessInfo.processInfo.environment["MOTION_DEVICE"] ?? ""
        let specification = variable.isEmpty ? "auto" : variable
        // A mount matrix that cannot be parsed means no device, as a device string that cannot: wrong axes
        // would be worse than none.
        let mountText = ProcessInfo.processInfo.environment["MOTION_MOUNT_MATRIX"]
        let mountMatrix = mountText.map { try? MountMatrix(parsing: $0) } ?? .identity
        if let mountMatrix, let device = try? IMUDeviceSpecification.open(specification) {
            lifecycle.device = mountMatrix == .identity ? device : MountedIMU(device, mountMatrix: mountMatrix)
        }
    }

    // MARK: - Recording

    /// Starts writing every raw sample of the device to `recorder`'s file, replacing a recording in progress
    /// (which is finished first); nil stops recording.
    /// - Returns: the recording that was replaced, to be finished by the caller.
    func setRecorder(_ recorder: MotionRecorder?) -> MotionRecorder? {
        processing.withLock { processing in
            defer { processing.recorder = recorder }
            return processing.recorder
        }
    }

    // MARK: - Calibration

    /// The calibration applied to the samples, or nil. The first look without one set reads the file named
    /// by the `MOTION_CALIBRATION` environment variable, if any (an unreadable or invalid file: none).
    var calibration: IMUCalibration? {
        lifecycle.withLock { lifecycle in
            resolveCalibration(&lifecycle)
            return processing.withLock { $0.calibration }
        }
    }

    /// Applies `calibration` (nil: none) to every sample from the next one on: fusion and the accelerometer
    /// service see corrected samples, and the device motion's magnetic field reports the grade of its
    /// magnetometer part.
    func setCalibration(_ calibration: IMUCalibration?) {
        lifecycle.withLock { lifecycle in
            lifecycle.isCalibrationChosen = true
            processing.withLock { $0.calibration = calibration }
        }
    }

    /// Apple's accuracy for a calibration grade.
    static func accuracy(of quality: IMUCalibration.Quality) -> CMMagneticFieldCalibrationAccuracy {
        switch quality {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }

    private func resolveCalibration(_ lifecycle: inout Lifecycle) {
        guard !lifecycle.isCalibrationChosen else { return }
        lifecycle.isCalibrationChosen = true
        guard let path = ProcessInfo.processInfo.environment["MOTION_CALIBRATION"], !path.isEmpty,
            let calibration = try? IMUCalibration.load(contentsOf: path)
        else { return }
        processing.withLock { $0.calibration = calibration }
    }

    // MARK: - Magnetic declination

    /// The magnetic declination, degrees east of true north (negative west), or nil when unknown (then
    /// true north is not available). The first read without a value set looks at `MOTION_DECLINATION`.
    var magneticDeclination: Double? {
        declination.withLock { declination in
            declination.resolve()
            return declination.degrees
        }
    }

    /// Sets the magnetic declination (nil: unknown). True-north filters already running take a new value at
    /// once; clearing it leaves them on the last value (their services were started with true north).
    func setMagneticDeclination(_ degrees: Double?) {
        declination.withLock { declination in
            declination.isResolved = true
            declination.degrees = degrees
        }
        guard let degrees else { return }
        processing.withLock { processing in
            for index in processing.fusions.indices { processing.fusions[index].declination = degrees }
        }
    }

    /// The World Magnetic Model's declination at a place, today, degrees east of true north.
    static func modelDeclination(at location: GeodeticLocation) -> Double {
        WorldMagneticModel.wmm2025.declination(
            at: location, year: GeodeticLocation.decimalYear(unixTime: Date().timeIntervalSince1970))
    }

    /// A snapshot of the device's health and the fusion state.
    var diagnostics: CMLinuxMotionDiagnostics {
        lifecycle.withLock { lifecycle in
            resolveDevice(&lifecycle)
            let info = lifecycle.device?.info
            let isRunning = lifecycle.isRunning
            let now = MonotonicClock.now()
            return processing.withLock { processing in
                CMLinuxMotionDiagnostics(
                    driver: info?.driver,
                    configuredSampleRate: isRunning ? processing.sampleRate : info?.defaultSampleRate ?? 0,
                    isRunning: isRunning,
                    achievedSampleRate: isRunning ? processing.health.achievedSampleRate(at: now) : 0,
                    samplesReceived: processing.health.samplesReceived,
                    faultsSeen: processing.health.faultsSeen,
                    lastFault: processing.health.lastFault,
                    fusion: processing.fusions.map { fusion in
                        CMLinuxMotionDiagnostics.FusionState(
                            referenceFrame: fusion.frame, isInitialized: fusion.isReady,
                            gyroscopeBias: fusion.gyroscopeBias)
                    })
            }
        }
    }

    // MARK: - Subscriptions

    /// Adds a subscription and starts the device if it is the first. Returns false (and adds nothing) when
    /// there is no device or it lacks a sensor the service needs. If the device fails to start, the
    /// subscription stays, receives a ``CMErrorNotAvailable`` error and the start is retried.
    @discardableResult
    func subscribe(_ subscription: MotionSubscription) -> Bool {
        lifecycle.withLock { lifecycle in
            resolveDevice(&lifecycle)
            guard let info = lifecycle.device?.info,
                info.sensors.isSuperset(of: Self.requiredSensors(subscription.service))
            else { return false }
            processing.withLock { processing in
                processing.entries.append(Entry(subscription: subscription))
                if case .deviceMotion(let frame) = subscription.service,
                    !processing.fusions.contains(where: { $0.frame == frame })
                {
                    processing.fusions.append(ReferenceFrameFusion(frame: frame, declination: magneticDeclination))
                }
            }
            if !lifecycle.isRunning { startDevice(&lifecycle) }
            return true
        }
    }

    /// Removes a subscription (cancelling it; samples of its open batch are dropped) and stops the device
    /// if it was the last.
    func unsubscribe(_ subscription: MotionSubscription) {
        subscription.cancel()
        lifecycle.withLock { lifecycle in
            let isEmpty = processing.withLock { processing in
                processing.entries.removeAll { $0.subscription === subscription }
                let framesInUse = processing.entries.compactMap { entry -> CMAttitudeReferenceFrame? in
                    if case .deviceMotion(let frame) = entry.subscription.service { return frame }
                    return nil
                }
                processing.fusions.removeAll { fusion in !framesInUse.contains { $0 == fusion.frame } }
                return processing.entries.isEmpty
            }
            guard isEmpty else { return }
            lifecycle.generation &+= 1  // abandons a pending start retry
            lifecycle.retryDelay = Self.firstRetryDelay
            if lifecycle.isRunning { stopDevice(&lifecycle) }
        }
    }

    /// The sample rate the device runs (or will run) at, Hz; nil without a device.
    var sampleRate: Double? {
        deviceInfo?.defaultSampleRate
    }

    private static func requiredSensors(_ service: MotionService) -> IMUSensors {
        switch service {
        case .accelerometer: .accelerometer
        case .gyroscope: .gyroscope
        case .magnetometer: .magnetometer
        case .deviceMotion(let frame):
            frame == .xArbitraryZVertical
                ? [.accelerometer, .gyroscope] : .all
        }
    }

    // MARK: - Device lifecycle

    /// Starts the device at its default rate and its stall watchdog; on failure every subscriber gets an
    /// error (once per fault episode) and a retry is scheduled.
    private func startDevice(_ lifecycle: inout Lifecycle) {
        guard let device = lifecycle.device else { return }
        lifecycle.generation &+= 1
        let generation = lifecycle.generation
        let sampleRate = device.info.defaultSampleRate
        processing.withLock { processing in
            processing.generation = generation
            processing.sampleRate = sampleRate
            processing.previousTimestamp = nil
            processing.health.deviceStarted(at: MonotonicClock.now())
        }
        do {
            try device.start(sampleRate: sampleRate) { [weak self] event in
                self?.handle(event, generation: generation)
            }
            lifecycle.isRunning = true
            lifecycle.retryDelay = Self.firstRetryDelay
            startWatchdog(&lifecycle, generation: generation)
        } catch {
            let description = "The motion device could not be started: \(error)"
            let subscriptions = processing.withLock { processing -> [MotionSubscription] in
                processing.health.deviceStopped()
                guard processing.health.beginFault(description) else { return [] }
                return processing.entries.map(\.subscription)
            }
            let failure = CMErrorNotAvailable.nsError(description)
            for subscription in subscriptions { subscription.deliver(failure) }
            scheduleRetry(&lifecycle, generation: generation)
        }
    }

    /// Stops the running device and its watchdog.
    private func stopDevice(_ lifecycle: inout Lifecycle) {
        lifecycle.device?.stop()
        lifecycle.isRunning = false
        lifecycle.watchdog?.timer.cancel()
        lifecycle.watchdog = nil
        processing.withLock { $0.health.deviceStopped() }
    }

    /// Retries the start of run `generation` after the current back-off delay, then doubles the delay.
    private func scheduleRetry(_ lifecycle: inout Lifecycle, generation: UInt64) {
        let delay = lifecycle.retryDelay
        lifecycle.retryDelay = min(delay * 2, Self.maximumRetryDelay)
        supervisionQueue.asyncAfter(deadline: .now() + delay) { [weak self] in
            self?.retryStart(generation: generation)
        }
    }

    /// Starts the device again unless it runs, its services all stopped, or the device changed since
    /// run `generation` failed.
    private func retryStart(generation: UInt64) {
        lifecycle.withLock { lifecycle in
            guard lifecycle.generation == generation, !lifecycle.isRunning else { return }
            let hasSubscribers = processing.withLock { !$0.entries.isEmpty }
            guard hasSubscribers else { return }
            startDevice(&lifecycle)
        }
    }

    private func startWatchdog(_ lifecycle: inout Lifecycle, generation: UInt64) {
        lifecycle.watchdog?.timer.cancel()
        let timer = DispatchSource.makeTimerSource(queue: supervisionQueue)
        let period = DispatchTimeInterval.milliseconds(Int(Self.stallCheckInterval * 1000))
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.checkForStall(generation: generation) }
        timer.resume()
        lifecycle.watchdog = WatchdogTimer(timer: timer)
    }

    /// On the supervision queue: reports a stall of run `generation` once per episode.
    private func checkForStall(generation: UInt64) {
        let now = MonotonicClock.now()
        let report = processing.withLock { processing -> (NSError, [MotionSubscription])? in
            guard processing.generation == generation, let silence = processing.health.stallSilence(at: now)
            else { return nil }
            let fault = IMUDeviceError.readFailed("no samples for \(Self.format(seconds: silence)) s")
            guard processing.health.beginFault(fault.description) else { return nil }
            return (Self.error(for: fault), processing.entries.map(\.subscription))
        }
        guard let (error, subscriptions) = report else { return }
        for subscription in subscriptions { subscription.deliver(error) }
    }

    /// `seconds` with one decimal.
    private static func format(seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The `NSError` in ``CMErrorDomain`` that reports `fault`.
    private static func error(for fault: IMUDeviceError) -> NSError {
        let code: CMError =
            switch fault {
            case .unavailable: CMErrorNotAvailable
            default: CMErrorUnknown
            }
        return code.nsError("The motion device failed: \(fault)")
    }

    // MARK: - Events

    private func handle(_ event: IMUDeviceEvent, generation: UInt64) {
        switch event {
        case .samples(let samples):
            let now = MonotonicClock.now()
            let (deliveries, recorder) = processing.withLock { processing -> ([Delivery], MotionRecorder?) in
                guard processing.generation == generation else { return ([], nil) }
                _ = processing.health.recordDelivery(count: samples.count, at: now)
                var deliveries: [Delivery] = []
                for sample in samples { Self.process(sample, &processing, into: &deliveries) }
                Self.closeBatches(&processing, all: false, into: &deliveries)
                return (deliveries, processing.recorder)
            }
            recorder?.append(samples)
            for delivery in deliveries { delivery.send() }
        case .fault(let fault):
            let report = processing.withLock { processing -> ([Delivery], [MotionSubscription])? in
                guard processing.generation == generation,
                    processing.health.beginFault(fault.description)
                else { return nil }
                var deliveries: [Delivery] = []
                Self.closeBatches(&processing, all: true, into: &deliveries)
                return (deliveries, processing.entries.map(\.subscription))
            }
            if case .unavailable = fault {
                // The device is gone (unplugged, its bus lost the chip): stop it and open it again with back-off.
                supervisionQueue.async { [weak self] in self?.reopenAfterLoss(generation: generation) }
            }
            guard let (deliveries, subscriptions) = report else { return }
            for delivery in deliveries { delivery.send() }
            let error = Self.error(for: fault)
            for subscription in subscriptions { subscription.deliver(error) }
        }
    }

    /// On the supervision queue: stops run `generation` of a device that reported itself unavailable and
    /// schedules its restart (the back-off of failed starts applies until it opens again).
    private func reopenAfterLoss(generation: UInt64) {
        lifecycle.withLock { lifecycle in
            guard lifecycle.generation == generation, lifecycle.isRunning else { return }
            stopDevice(&lifecycle)
            scheduleRetry(&lifecycle, generation: generation)
        }
    }

    /// Closes the open batches of batched entries: every non-empty one (`all`), or those with interval 0
    /// (one batch per device delivery).
    private static func closeBatches(_ processing: inout Processing, all: Bool, into deliveries: inout [Delivery]) {
        for index in processing.entries.indices where !processing.entries[index].pending.isEmpty {
            let subscription = processing.entries[index].subscription
            guard all || subscription.interval <= 0 else { continue }
            deliveries.append(.batch(subscription, processing.entries[index].pending))
            processing.entries[index].pending = []
        }
    }

    /// Runs fusion on one sample, collects the samples due for each decimated subscription and appends
    /// the sample to the open batch of each batched one (closing a batch that now spans its interval).
    private static func process(_ sample: IMUSample, _ processing: inout Processing, into deliveries: inout [Delivery]) {
        let timestamp = Double(sample.timestamp) / 1e9
        let deltaTime = processing.previousTimestamp.map { timestamp - $0 } ?? 0
        processing.previousTimestamp = timestamp
        let calibrated = processing.calibration.map { $0.apply(to: sample) } ?? sample
        if let gyroscope = calibrated.rotationRate {
            for index in processing.fusions.indices {
                processing.fusions[index].update(
                    gyroscope: gyroscope, accelerometer: calibrated.acceleration,
                    magnetometer: calibrated.magneticField, deltaTime: deltaTime)
            }
        }
        let period = processing.sampleRate > 0 ? 1 / processing.sampleRate : 0
        let halfPeriod = period / 2
        var made = MadeSamples()
        for index in processing.entries.indices {
            // Fields are read one by one: copying the entry would copy its open batch on every append.
            let subscription = processing.entries[index].subscription
            if subscription.isBatched {
                let sampleInterval = subscription.sampleInterval
                let previousDue = processing.entries[index].nextDue
                if sampleInterval > 0, !Self.isDue(timestamp, previousDue, halfPeriod: halfPeriod) { continue }
                guard let item = makeSample(subscription.service, sample, calibrated, timestamp, processing, &made) else {
                    continue
                }
                if sampleInterval > 0 {
                    processing.entries[index].nextDue = Self.nextDue(after: previousDue, at: timestamp, interval: sampleInterval)
                }
                let interval = subscription.interval
                if processing.entries[index].pending.isEmpty {
                    processing.entries[index].pendingStart = timestamp
                    let expected = interval > 0 && period > 0 ? Int(interval / period) + 1 : 64
                    processing.entries[index].pending.reserveCapacity(min(expected, 8192))
                }
                processing.entries[index].pending.append(item)
                if interval > 0, timestamp - processing.entries[index].pendingStart + period >= interval - halfPeriod {
                    deliveries.append(.batch(subscription, processing.entries[index].pending))
                    processing.entries[index].pending = []
                }
                continue
            }
            let previousDue = processing.entries[index].nextDue
            if !Self.isDue(timestamp, previousDue, halfPeriod: halfPeriod) { continue }
            guard let item = makeSample(subscription.service, sample, calibrated, timestamp, processing, &made) else {
                continue
            }
            processing.entries[index].nextDue = Self.nextDue(after: previousDue, at: timestamp, interval: subscription.interval)
            deliveries.append(.sample(subscription, item))
        }
    }

    /// Whether a sample taken at `timestamp` is the one due at `due` (nil: the first is due): the first
    /// sample no more than half a sensor period before the due time.
    private static func isDue(_ timestamp: Double, _ due: Double?, halfPeriod: Double) -> Bool {
        guard let due else { return true }
        return timestamp >= due - halfPeriod
    }

    /// The due time after a sample taken at `timestamp` for the one due at `previousDue`: an interval later
    /// on the schedule, or an interval after the sample when a gap left the schedule behind.
    private static func nextDue(after previousDue: Double?, at timestamp: Double, interval: Double) -> Double {
        let nextDue = (previousDue ?? timestamp) + interval
        return nextDue <= timestamp ? timestamp + interval : nextDue
    }

    /// The sample objects already made for one IMU sample, shared by subscriptions of the same service.
    /// Fixed slots, so that the per-sample path allocates nothing but the objects themselves.
    private struct MadeSamples {
        var accelerometer: CMLogItem?
        var gyroscope: CMLogItem?
        var magnetometer: CMLogItem?
        /// Device motion in the first frame asked for, and in any others (rarely more than one).
        var deviceMotion: (frame: CMAttitudeReferenceFrame, item: CMLogItem)?
        var otherDeviceMotions: [(frame: CMAttitudeReferenceFrame, item: CMLogItem)] = []

        subscript(service: MotionService) -> CMLogItem? {
            get {
                switch service {
                case .accelerometer: accelerometer
                case .gyroscope: gyroscope
                case .magnetometer: magnetometer
                case .deviceMotion(let frame):
                    deviceMotion?.frame == frame ? deviceMotion?.item : otherDeviceMotions.first { $0.frame == frame }?.item
                }
            }
            set {
                switch service {
                case .accelerometer: accelerometer = newValue
                case .gyroscope: gyroscope = newValue
                case .magnetometer: magnetometer = newValue
                case .deviceMotion(let frame):
                    guard let newValue else { return }
                    if deviceMotion == nil { deviceMotion = (frame, newValue) } else { otherDeviceMotions.append((frame, newValue)) }
                }
            }
        }
    }

    /// The Core Motion sample of `service` for this IMU sample, or nil if the sample lacks its data (or
    /// the filter is not ready yet). As on Apple's devices, gyroscope and magnetometer data are the raw
    /// readings (bias included) while the accelerometer data and the device motion are calibrated.
    private static func makeSample(
        _ service: MotionService, _ sample: IMUSample, _ calibrated: IMUSample, _ timestamp: Double,
        _ processing: Processing, _ made: inout MadeSamples
    ) -> CMLogItem? {
        if let existing = made[service] { return existing }
        let item: CMLogItem?
        switch service {
        case .accelerometer:
            item = calibrated.acceleration.map { force in
                let g = -force / ReferenceFrameFusion.standardGravity
                return CMAccelerometerData(acceleration: CMAcceleration(x: g.x, y: g.y, z: g.z), timestamp: timestamp)
            }
        case .gyroscope:
            item = sample.rotationRate.map { rate in
                CMGyroData(rotationRate: CMRotationRate(x: rate.x, y: rate.y, z: rate.z), timestamp: timestamp)
            }
        case .magnetometer:
            item = sample.magneticField.map { field in
                CMMagnetometerData(
                    magneticField: CMMagneticField(x: field.x, y: field.y, z: field.z), timestamp: timestamp)
            }
        case .deviceMotion(let frame):
            guard calibrated.rotationRate != nil, let accelerometer = calibrated.acceleration,
                let fusion = processing.fusions.firstIndex(where: { $0.frame == frame }),
                processing.fusions[fusion].isReady
            else { return nil }
            item = processing.fusions[fusion].deviceMotion(
                accelerometer: accelerometer, timestamp: timestamp,
                magneticCalibrationAccuracy: processing.magneticCalibrationAccuracy)
        }
        if let item { made[service] = item }
        return item
    }

    /// The stall watchdog's timer, kept in the lifecycle state. Dispatch sources are thread-safe.
    private struct WatchdogTimer: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }
}
