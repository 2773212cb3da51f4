/// The chip-specific half of an I²C IMU: register map, configuration and FIFO decoding. ``I2CIMU`` does
/// the rest (threads, polling, delivery, fault handling), so a driver is plain sequential code.
///
/// A driver is created by its ``I2CChipModel`` after the probe recognised the chip, and is only ever used
/// by one thread at a time. Implementations must:
/// - in ``start(sampleRate:)``: reset the chip, configure ranges, output data rate and digital low-pass
///   filter for the rate, and enable its FIFO (or data-ready reads where it has none), discarding anything
///   measured before;
/// - in ``readSamples()``: return every sample measured since the previous call, oldest first, in SI units
///   and the chip's axes (``I2CIMU`` applies the mount matrix), timestamped with a ``FIFOTimestamper`` from
///   the time taken just before the FIFO count was read; report an overflow as
///   ``IMUDeviceError/readFailed(_:)`` after resetting the FIFO (the samples lost are gone, the next call
///   continues);
/// - in ``stop()``: put the chip to sleep, ignoring bus errors.
public protocol I2CChipDriver: AnyObject {
    /// What the chip is: driver name, chip, sensors and the rates it can run at.
    var info: IMUDeviceInfo { get }

    /// Resets and configures the chip and starts its FIFO.
    /// - Parameter sampleRate: Hz, inside `info.supportedSampleRates`; the driver picks the chip's nearest
    ///   output data rate and reports it through the timestamps' spacing.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip does not answer,
    ///   ``IMUDeviceError/readFailed(_:)`` when it answers wrongly.
    func start(sampleRate: Double) throws(IMUDeviceError)

    /// The samples measured since the previous call, oldest first.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip stopped answering (removed, unpowered),
    ///   ``IMUDeviceError/readFailed(_:)`` for an overflow or a bad read that the next call may not repeat.
    func readSamples() throws(IMUDeviceError) -> [IMUSample]

    /// Puts the chip to sleep. Best effort: errors are ignored.
    func stop()
}

extension IMUDeviceError {
    /// The device error for a failed bus transfer: a chip that stopped answering is unavailable, anything
    /// else a failed read.
    /// - Parameter error: the bus's error.
    public init(_ error: I2CBusError) {
        switch error {
        case .noAcknowledge, .cannotOpen: self = .unavailable(error.description)
        case .transferFailed: self = .readFailed(error.description)
        }
    }
}
