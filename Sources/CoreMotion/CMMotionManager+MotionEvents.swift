import MotionEngine

/// The board's motion detectors on Apple's manager (Linux additions): events (free fall, impact, tap,
/// double tap, shake) and state changes (moving, orientation, tilt, vibration) from the manager's source at
/// its full rate (``MotionDetectorHost``), each delivered to an `OperationQueue` like the other services.
extension CMMotionManager {
    /// Whether motion events can be delivered (the source has an accelerometer and a gyroscope).
    public var linuxIsMotionEventAvailable: Bool { source.hasSensors(for: .deviceMotion(.xArbitraryZVertical)) }

    /// Starts delivering motion events to `queue`. A device fault reaches the handler as nil and an error.
    /// Replaces event updates already running; does nothing without a device.
    public func linuxStartMotionEventUpdates(to queue: OperationQueue, withHandler handler: @escaping CMLinuxMotionEventHandler) {
        storage.startMotionEvents(on: source, queue: queue, handler: handler)
    }

    /// Stops the motion events; no handler call starts after it returns.
    public func linuxStopMotionEventUpdates() { storage.motionEvents.stop() }

    /// Starts delivering changes of the motion states to `queue`: the current ones first (when the detectors
    /// already run for another client), then moving, orientation, tilt and vibration as each changes.
    /// Replaces state updates already running; does nothing without a device.
    public func linuxStartMotionStateUpdates(to queue: OperationQueue, withHandler handler: @escaping CMLinuxMotionStateHandler) {
        storage.startMotionStates(on: source, queue: queue, handler: handler)
    }

    /// Stops the motion-state changes.
    public func linuxStopMotionStateUpdates() { storage.motionStates.stop() }
}
