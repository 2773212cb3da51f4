import Synchronization

/// The run of a polled device whose poll thread puts its chip to sleep when it ends (the I²C IMU and
/// barometer), and the previous run while it may still be doing so: the one place of their start and stop
/// rules.
///
/// - ``start(_:)`` refuses a second run (`alreadyRunning`) and, unless called from the delivery handler,
///   first waits for the previous run to have put its chip to sleep (a stop from the handler does not wait).
/// - ``stop()`` silences the run at once and waits for its thread, unless called from the handler.
/// - Released while running (a device dropped without `stop`), the slot cancels the run: its thread puts
///   the chip to sleep and ends.
///
/// Threading: any.
final class PollerSlot<Event: PolledDeviceEvent>: Sendable {
    private let state = Mutex<(run: DevicePoller<Event>?, finishing: DevicePoller<Event>?)>((nil, nil))

    deinit {
        state.withLock { $0.run }?.cancel()
    }

    /// Starts the run `makeRun` makes (under the slot's lock: it configures the chip and starts polling).
    /// - Throws: ``IMUDeviceError/alreadyRunning``, or what `makeRun` throws (nothing then runs).
    func start(_ makeRun: () throws(IMUDeviceError) -> DevicePoller<Event>) throws(IMUDeviceError) {
        // Waited for outside the lock: the old thread's last delivery may call `stop`, which takes it.
        if !IMUDeliveryQueue.isCurrent, let finishing = state.withLock({ $0.finishing }) {
            finishing.waitUntilFinished()
        }
        try state.withLock { (state) throws(IMUDeviceError) in
            guard state.run == nil else { throw .alreadyRunning }
            state.finishing = nil
            state.run = try makeRun()
        }
    }

    /// Stops the run, if any; no event is delivered after it returns (but from the handler, where it does
    /// not wait: the thread then finishes on its own).
    func stop() {
        let run = state.withLock { state -> DevicePoller<Event>? in
            defer { state.finishing = state.run ?? state.finishing; state.run = nil }
            return state.run
        }
        run?.stop()
    }
}
