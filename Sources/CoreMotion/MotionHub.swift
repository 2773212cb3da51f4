import MotionHAL
import Synchronization

/// The one IMU of the process, shared by every ``CMMotionManager``: starts the device when the first
/// service of any manager starts and stops it when the last one stops, runs one attitude filter per
/// reference frame in use at the full sensor rate, decimates each subscription to its update interval, and
/// hands samples and faults to the subscriptions.
///
/// Decimation uses the sample timestamps with next-due accumulation: a subscription with interval `T`
/// receives the first sample, then the sample nearest each `t₀ + k·T`, so its long-run rate is exactly
/// `1/T` (e.g. 33.3 updates/s at 0.03 s from a 200 Hz device). After a gap longer than `T` the schedule
/// restarts from the next sample.
final class MotionHub: Sendable {
    /// The process-wide hub.
    static let shared = MotionHub()

    /// Device choice and run state; held while starting or stopping the device. Never taken by the
    /// device's event handler, so `stop()` (which waits for a delivery in progress) cannot deadlock.
    private let lifecycle = Mutex(Lifecycle())
    /// Subscriptions and fusion state; taken briefly by the event handler and by (un)subscribing.
    private let processing = Mutex(Processing())

    private struct Lifecycle {
        var device: (any IMUDevice)?
        var isDeviceChosen = false
        var isRunning = false
        var generation: UInt64 = 0
    }

    private struct Entry {
        let subscription: MotionSubscription
        /// Timestamp at which the next sample is due, s; nil before the first.
        var nextDue: Double?
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
    }

    // MARK: - Device choice

    /// Makes `device` the process's IMU (nil: none). A running device is stopped; if services are active
    /// the new device is started for them.
    func setDevice(_ device: (any IMUDevice)?) {
        lifecycle.withLock { lifecycle in
            if lifecycle.isRunning {
                lifecycle.device?.stop()
                lifecycle.isRunning = false
            }
            lifecycle.device = device
            lifecycle.isDeviceChosen = true
            let hasSubscribers = processing.withLock { processing in
                processing.fusions = processing.fusions.map { ReferenceFrameFusion(frame: $0.frame) }
                processing.previousTimestamp = nil
                for index in processing.entries.indices { processing.entries[index].nextDue = nil }
                return !processing.entries.isEmpty
            }
            if hasSubscribers { startDevice(&lifecycle) }
        }
    }

    /// What the process's IMU is, or nil without one. The first call without a chosen device opens the one
    /// named by the `MOTION_DEVICE` environment variable, if any.
    var deviceInfo: IMUDeviceInfo? {
        lifecycle.withLock { lifecycle in
            resolveDevice(&lifecycle)
            return lifecycle.device?.info
        }
    }

    private func resolveDevice(_ lifecycle: inout Lifecycle) {
        guard !lifecycle.isDeviceChosen else { return }
        lifecycle.isDeviceChosen = true
        if let specification = ProcessInfo.processInfo.environment["MOTION_DEVICE"],
            !specification.isEmpty
        {
            lifecycle.device = try? IMUDeviceSpecification.open(specification)
        }
    }

    // MARK: - Subscriptions

    /// Adds a subscription and starts the device if it is the first. Returns false (and adds nothing) when
    /// there is no device or it lacks a sensor the service needs. If the device fails to start, the
    /// subscription stays (a later device change may start it) and receives a ``CMErrorNotAvailable`` error.
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
                    processing.fusions.append(ReferenceFrameFusion(frame: frame))
                }
            }
            if !lifecycle.isRunning { startDevice(&lifecycle) }
            return true
        }
    }

    /// Removes a subscription (cancelling it) and stops the device if it was the last.
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
            if isEmpty, lifecycle.isRunning {
                lifecycle.device?.stop()
                lifecycle.isRunning = false
            }
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

    /// Starts the device at its default rate; on failure every subscriber gets an error.
    private func startDevice(_ lifecycle: inout Lifecycle) {
        guard let device = lifecycle.device else { return }
        lifecycle.generation &+= 1
        let generation = lifecycle.generation
        let sampleRate = device.info.defaultSampleRate
        processing.withLock { processing in
            processing.generation = generation
            processing.sampleRate = sampleRate
            processing.previousTimestamp = nil
        }
        do {
            try device.start(sampleRate: sampleRate) { [weak self] event in
                self?.handle(event, generation: generation)
            }
            lifecycle.isRunning = true
        } catch {
            let subscriptions = processing.withLock { $0.entries.map(\.subscription) }
            let failure = CMErrorNotAvailable.nsError("The motion device could not be started: \(error)")
            for subscription in subscriptions { subscription.deliver(subscription, nil, failure) }
        }
    }

    // MARK: - Events

    private func handle(_ event: IMUDeviceEvent, generation: UInt64) {
        switch event {
        case .samples(let samples):
            let deliveries = processing.withLock { processing -> [(MotionSubscription, CMLogItem)] in
                guard processing.generation == generation else { return [] }
                var deliveries: [(MotionSubscription, CMLogItem)] = []
                for sample in samples { Self.process(sample, &processing, into: &deliveries) }
                return deliveries
            }
            for (subscription, item) in deliveries { subscription.deliver(subscription, item, nil) }
        case .fault(let fault):
            let subscriptions = processing.withLock { processing in
                processing.generation == generation ? processing.entries.map(\.subscription) : []
            }
            let code: CMError =
                switch fault {
                case .unavailable: CMErrorNotAvailable
                default: CMErrorUnknown
                }
            let error = code.nsError("The motion device failed: \(fault)")
            for subscription in subscriptions { subscription.deliver(subscription, nil, error) }
        }
    }

    /// Runs fusion on one sample and collects the samples due for each subscription.
    private static func process(
        _ sample: IMUSample, _ processing: inout Processing, into deliveries: inout [(MotionSubscription, CMLogItem)]
    ) {
        let timestamp = Double(sample.timestamp) / 1e9
        let deltaTime = processing.previousTimestamp.map { timestamp - $0 } ?? 0
        processing.previousTimestamp = timestamp
        if let gyroscope = sample.rotationRate {
            for index in processing.fusions.indices {
                processing.fusions[index].update(
                    gyroscope: gyroscope, accelerometer: sample.acceleration, magnetometer: sample.magneticField,
                    deltaTime: deltaTime)
            }
        }
        let halfPeriod = processing.sampleRate > 0 ? 0.5 / processing.sampleRate : 0
        var made: [MadeSample] = []
        for index in processing.entries.indices {
            let entry = processing.entries[index]
            if let nextDue = entry.nextDue, timestamp < nextDue - halfPeriod { continue }
            guard let item = makeSample(entry.subscription.service, sample, timestamp, processing, &made) else {
                continue
            }
            let interval = entry.subscription.interval
            var nextDue = (entry.nextDue ?? timestamp) + interval
            if nextDue <= timestamp { nextDue = timestamp + interval }  // after a gap: restart the schedule
            processing.entries[index].nextDue = nextDue
            deliveries.append((entry.subscription, item))
        }
    }

    /// A sample object already made for this IMU sample, shared by subscriptions of the same service.
    private struct MadeSample {
        let service: MotionService
        let item: CMLogItem
    }

    /// The Core Motion sample of `service` for this IMU sample, or nil if the sample lacks its data (or
    /// the filter is not ready yet).
    private static func makeSample(
        _ service: MotionService, _ sample: IMUSample, _ timestamp: Double, _ processing: Processing,
        _ made: inout [MadeSample]
    ) -> CMLogItem? {
        if let existing = made.first(where: { $0.service == service }) { return existing.item }
        let item: CMLogItem?
        switch service {
        case .accelerometer:
            item = sample.acceleration.map { force in
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
            guard sample.rotationRate != nil, let accelerometer = sample.acceleration,
                let fusion = processing.fusions.first(where: { $0.frame == frame }),
                fusion.isReady
            else { return nil }
            item = fusion.deviceMotion(accelerometer: accelerometer, timestamp: timestamp)
        }
        if let item { made.append(MadeSample(service: service, item: item)) }
        return item
    }
}
