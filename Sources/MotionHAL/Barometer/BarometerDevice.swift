/// A source of barometer readings: a chip on an I²C bus, a Linux IIO pressure device, or the simulator.
///
/// Implementations must guarantee, as ``IMUDevice`` does:
/// - Pressure in Pa and temperature in °C (``PressureReading``), timestamps in nanoseconds of
///   `CLOCK_MONOTONIC` taken as close to the measurement as the hardware allows, strictly increasing.
/// - `start` either throws or begins delivering events on a queue of the device's own, never on the
///   caller's thread and never two at once; a consumer must return quickly and must not call `stop` from
///   inside the handler synchronously-waiting on the device.
/// - After `stop` returns no further event is delivered, and `start` may be called again.
/// - Faults are events, not silence: a failed or unusable read is `.fault(.readFailed)` and delivery goes
///   on; a device that is gone (unplugged, no longer answering) is `.fault(.unavailable)` once, after which
///   it delivers nothing until the consumer stops it and starts it again (its `start` opens the hardware
///   anew and throws ``IMUDeviceError/unavailable(_:)`` while it is still gone).
///
/// Every barometer runs the same conformance tests (`Tests/MotionHALTests/Barometer`).
public protocol BarometerDevice: AnyObject, Sendable {
    /// What the device is and which rates it supports.
    var info: BarometerInfo { get }

    /// Starts measuring at `sampleRate` Hz and delivers events to `handler` on the device's queue.
    /// - Parameters:
    ///   - sampleRate: Hz, inside `info.supportedSampleRates` (a chip runs at the slowest of its own rates
    ///     at least this one, and its timestamps show which).
    ///   - handler: receives readings and faults, one event at a time.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)``, ``IMUDeviceError/alreadyRunning`` or
    ///   ``IMUDeviceError/unavailable(_:)``.
    func start(sampleRate: Double, handler: @escaping @Sendable (BarometerEvent) -> Void) throws

    /// Stops measuring. Idempotent; no event is delivered after it returns.
    func stop()
}
