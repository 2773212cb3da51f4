import CLinuxIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads shared by many ``DeliveryClock``s, four per core: for a process that simulates a fleet
/// (`motionctl simulate`: thousands of simulated IMUs), where a thread per device would spend the CPU on
/// wake-ups and the scheduler. Each clock is kept by one thread (assigned in turn); a thread sleeps until
/// the millisecond after the earliest deadline of its clocks and runs every tick that is due, one after
/// the other, so one wake-up serves many devices.
///
/// Why four per core rather than one: a tick publishes, and each write to a loopback or LAN socket wakes
/// the broker, which preempts the writing thread on its core; with one thread per core, every clock of a
/// preempted thread waited, and the simulated devices' latency grew while the cores still had room
/// (`Benchmarks/capacity/run.sh`, 10 Hz, 2 cores: p99 > 20 ms from 2 922 devices with the process at 90 %
/// of one core; with four per core, from 3 553, at 110 %).
///
/// A tick that takes long delays the other clocks of its thread; fine for simulated devices, not for a
/// real driver (which keeps a thread of its own).
final class DeliveryClockPool: @unchecked Sendable {
    // Safety: `workers` is immutable after init; each worker guards its state with its own lock.

    /// The process's pool: four threads per online core.
    static let shared = DeliveryClockPool(threads: 4 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    private let workers: [Worker]
    private let lock = PthreadLock()
    private var nextWorker = 0

    private init(threads: Int) {
        workers = (0..<threads).map { _ in Worker() }
    }

    /// Whether the caller runs on one of the pool's threads (inside a tick): it must not wait for a clock
    /// of the pool to finish.
    var isCurrentThread: Bool {
        let current = pthread_self()
        return workers.contains { pthread_equal($0.thread, current) != 0 }
    }

    /// Starts ticking `clock`, first at `deadline` (ns of `CLOCK_MONOTONIC`).
    func add(_ clock: DeliveryClock, firstDeadline deadline: UInt64) {
        let worker = lock.locked {
            defer { nextWorker = (nextWorker + 1) % workers.count }
            return workers[nextWorker]
        }
        worker.add(clock, deadline: deadline)
    }

    /// One thread and the clocks it keeps, ordered by their next deadline (a ``DeadlineQueue``).
    private final class Worker: @unchecked Sendable {
        /// The wake-up grid, ns.
        static let grid: UInt64 = 1_000_000
        // Safety: `queue` is touched only with `lock` held.
        private let lock = PthreadLock()
        /// The clocks by deadline, each retained once while queued (an unmanaged reference moves
        /// through the queue without retains and releases).
        private var queue = DeadlineQueue<Unmanaged<DeliveryClock>>()
        /// The worker's thread (set once, before any clock is added).
        private(set) var thread = pthread_t()

        init() {
            let box = Unmanaged.passRetained(self).toOpaque()
            let created = pthread_create(&thread, nil, { argument in
                Unmanaged<Worker>.fromOpaque(argument!).takeRetainedValue().run()
            }, box)
            precondition(created == 0, "cannot create a shared delivery thread (\(created))")
            pthread_detach(thread)
        }

        func add(_ clock: DeliveryClock, deadline: UInt64) {
            lock.locked {
                let wasEarliest = queue.earliestDeadline.map { deadline < $0 } ?? true
                queue.push(deadline: deadline, element: .passRetained(clock))
                if wasEarliest { lock.signal() }
            }
        }

        private func run() -> Never {
            _ = clinuxio_set_timer_slack(DeliveryClock.timerSlack)
            // Reused every wake-up (a thousand a second), so that a tick allocates nothing here. A clock's
            // reference stays unmanaged from the queue to the tick and back: it is retained once while
            // queued, and released only when its clock has finished.
            var due: [(deadline: UInt64, clock: Unmanaged<DeliveryClock>)] = []
            var kept: [(deadline: UInt64, clock: Unmanaged<DeliveryClock>)] = []
            while true {
                let now = MonotonicClock.now()
                lock.locked {
                    while let first = queue.earliestDeadline, first <= now {
                        let entry = queue.popFirst()
                        due.append((entry.deadline, entry.element))
                    }
                    // Woken on a 1 ms grid, so that the clocks due within the same millisecond tick
                    // together: their publications reach the broker as one burst (one wake-up of it),
                    // as a fleet's load generator would send them, for at most 1 ms of delay.
                    if due.isEmpty { lock.wait(until: queue.earliestDeadline.map { ($0 / Self.grid + 1) * Self.grid }) }
                }
                for (deadline, reference) in due {
                    let goesOn = reference._withUnsafeGuaranteedRef { clock in
                        guard clock.tickFromPool() else { return false }  // cancelled: it has finished
                        let next = DeliveryClock.nextDeadline(after: deadline, interval: clock.interval, now: MonotonicClock.now())
                        kept.append((next, reference))
                        return true
                    }
                    if !goesOn { reference.release() }
                }
                due.removeAll(keepingCapacity: true)
                if !kept.isEmpty { lock.locked { for entry in kept { queue.push(deadline: entry.deadline, element: entry.clock) } } }
                kept.removeAll(keepingCapacity: true)
            }
        }
    }
}

/// A pthread mutex with a condition variable on `CLOCK_MONOTONIC` (the samples' clock), for the pool's
/// threads to sleep until a deadline or a new, earlier clock.
private final class PthreadLock: @unchecked Sendable {
    // Safety: the mutex and condition are heap-allocated once and used only through pthread calls.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// With the lock held: sleeps until `deadline` (ns of `CLOCK_MONOTONIC`; nil: until signalled) or a
    /// ``signal()``.
    func wait(until deadline: UInt64?) {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        _ = pthread_cond_timedwait(condition, mutex, &time)
    }

    /// With the lock held: wakes the thread waiting in ``wait(until:)``.
    func signal() {
        pthread_cond_signal(condition)
    }
}
