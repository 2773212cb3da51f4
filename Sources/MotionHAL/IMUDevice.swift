/// A source of IMU samples: a chip driver, the simulator, or a replayed recording.
///
/// Implementations must guarantee:
/// - Values in SI units in the board's axes (see ``IMUSample``), timestamps in nanoseconds of
///   `CLOCK_MONOTONIC` taken as close to the measurement as the hardware allows, strictly increasing.
/// - `start` either throws or begins delivering events on a queue of the device's own, never on the
///   caller's thread and never two at once; a consumer must return quickly and must not call `stop` from
///   inside the handler synchronously-waiting on the device.
/// - Samples are delivered in batches where the hardware batches (FIFO, IIO buffer), so a consumer is
///   woken far less often than once per sample at high rates.
/// - After `stop` returns no further event is delivered, and `start` may be called again.
/// - Faults are events, not silence: a failed or unusable read is `.fault(.readFailed)` and delivery goes
///   on; hardware drivers drop values that are not numbers and report saturated ones (``IMUSampleScreen``); a
///   device that is gone (unplugged, no longer answering) is `.fault(.unavailable)` once, after which it
///   delivers nothing until the consumer stops it and starts it again (its `start` opens the hardware anew
///   and throws ``IMUDeviceError/unavailable(_:)`` while it is still gone).
///
/// Every driver runs the same conformance tests (`Tests/MotionHALTests/Conformance`).
public protocol IMUDevice: AnyObject, Sendable {
    /// What the device is and which sensors and rates it supports.
    var info: IMUDeviceInfo { get }

    /// Starts sampling at `sampleRate` Hz and delivers events to `handler` on the device's queue.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)``, ``IMUDeviceError/alreadyRunning`` or
    ///   ``IMUDeviceError/unavailable(_:)``.
    func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws

    /// Stops sampling. Idempotent; no event is delivered after it returns.
    func stop()
}
