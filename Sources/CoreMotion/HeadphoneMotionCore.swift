import MotionEngine

/// What a ``CMHeadphoneMotionManager`` does, in an object the device's thread can reach: its source, its
/// device-motion subscription and latest sample, its connection monitor and its delegate.
///
/// `@unchecked Sendable`: every mutable property is only touched under `lock`; starts and stops run one at
/// a time under `lifecycle` (never taken by the device's callbacks); the delegate and the owner are in
/// ``delegation``.
final class HeadphoneMotionCore: @unchecked Sendable {
    /// The default interval of device-motion updates, s (25 Hz).
    static let defaultInterval = 0.04

    private let lock = NSLock()
    private let lifecycle = NSLock()
    private var source: any MotionSource
    /// The manager and its delegate.
    let delegation = ManagerDelegation<CMHeadphoneMotionManager, any CMHeadphoneMotionManagerDelegate>(
        label: "CoreMotion.CMHeadphoneMotionManager.delegate")
    private var motion: MotionSubscription?
    private var latestMotion: CMDeviceMotion?
    private var connectionStatusActive = false
    private var storedInterval = HeadphoneMotionCore.defaultInterval
    /// The connection reports of the monitor's current run: stopped with it, so none reaches the delegate
    /// after the updates that wanted them stopped.
    private var connectionSession = UpdateSession()
    private let monitor: HeadphoneConnectionMonitor

    init(source: any MotionSource) {
        self.source = source
        let forward = ForwardingTarget()
        monitor = HeadphoneConnectionMonitor(interval: Self.defaultInterval) { change in forward.core?.tellDelegate(change) }
        forward.core = self
    }

    /// Lets the monitor, made before the core, reach it (weakly).
    private final class ForwardingTarget: @unchecked Sendable {
        // Set once in the core's initializer, before the monitor can run.
        weak var core: HeadphoneMotionCore?
    }

    var interval: Double {
        get { lock.withLock { storedInterval } }
        set { lock.withLock { storedInterval = newValue } }
    }

    var isAvailable: Bool { lock.withLock { source }.hasSensors(for: .deviceMotion(.xArbitraryZVertical)) }
    var isMotionActive: Bool { lock.withLock { motion != nil } }
    var isConnectionActive: Bool { lock.withLock { connectionStatusActive } }
    var latest: CMDeviceMotion? { lock.withLock { latestMotion } }

    /// Reads `source` from now on (after stopping everything on the old one).
    func useSource(_ newSource: any MotionSource) {
        stopAll()
        lock.withLock { source = newSource }
    }

    func startMotion(queue: OperationQueue?, handler: QueuedHandler<CMDeviceMotion>?) {
        lifecycle.withLock {
            let frame = MotionStream.deviceMotion(.xArbitraryZVertical)
            let (source, interval) = lock.withLock { (self.source, storedInterval) }
            let subscription = MotionSubscription(service: frame, interval: interval) { [weak self] subscription, sample, fault in
                let location = HeadphoneDevice.sensorLocation.withLock { $0 }
                let item = sample.flatMap { makeLogItem($0, of: frame) as? CMDeviceMotion }?.measured(at: location)
                self?.keep(item, from: subscription)
                if let queue, let handler { handler.enqueue(on: queue, sample: item, error: fault?.nsError, subscription: subscription) }
            }
            let previous = lock.withLock { () -> MotionSubscription? in
                defer { motion = subscription }
                return motion
            }
            if let previous { source.unsubscribe(previous) }
            startMonitor(on: source)
            if !source.subscribe(subscription) {
                lock.withLock { if motion === subscription { motion = nil } }
            }
        }
    }

    func stopMotion() {
        lifecycle.withLock {
            let (source, running) = lock.withLock { () -> (any MotionSource, MotionSubscription?) in
                defer { motion = nil }
                return (self.source, motion)
            }
            if let running { source.unsubscribe(running) }
            stopMonitorIfIdle()
        }
    }

    func startConnection() {
        lifecycle.withLock {
            let source = lock.withLock { () -> any MotionSource in
                connectionStatusActive = true
                return self.source
            }
            if monitor.isRunning && monitor.isConnected { tellDelegate(.connected) }
            startMonitor(on: source)
        }
    }

    func stopConnection() {
        lifecycle.withLock {
            lock.withLock { connectionStatusActive = false }
            stopMonitorIfIdle()
        }
    }

    func stopAll() {
        stopMotion()
        stopConnection()
    }

    /// Starts the monitor with a new session for its reports (under `lifecycle`).
    private func startMonitor(on source: any MotionSource) {
        guard !monitor.isRunning else { return }
        lock.withLock { connectionSession = UpdateSession() }
        monitor.start(on: source)
    }

    /// Stops the monitor, and its reports, when neither device motion nor connection status runs (under
    /// `lifecycle`).
    private func stopMonitorIfIdle() {
        let (source, idle, session) = lock.withLock { (self.source, motion == nil && !connectionStatusActive, connectionSession) }
        guard idle else { return }
        monitor.stop(on: source)
        session.stop()
    }

    private func keep(_ item: CMDeviceMotion?, from subscription: MotionSubscription) {
        guard let item else { return }
        lock.withLock { if motion === subscription { latestMotion = item } }
    }

    private func tellDelegate(_ change: HeadphoneConnection.Change) {
        let session = lock.withLock { connectionSession }
        delegation.notify(unlessStopped: session) { manager, delegate in
            switch change {
            case .connected: delegate.headphoneMotionManagerDidConnect(manager)
            case .disconnected: delegate.headphoneMotionManagerDidDisconnect(manager)
            }
        }
    }
}
