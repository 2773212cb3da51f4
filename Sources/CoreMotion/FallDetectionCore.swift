import MotionEngine
import MotionFusion
import MotionMath

/// What a ``CMFallDetectionManager`` does, in an object the device's thread can reach: a batched
/// subscription to the filter's output at the full rate feeding a ``FallDetector`` and a ``FallResolver``,
/// and the delegate.
///
/// `@unchecked Sendable`: every mutable property is only touched under `lock`; the owner and the delegate
/// are in ``delegation``.
final class FallDetectionCore: @unchecked Sendable {
    /// The stream the detector reads: the filter's SI output (specific force and rotation rate) in device axes.
    static let stream = MotionStream.fusedMotion(.xArbitraryZVertical)
    /// Batches the samples arrive in, s.
    static let batchInterval = 0.1

    private let lock = NSLock()
    private let source: any MotionSource
    /// The manager and its delegate.
    let delegation = ManagerDelegation<CMFallDetectionManager, any CMFallDetectionDelegate>(label: "CoreMotion.CMFallDetectionManager.delegate")
    private var subscription: MotionSubscription?
    private var detector = FallDetector()
    private var resolver = FallResolver(responseWindow: 60, recoveryHold: FallSettings().recovery)

    init(source: any MotionSource) {
        self.source = source
    }

    var responseWindow: Double {
        get { lock.withLock { resolver.responseWindow } }
        set { lock.withLock { resolver.responseWindow = newValue } }
    }

    func setDelegate(_ delegate: (any CMFallDetectionDelegate)?) {
        delegation.delegate = delegate
        if delegate == nil { stop() } else { start() }
    }

    // Starting and stopping, one at a time (never taken by the device's callbacks).
    private let lifecycle = NSLock()

    private func start() {
        lifecycle.withLock {
            guard lock.withLock({ subscription == nil }) else { return }
            let added = MotionSubscription(service: Self.stream, interval: Self.batchInterval, sink: .batch { [weak self] _, samples, _ in
                if let samples { self?.feed(samples) }
            })
            lock.withLock {
                subscription = added
                detector = FallDetector()
                resolver = FallResolver(responseWindow: resolver.responseWindow, recoveryHold: detector.settings.recovery)
            }
            if !source.subscribe(added) {
                lock.withLock { if subscription === added { subscription = nil } }
            }
        }
    }

    func stop() {
        lifecycle.withLock {
            let running = lock.withLock { () -> MotionSubscription? in
                defer { subscription = nil }
                return subscription
            }
            if let running { source.unsubscribe(running) }
        }
    }

    private func feed(_ samples: [MotionSample]) {
        // A delegate released without being cleared: nobody listens, so the device need not run for it
        // (stopped from the delegate's queue, not from the device's delivery that is calling here).
        guard delegation.delegate != nil else {
            delegation.queue.async { [weak self] in
                if self?.delegation.delegate == nil { self?.stop() }
            }
            return
        }
        let resolutions = lock.withLock { () -> [FallResolver.Resolution] in
            var resolved: [FallResolver.Resolution] = []
            for case .fused(let sample) in samples {
                let g = BarometricFormula.standardGravity
                let event = detector.update(specificForce: sample.specificForce / g, rotationRate: sample.rotationRate, timestamp: sample.timestamp)
                if let resolution = resolver.note(event, at: sample.timestamp) { resolved.append(resolution) }
            }
            return resolved
        }
        for resolution in resolutions { tellDelegate(resolution) }
    }

    private func tellDelegate(_ resolution: FallResolver.Resolution) {
        let event = CMFallDetectionEvent(date: BootClock.date(atUptime: resolution.impactTime), resolution: resolution.resolution)
        delegation.notify { manager, delegate in
            delegate.fallDetectionManager(manager, didDetect: event) {}
        }
    }
}
