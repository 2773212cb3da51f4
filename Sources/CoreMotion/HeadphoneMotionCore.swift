import MotionEngine

/// What a ``CMHeadphoneMotionManager`` does, in an object the device's thread can reach: its source, its
/// device-motion subscription and latest sample, its connection monitor and its delegate.
///
/// `@unchecked Sendable`: every mutable property is only touched under `lock`; the delegate and the owner
/// are in ``delegation``.
final class HeadphoneMotionCore: @unchecked Sendable {
    private let lock = NSLock()
    private var source: any MotionSource
    /// The manager and its delegate.
    let delegation = ManagerDelegation<CMHeadphoneMotionManager, any CMHeadphoneMotionManagerDelegate>(
        label: "CoreMotion.CMHeadphoneMotionManager.delegate")
    private var motion: MotionSubscription?
    private var latestMotion: CMDeviceMotion?
    private var connectionStatusActive = false
    private var storedInterval = 0.04
    private var monitor: HeadphoneConnectionMonitor!

    init(source: any MotionSource) {
        self.source = source
        monitor = HeadphoneConnectionMonitor { [weak self] change in self?.tellDelegate(change) }
    }

    private func locked<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var interval: Double {
        get { locked { storedInterval } }
        set { locked { storedInterval = newValue } }
    }

    var isAvailable: Bool { locked { source }.hasSensors(for: .deviceMotion(.xArbitraryZVertical)) }
    var isMotionActive: Bool { locked { motion != nil } }
    var isConnectionActive: Bool { locked { connectionStatusActive } }
    var latest: CMDeviceMotion? { locked { latestMotion } }

    /// Reads `source` from now on (after stopping everything on the old one).
    func useSource(_ newSource: any MotionSource) {
        stopAll()
        locked { source = newSource }
    }

    func startMotion(queue: OperationQueue?, handler: QueuedHandler<CMDeviceMotion>?) {
        let frame = MotionStream.deviceMotion(.xArbitraryZVertical)
        let (source, interval) = locked { (self.source, storedInterval) }
        let subscription = MotionSubscription(service: frame, interval: interval) { [weak self] subscription, sample, fault in
            let location = HeadphoneDevice.sensorLocation.withLock { $0 }
            let item = sample.flatMap { makeLogItem($0, of: frame) as? CMDeviceMotion }?.measured(at: location)
            self?.keep(item, from: subscription)
            if let queue, let handler { handler.enqueue(on: queue, sample: item, error: fault?.nsError, subscription: subscription) }
        }
        let previous = locked { () -> MotionSubscription? in
            defer { motion = subscription }
            return motion
        }
        if let previous { source.unsubscribe(previous) }
        monitor.start(on: source)
        if !source.subscribe(subscription) {
            locked { if motion === subscription { motion = nil } }
        }
    }

    func stopMotion() {
        let (source, running) = locked { () -> (any MotionSource, MotionSubscription?) in
            defer { motion = nil }
            return (self.source, motion)
        }
        if let running { source.unsubscribe(running) }
        stopMonitorIfIdle()
    }

    func startConnection() {
        let source = locked { () -> any MotionSource in
            connectionStatusActive = true
            return self.source
        }
        if monitor.isRunning && monitor.isConnected { tellDelegate(.connected) }
        monitor.start(on: source)
    }

    func stopConnection() {
        locked { connectionStatusActive = false }
        stopMonitorIfIdle()
    }

    func stopAll() {
        stopMotion()
        stopConnection()
    }

    private func stopMonitorIfIdle() {
        let (source, idle) = locked { (self.source, motion == nil && !connectionStatusActive) }
        if idle { monitor.stop(on: source) }
    }

    private func keep(_ item: CMDeviceMotion?, from subscription: MotionSubscription) {
        guard let item else { return }
        locked { if motion === subscription { latestMotion = item } }
    }

    private func tellDelegate(_ change: HeadphoneConnection.Change) {
        delegation.notify { manager, delegate in
            switch change {
            case .connected: delegate.headphoneMotionManagerDidConnect(manager)
            case .disconnected: delegate.headphoneMotionManagerDidDisconnect(manager)
            }
        }
    }
}
