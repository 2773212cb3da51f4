import Dispatch

/// A manager's delegate and the manager itself, both held weakly (as Apple's managers hold their
/// delegates), and the serial queue the delegate is called on. Shared by the managers whose updates go to a
/// delegate (headphone motion, water submersion, fall detection).
///
/// `@unchecked Sendable`: the references are only touched under `lock`; the delegate is only called on
/// `queue`, with the (non-`Sendable`) objects carried in an ``UncheckedBox``.
final class ManagerDelegation<Owner: AnyObject, Delegate>: @unchecked Sendable {
    /// Where the delegate is called, one call at a time.
    let queue: DispatchQueue
    private let lock = NSLock()
    private weak var storedOwner: Owner?
    private weak var storedDelegate: AnyObject?

    /// - Parameter label: the queue's label.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// The manager passed to the delegate.
    var owner: Owner? {
        get { lock.withLock { storedOwner } }
        set { lock.withLock { storedOwner = newValue } }
    }

    /// The delegate (an object: the delegate protocols are class-bound).
    var delegate: Delegate? {
        get { lock.withLock { storedDelegate as? Delegate } }
        set { lock.withLock { storedDelegate = newValue.map { $0 as AnyObject } } }
    }

    /// Calls `body` with the manager and the delegate on ``queue``, when both are still there and
    /// `session` (if any) has not been stopped by the time the call runs.
    func notify(unlessStopped session: UpdateSession? = nil, _ body: @escaping (Owner, Delegate) -> Void) {
        let (owner, delegate) = lock.withLock { (storedOwner, storedDelegate as? Delegate) }
        guard let owner, let delegate else { return }
        let call = DelegateCall(owner: owner, delegate: delegate, body: body)
        queue.async {
            guard session?.isStopped != true else { return }
            call.run()
        }
    }

    /// One call, carried to the queue (a struct, not a tuple in a box: Swift 6.0.3's SILGen asserts on
    /// some tuple reads in closures). `@unchecked Sendable` as ``UncheckedBox``.
    private struct DelegateCall: @unchecked Sendable {
        let owner: Owner
        let delegate: Delegate
        let body: (Owner, Delegate) -> Void

        func run() { body(owner, delegate) }
    }
}
