/// The chip-specific half of an I²C barometer: register map, configuration, data-ready and
/// compensation. ``I2CBarometer`` does the rest (the poll thread, delivery, fault handling), so a driver
/// is plain sequential code.
///
/// A driver is created by its ``BarometerChipModel`` after the probe recognised the chip, and is only
/// ever used by one thread at a time. Implementations must:
/// - in ``start(sampleRate:)``: reset the chip, read its calibration, configure its output data rate,
///   oversampling and filter for the rate and start continuous conversions, discarding anything measured
///   before;
/// - in ``read()``: return the newest conversion when one has completed since the previous call, in Pa
///   and °C, stamped with the time of that conversion (strictly later than the previous reading's), and
///   `nil` when none has (or the chip marks the values invalid);
/// - in ``stop()``: put the chip to sleep, ignoring bus errors.
public protocol BarometerChipDriver: AnyObject {
    /// What the chip is: driver `i2c`, the chip and the rates it can run at.
    var info: BarometerInfo { get }

    /// The rate the chip converts at since the last ``start(sampleRate:)``, Hz (the slowest of its rates
    /// at least the one asked for); `nil` before the first start. ``I2CBarometer`` polls at twice this rate
    /// so that no conversion is missed.
    var outputDataRate: Double? { get }

    /// Resets and configures the chip and starts its conversions.
    /// - Parameter sampleRate: Hz, inside `info.supportedSampleRates`.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip does not answer,
    ///   ``IMUDeviceError/readFailed(_:)`` when it answers wrongly.
    func start(sampleRate: Double) throws(IMUDeviceError)

    /// The newest conversion, if one has completed since the previous call.
    /// - Returns: the reading, or `nil` when no new measurement is ready.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip stopped answering (removed, unpowered),
    ///   ``IMUDeviceError/readFailed(_:)`` for a transfer that failed otherwise.
    func read() throws(IMUDeviceError) -> PressureReading?

    /// Puts the chip to sleep. Best effort: errors are ignored.
    func stop()
}

extension BarometerChipDriver {
    /// `nil`: a driver that does not say polls at twice the requested rate.
    public var outputDataRate: Double? { nil }
}
