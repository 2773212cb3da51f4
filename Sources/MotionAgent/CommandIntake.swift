import Synchronization

/// The bound on commands waiting for the control queue: a flood of commands must not queue without bound,
/// so beyond ``limit`` they are dropped and counted (the broker stops sending QoS 1 ones by itself once 20
/// are unacknowledged; QoS 0 ones it does not).
///
/// Threading: any thread.
final class CommandIntake: Sendable {
    /// The most commands waiting to be handled; more are dropped.
    let limit: Int
    private let pending = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    /// An intake that holds at most `limit` waiting commands.
    init(limit: Int = 256) {
        self.limit = limit
    }

    /// Takes a command in when fewer than ``limit`` wait; call ``finished()`` once it was handled.
    /// - Returns: false when it is dropped (counted in ``droppedCount``).
    func admit() -> Bool {
        guard pending.add(1, ordering: .relaxed).newValue <= limit else {
            pending.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// One admitted command was handled.
    func finished() {
        pending.subtract(1, ordering: .relaxed)
    }

    /// Commands dropped since the start.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
