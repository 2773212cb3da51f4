import MotionEngine
import MotionHAL
import Synchronization

extension ManagerStorage.State {
    /// The running subscription of `slot`.
    func subscription(_ slot: ManagerStorage.Slot) -> MotionSubscription? {
        switch slot {
        case .accelerometer: accelerometer
        case .gyro: gyro
        case .magnetometer: magnetometer
        case .deviceMotion: deviceMotion
        }
    }

    /// The update interval of `slot`, s.
    func interval(_ slot: ManagerStorage.Slot) -> Double {
        switch slot {
        case .accelerometer: accelerometerUpdateInterval
        case .gyro: gyroUpdateInterval
        case .magnetometer: magnetometerUpdateInterval
        case .deviceMotion: deviceMotionUpdateInterval
        }
    }

    /// Sets the update interval of `slot` to `interval` s, for the running updates too.
    mutating func setInterval(_ interval: Double, _ slot: ManagerStorage.Slot) {
        switch slot {
        case .accelerometer: accelerometerUpdateInterval = interval
        case .gyro: gyroUpdateInterval = interval
        case .magnetometer: magnetometerUpdateInterval = interval
        case .deviceMotion: deviceMotionUpdateInterval = interval
        }
        subscription(slot)?.interval = interval
    }

    /// Sets the subscription of `slot`, returning the one it replaces.
    mutating func replace(_ slot: ManagerStorage.Slot, with subscription: MotionSubscription?) -> MotionSubscription? {
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
    mutating func storeLatest(_ item: CMLogItem, _ slot: ManagerStorage.Slot) {
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
    let state = Mutex(State())
    /// The detectors the Linux motion events and states come from, made on first use for the manager's source.
    let motionMonitor = Mutex<MotionDetectorHost?>(nil)
    /// The running motion-event updates (``CMMotionManager/linuxStartMotionEventUpdates(to:withHandler:)``).
    let motionEvents = UpdateSlot<MonitorListener> { $0.monitor.removeListener($0.token) }
    /// The running motion-state updates (``CMMotionManager/linuxStartMotionStateUpdates(to:withHandler:)``).
    let motionStates = UpdateSlot<MonitorListener> { $0.monitor.removeListener($0.token) }

    /// Which service of the manager.
    enum Slot {
        case accelerometer, gyro, magnetometer, deviceMotion
    }

    /// Everything a manager holds; see the public properties.
    struct State {
        var accelerometerUpdateInterval = CMMotionManager.defaultUpdateInterval
        var gyroUpdateInterval = CMMotionManager.defaultUpdateInterval
        var magnetometerUpdateInterval = CMMotionManager.defaultUpdateInterval
        var deviceMotionUpdateInterval = CMMotionManager.defaultUpdateInterval
        var accelerometer: MotionSubscription?
        var gyro: MotionSubscription?
        var magnetometer: MotionSubscription?
        var deviceMotion: MotionSubscription?
        var accelerometerData: LatestSample<CMAccelerometerData>?
        var gyroData: LatestSample<CMGyroData>?
        var magnetometerData: LatestSample<CMMagnetometerData>?
        var deviceMotionData: LatestSample<CMDeviceMotion>?
        var attitudeReferenceFrame = CMAttitudeReferenceFrame.xArbitraryZVertical
        var showsDeviceMovementDisplay = false
    }

    /// Starts `service` in `slot` on `source`, replacing what ran there (nothing runs when the source
    /// cannot deliver the stream).
    func start<Sample: CMLogItem>(
        _ service: MotionStream, slot: Slot, queue: OperationQueue?, handler: QueuedHandler<Sample>?, on source: any MotionSource
    ) {
        let subscription = makeSubscription(service, slot: slot, queue: queue, handler: handler)
        let previous = state.withLock { state in state.replace(slot, with: subscription) }
        // Engine calls happen outside the manager's lock: stopping the device waits for a delivery in
        // progress, and deliveries take that lock.
        if let previous { source.unsubscribe(previous) }
        if !source.subscribe(subscription) {
            state.withLock { state in
                if state.subscription(slot) === subscription { _ = state.replace(slot, with: nil) }
            }
        }
    }

    /// The subscription of `slot`, its samples kept for pull mode and handed to `handler` on `queue`.
    func makeSubscription<Sample: CMLogItem>(
        _ service: MotionStream, slot: Slot, queue: OperationQueue?, handler: QueuedHandler<Sample>?
    ) -> MotionSubscription {
        let interval = state.withLock { $0.interval(slot) }
        return MotionSubscription(service: service, interval: interval) { [weak self] subscription, sample, fault in
            let item = sample.map { makeLogItem($0, of: service) }
            let error = fault?.nsError
            if let item, let storage = self {
                storage.state.withLock { state in
                    if state.subscription(slot) === subscription { state.storeLatest(item, slot) }
                }
            }
            if let queue, let handler {
                handler.enqueue(on: queue, sample: item, error: error, subscription: subscription)
            }
        }
    }

    /// Stops the service of `slot` on `source`.
    func stop(_ slot: Slot, on source: any MotionSource) {
        let previous = state.withLock { state in state.replace(slot, with: nil) }
        if let previous { source.unsubscribe(previous) }
    }

    /// Stops every service and the motion events and states (the manager is going away).
    func stopAll(on source: any MotionSource) {
        for slot in [Slot.accelerometer, .gyro, .magnetometer, .deviceMotion] { stop(slot, on: source) }
        motionEvents.stop()
        motionStates.stop()
    }

    /// Sets the update interval of `slot` to `requested` raised to one sample period of `source`'s device
    /// (to 1 ms without one; NaN means that minimum), and applies it to the running updates.
    func setInterval(_ requested: Double, _ slot: Slot, on source: any MotionSource) {
        let minimum = source.sampleRate.map { 1 / $0 } ?? 1e-3
        let interval = requested.isNaN ? minimum : max(requested, minimum)
        let running = state.withLock { state in
            state.setInterval(interval, slot)
            return state.subscription(slot)
        }
        if let running { source.intervalChanged(running) }
    }

    /// A listener of a ``MotionDetectorHost``.
    struct MonitorListener: Sendable {
        let monitor: MotionDetectorHost
        let token: MotionDetectorHost.ListenerToken
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
