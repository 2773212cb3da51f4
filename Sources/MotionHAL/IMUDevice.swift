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
