import Dispatch
import Synchronization

/// An event a polled device delivers, which may end its polling.
protocol PolledDeviceEvent: Sendable {
    /// Whether the device is gone (`.fault(.unavailable)`): it delivers nothing more until it is stopped
    /// and started again.
    var endsPolling: Bool { get }
}

extension IMUDeviceEvent: PolledDeviceEvent {
    var endsPolling: Bool {
        if case .fault(.unavailable) = self { true } else { false }
    }
}

extension BarometerEvent: PolledDeviceEvent {
    var endsPolling: Bool {
        if case .fault(.unavailable) = self { true } else { false }
    }
}

/// The poll thread of a polled device (the I²C IMU and barometers, the IIO and simulated barometers), and
/// the rules every such device keeps: a ``DeliveryClock`` on the device's ``DeviceTime`` calls `poll` at
/// every tick and the events it returns are delivered, in order, on the device's queue.
///
/// - A poll whose events include one that ``PolledDeviceEvent/endsPolling`` is the last one: its events
///   are delivered and the clock ends by itself.
/// - ``stop()`` silences the poller at once (a poll running meanwhile delivers nothing) and, unless called
///   on the delivery queue (from the handler), waits for the poll thread to end, so nothing is delivered
///   after it returns.
/// - `finish` runs on the poll thread after its last poll (a driver puts its chip to sleep there).
///
/// Clock and poller hold each other until the thread has finished; then the poller lets the clock go.
final class DevicePoller<Event: PolledDeviceEvent>: Sendable {
    private let queue: DispatchQueue
    private let handler: @Sendable (Event) -> Void
    private let poll: @Sendable () -> [Event]
    /// Set by ``stop()``: nothing is delivered any more.
    private let stopped = Atomic<Bool>(false)
    /// Set by ``stop()`` or by a poll that ends polling: no further poll runs.
    private let ended = Atomic<Bool>(false)
    private let clock = Mutex<DeliveryClock?>(nil)

    /// Starts polling: the first poll comes one interval from now.
    /// - Parameters:
    ///   - interval: s between polls, > 0.
    ///   - time: the time that keeps the polls.
    ///   - queue: the device's serial delivery queue.
    ///   - handler: the consumer's handler.
    ///   - poll: one poll, on the poll thread: the events to deliver (none when nothing happened).
    ///   - finish: on the poll thread after the last poll.
    init(
        interval: Double, time: DeviceTime, queue: DispatchQueue, handler: @escaping @Sendable (Event) -> Void,
        poll: @escaping @Sendable () -> [Event], finish: @escaping @Sendable () -> Void = {}
    ) {
        self.queue = queue
        self.handler = handler
        self.poll = poll
        let clock = DeliveryClock(
            interval: MonotonicClock.nanoseconds(interval), start: time.now(), time: time,
            tick: { [self] in tick() },
            finish: { [self] in
                finish()
                self.clock.withLock { $0 = nil }
            })
        self.clock.withLock { $0 = clock }
    }

    /// Silences the poller and ends its thread; waits for the thread unless called on the delivery queue
    /// (from the handler), where waiting would deadlock: the thread then finishes on its own.
    func stop() {
        cancel()
        if !IMUDeliveryQueue.isCurrent { waitUntilFinished() }
    }

    /// Silences the poller and ends its thread without waiting for it (for a device's `deinit`, which may
    /// run on the poll thread itself).
    func cancel() {
        stopped.store(true, ordering: .releasing)
        ended.store(true, ordering: .releasing)
        clock.withLock { $0 }?.cancel()
    }

    /// Blocks until the poll thread has finished (at once when it has). Must not be called from a poll.
    func waitUntilFinished() {
        clock.withLock { $0 }?.waitUntilFinished()
    }

    private func tick() {
        guard !ended.load(ordering: .acquiring) else { return }
        let events = poll()
        guard !events.isEmpty else { return }
        if events.contains(where: \.endsPolling) {
            ended.store(true, ordering: .releasing)
            clock.withLock { $0 }?.cancel()
        }
        queue.sync {
            // A stop that came while this poll read the hardware silences it.
            guard !stopped.load(ordering: .acquiring) else { return }
            for event in events { handler(event) }
        }
    }
}
