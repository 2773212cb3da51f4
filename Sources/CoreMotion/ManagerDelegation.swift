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

    /// Calls `body` with the manager and the delegate on ``queue``, when both are still there.
    func notify(_ body: @escaping (Owner, Delegate) -> Void) {
        let (owner, delegate) = lock.withLock { (storedOwner, storedDelegate as? Delegate) }
        guard let owner, let delegate else { return }
        let call = UncheckedBox((owner: owner, delegate: delegate, body: body))
        queue.async { call.value.body(call.value.owner, call.value.delegate) }
    }
}
