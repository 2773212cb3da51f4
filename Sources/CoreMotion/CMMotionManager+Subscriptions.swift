import MotionEngine
import MotionHAL
import Synchronization

// How CMMotionManager's start and stop methods subscribe to the shared MotionEngine.
extension CMMotionManager {
    // MARK: - Implementation

    /// Which service of the manager.
    enum Slot {
        case accelerometer, gyro, magnetometer, deviceMotion
    }

    func startDeviceMotion(
        _ frame: CMAttitudeReferenceFrame, queue: OperationQueue?, handler: QueuedHandler<CMDeviceMotion>?
    ) {
        guard isDeviceMotionAvailable else { return }
        storage.state.withLock { $0.attitudeReferenceFrame = frame }
        let isSingleFrame = frame.rawValue != 0 && frame.rawValue & (frame.rawValue - 1) == 0
        guard isSingleFrame, linuxAvailableAttitudeReferenceFrames.contains(frame) else {
            let code: CMError =
                if !isSingleFrame {
                    CMErrorInvalidParameter
                } else if frame == .xTrueNorthZVertical {
                    CMErrorTrueNorthNotAvailable
                } else {
                    CMErrorNotAvailable
                }
            // Active without data: a subscription the engine never sees, carrying the one error.
            let subscription = makeSubscription(
                .deviceMotion(frame.engineFrame), slot: .deviceMotion, queue: queue, handler: handler)
            let previous = storage.state.withLock { state in state.replace(.deviceMotion, with: subscription) }
            if let previous { source.unsubscribe(previous) }
            let description =
                code == CMErrorTrueNorthNotAvailable
                ? "True north is not available: the magnetic declination is unknown (set it with CMMotionManager.useLinuxMagneticDeclination(_:) or MOTION_DECLINATION)."
                : "The attitude reference frame \(frame.rawValue) is not available on this device."
            if let queue, let handler {
                handler.enqueue(on: queue, sample: nil, error: code.nsError(description), subscription: subscription)
            }
            return
        }
        start(.deviceMotion(frame.engineFrame), slot: .deviceMotion, queue: queue, handler: handler)
    }

    func start<Sample: CMLogItem>(
        _ service: MotionStream, slot: Slot, queue: OperationQueue?, handler: QueuedHandler<Sample>?
    ) {
        let subscription = makeSubscription(service, slot: slot, queue: queue, handler: handler)
        let previous = storage.state.withLock { state in state.replace(slot, with: subscription) }
        // Engine calls happen outside the manager's lock: stopping the device waits for a delivery in
        // progress, and deliveries take that lock.
        if let previous { source.unsubscribe(previous) }
        if !source.subscribe(subscription) {
            storage.state.withLock { state in
                if state.subscription(slot) === subscription { _ = state.replace(slot, with: nil) }
            }
        }
    }

    private func makeSubscription<Sample: CMLogItem>(
        _ service: MotionStream, slot: Slot, queue: OperationQueue?, handler: QueuedHandler<Sample>?
    ) -> MotionSubscription {
        let interval = storage.state.withLock { $0.interval(slot) }
        return MotionSubscription(service: service, interval: interval) { [weak storage] subscription, sample, fault in
            let item = sample.map { makeLogItem($0, of: service) }
            let error = fault?.nsError
            if let item, let storage {
                storage.state.withLock { state in
                    if state.subscription(slot) === subscription { state.storeLatest(item, slot) }
                }
            }
            if let queue, let handler {
                handler.enqueue(on: queue, sample: item, error: error, subscription: subscription)
            }
        }
    }

    func stop(_ slot: Slot) {
        let previous = storage.state.withLock { state in state.replace(slot, with: nil) }
        if let previous { source.unsubscribe(previous) }
    }
}

extension CMMotionManager.State {
    /// The running subscription of `slot`.
    func subscription(_ slot: CMMotionManager.Slot) -> MotionSubscription? {
        switch slot {
        case .accelerometer: accelerometer
        case .gyro: gyro
        case .magnetometer: magnetometer
        case .deviceMotion: deviceMotion
        }
    }

    /// The update interval of `slot`, s.
    func interval(_ slot: CMMotionManager.Slot) -> Double {
        switch slot {
        case .accelerometer: accelerometerUpdateInterval
        case .gyro: gyroUpdateInterval
        case .magnetometer: magnetometerUpdateInterval
        case .deviceMotion: deviceMotionUpdateInterval
        }
    }

    /// Sets the subscription of `slot`, returning the one it replaces.
    mutating func replace(_ slot: CMMotionManager.Slot, with subscription: MotionSubscription?) -> MotionSubscription? {
        let previous = self.subscription(slot)
        switch slot {
        case .accelerometer: accelerometer = subscription
        case .gyro: gyro = subscription
        case .magnetometer: magnetometer = subscription
        case .deviceMotion: deviceMotion = subscription
        }
        return previous
    }

    /// Records `item` as the latest sample of `slot`.
    mutating func storeLatest(_ item: CMLogItem, _ slot: CMMotionManager.Slot) {
        switch slot {
        case .accelerometer: if let data = item as? CMAccelerometerData { accelerometerData = LatestSample(data) }
        case .gyro: if let data = item as? CMGyroData { gyroData = LatestSample(data) }
        case .magnetometer: if let data = item as? CMMagnetometerData { magnetometerData = LatestSample(data) }
        case .deviceMotion: if let data = item as? CMDeviceMotion { deviceMotionData = LatestSample(data) }
        }
    }
}

/// The state of a ``CMMotionManager`` behind a mutex, reachable from deliveries on the device's thread
/// without retaining the manager.
final class ManagerStorage: Sendable {
    /// The state.
    let state = Mutex(CMMotionManager.State())
    /// The detectors the Linux motion events and states come from, made on first use for the manager's source.
    let motionMonitor = Mutex<MotionActivityMonitor?>(nil)
    /// The running motion-event updates (``CMMotionManager/linuxStartMotionEventUpdates(to:withHandler:)``).
    let motionEvents = UpdateSlot<MonitorListener> { $0.monitor.removeListener($0.token) }
    /// The running motion-state updates (``CMMotionManager/linuxStartMotionStateUpdates(to:withHandler:)``).
    let motionStates = UpdateSlot<MonitorListener> { $0.monitor.removeListener($0.token) }

    /// A listener of a ``MotionActivityMonitor``.
    struct MonitorListener: Sendable {
        let monitor: MotionActivityMonitor
        let token: MotionActivityMonitor.ListenerToken
    }
}

/// The latest sample of one service, as the manager keeps it for pull mode.
///
/// `@unchecked Sendable` because the sample classes are immutable once made by the framework (the one
/// mutable value, ``CMAttitude``, guards itself with a mutex), so handing one from the device's thread to
/// the reader's thread is safe even though the public classes are not `Sendable`.
struct LatestSample<Sample: CMLogItem>: @unchecked Sendable {
    /// The sample.
    let sample: Sample

    init(_ sample: Sample) {
        self.sample = sample
    }
}
