import Dispatch

/// The serial queue that sample delivery runs on, shared by drivers and their consumers in this process.
///
/// A driver's private queue and a consumer's handler queue (CoreMotion's managers) both target it, so
/// handing a batch from one to the other is an enqueue on a queue that is already draining: the same
/// thread runs it next, with no thread woken per batch. Code that waits synchronously for a queue that
/// targets it must first check ``isCurrent``: waiting from inside would deadlock.
public enum IMUDeliveryQueue {
    /// The shared serial queue.
    public static let root: DispatchQueue = {
        let queue = DispatchQueue(label: "MotionHAL.delivery", qos: .userInitiated)
        queue.setSpecific(key: key, value: true)
        return queue
    }()

    // DispatchSpecificKey is Sendable in the Dispatch of Swift 6.1 and later, not in 6.0's (Debian 13's
    // Swift 6.0.3, the arm64 toolchain): there the constant needs nonisolated(unsafe), which 6.1 and later
    // refuse on a Sendable type. Safe either way: the key is written once, by its initializer.
    #if compiler(>=6.1)
    private static let key = DispatchSpecificKey<Bool>()
    #else
    nonisolated(unsafe) private static let key = DispatchSpecificKey<Bool>()
    #endif

    /// Whether the caller runs on ``root`` or on a queue that targets it.
    public static var isCurrent: Bool {
        _ = root
        return DispatchQueue.getSpecific(key: key) == true
    }
}
