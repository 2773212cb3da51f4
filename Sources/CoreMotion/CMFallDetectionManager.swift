import MotionEngine

/// What a ``CMFallDetectionManager`` tells its delegate. Every method is optional, as in Apple's protocol:
/// implement the completion-handler form or the `async` form of the event method (the default of the
/// first calls the second, then the handler). Called on a serial queue of the manager's own.
///
/// The optional methods are protocol-extension defaults, which Swift dispatches statically: implement them
/// in the class that declares the conformance (a subclass's own implementation is not called), as Apple's
/// `@objc optional` methods, dispatched dynamically, would not require.
public protocol CMFallDetectionDelegate: NSObjectProtocol {
    /// A fall, once resolved; call `handler` when done with it.
    func fallDetectionManager(
        _ fallDetectionManager: CMFallDetectionManager, didDetect event: CMFallDetectionEvent, completionHandler handler: @escaping () -> Void)
    /// A fall, once resolved (Swift's `async` form).
    func fallDetectionManager(_ fallDetectionManager: CMFallDetectionManager, didDetect event: CMFallDetectionEvent) async
    /// The app's authorization changed.
    func fallDetectionManagerDidChangeAuthorization(_ fallDetectionManager: CMFallDetectionManager)
}

extension CMFallDetectionDelegate {
    /// Calls the `async` form, then `handler`.
    public func fallDetectionManager(
        _ fallDetectionManager: CMFallDetectionManager, didDetect event: CMFallDetectionEvent, completionHandler handler: @escaping () -> Void
    ) {
        let delivery = FallEventDelivery(delegate: self, manager: fallDetectionManager, event: event, handler: handler)
        Task { await delivery.run() }
    }

    /// Does nothing.
    public func fallDetectionManager(_ fallDetectionManager: CMFallDetectionManager, didDetect event: CMFallDetectionEvent) async {}

    /// Does nothing.
    public func fallDetectionManagerDidChangeAuthorization(_ fallDetectionManager: CMFallDetectionManager) {}
}

/// One call of the delegate's `async` form followed by its completion handler, carried into a task.
/// `@unchecked Sendable` as ``UncheckedBox``: Apple's delegate contract, the objects are the framework's
/// immutable event and its manager. (A struct rather than a tuple in a box: Swift 6.0.3's SILGen asserts
/// on a tuple's elements read inside the task.)
private struct FallEventDelivery: @unchecked Sendable {
    let delegate: any CMFallDetectionDelegate
    let manager: CMFallDetectionManager
    let event: CMFallDetectionEvent
    let handler: () -> Void

    func run() async {
        await delegate.fallDetectionManager(manager, didDetect: event)
        handler()
    }
}

/// The wearer's hard falls (Apple's `CMFallDetectionManager`, watchOS), from the board's IMU worn on the
/// trunk: `FallDetector` (MotionFusion) finds a dip, a hard impact and the wearer lying still in another
/// posture, and tells them from a dropped device and from sitting down hard (docs/FUSION.md has its
/// thresholds, sources and limits).
///
/// As on the watch, events flow to the delegate once it is set. A board has no alert to answer, so an
/// event is resolved by what the wearer does: getting up within ``linuxResponseWindow`` (60 s, about when
/// the watch calls emergency services) is `.dismissed`, lying on is `.unresponsive`; `.confirmed` and
/// `.rejected` need a person's answer and never occur. The event's date is the impact's. Thread safety:
/// every member may be used from any thread; the delegate is called on a serial queue of the manager's own.
open class CMFallDetectionManager: NSObject {
    let core = FallDetectionCore(source: MotionEngine.shared)

    /// Creates a manager.
    public override init() {
        super.init()
        core.delegation.owner = self
    }

    deinit {
        core.stop()
    }

    /// Whether the device can detect falls: it has an accelerometer and a gyroscope.
    open class var isAvailable: Bool { MotionEngine.shared.hasSensors(for: .fusedMotion(.xArbitraryZVertical)) }

    /// The app's authorization: always ``CMAuthorizationStatus/authorized`` on Linux (there is no prompt).
    open var authorizationStatus: CMAuthorizationStatus { .authorized }

    /// The object told of falls (held weakly, as Apple's); setting one starts the detection, clearing it
    /// stops it.
    open var delegate: (any CMFallDetectionDelegate)? {
        get { core.delegation.delegate }
        set { core.setDelegate(newValue) }
    }

    /// Asks for the user's permission: on Linux none is needed, and `handler` is called with
    /// ``CMAuthorizationStatus/authorized`` on a background queue.
    open func requestAuthorization(handler: @escaping (CMAuthorizationStatus) -> Void) {
        let call = UncheckedBox(handler)
        core.delegation.queue.async { call.value(.authorized) }
    }

    /// Asks for the user's permission (Swift's `async` form): ``CMAuthorizationStatus/authorized`` on Linux.
    open func requestAuthorization() async -> CMAuthorizationStatus { .authorized }

    // MARK: - Linux

    /// The time after the impact within which getting up resolves a fall as dismissed, s (60 by default).
    open var linuxResponseWindow: TimeInterval {
        get { core.responseWindow }
        set { core.responseWindow = newValue }
    }
}
