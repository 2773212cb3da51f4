import MotionFusion

/// Where a motion client's subscriptions get their samples: the ``MotionEngine`` (this process's IMU),
/// or another source with the same shape, such as a remote board's topics on a broker (RemoteMotion).
/// CoreMotion's `CMMotionManager` is written against this protocol. Thread-safe.
public protocol MotionSource: AnyObject, Sendable {
    /// Adds a subscription; false (and nothing added) when the source cannot deliver its stream now.
    @discardableResult
    func subscribe(_ subscription: MotionSubscription) -> Bool
    /// Removes (and cancels) a subscription.
    func unsubscribe(_ subscription: MotionSubscription)
    /// Whether the source has the sensors `stream` needs.
    func hasSensors(for stream: MotionStream) -> Bool
    /// The device's sample rate, Hz, when known (the shortest useful update interval is its inverse).
    var sampleRate: Double? { get }
    /// The reference frames device motion can be delivered in now.
    var availableFrames: [AttitudeReferenceFrame] { get }
    /// Called after a running subscription's interval changed (the engine reads it live; a remote
    /// source tells the board).
    func intervalChanged(_ subscription: MotionSubscription)
}

extension MotionSource {
    /// Nothing to do: the subscription's interval is read where the samples are routed.
    public func intervalChanged(_ subscription: MotionSubscription) {}
}

extension MotionEngine: MotionSource {}
