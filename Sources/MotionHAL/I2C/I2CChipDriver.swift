/// The chip-specific half of an I²C IMU: register map, configuration and FIFO decoding. ``I2CIMU`` does
/// the rest (threads, polling, delivery, fault handling), so a driver is plain sequential code.
///
/// A driver is created by its ``I2CChipModel`` after the probe recognised the chip, and is only ever used
/// by one thread at a time. Implementations must:
/// - in ``start(sampleRate:accelerometerOnly:)``: reset the chip, configure ranges, output data rate and
///   digital low-pass filter for the rate, and enable its FIFO (or data-ready reads where it has none),
///   discarding anything measured before; with `accelerometerOnly`, put only the accelerometer into the
///   FIFO (its samples then carry no rotation rate or field) at the rates of
///   ``accelerometerOnlySampleRates``;
/// - in ``readSamples()``: return every sample measured since the previous call, oldest first, in SI units
///   and the chip's axes (``I2CIMU`` applies the mount matrix), timestamped with a ``FIFOTimestamper`` from
///   the time taken just before the FIFO count was read; report an overflow as
///   ``IMUDeviceError/readFailed(_:)`` after resetting the FIFO (the samples lost are gone, the next call
///   continues);
/// - in ``stop()``: put the chip to sleep, ignoring bus errors.
public protocol I2CChipDriver: AnyObject {
    /// What the chip is with every sensor on: driver name, chip, sensors and the rates it can run at.
    var info: IMUDeviceInfo { get }

    /// The rates the chip runs at with the accelerometer alone in its FIFO, Hz; `nil` when it has no such
    /// mode.
    var accelerometerOnlySampleRates: ClosedRange<Double>? { get }

    /// What the chip does when asked for `sampleRate`: the output data rate it runs at and its
    /// accelerometer's bandwidth there. Pure: reads and writes nothing.
    /// - Parameters:
    ///   - sampleRate: Hz, inside the rates of the mode.
    ///   - accelerometerOnly: whether the accelerometer alone is read.
    func sampling(near sampleRate: Double, accelerometerOnly: Bool) -> I2CChipSampling

    /// Resets and configures the chip and starts its FIFO.
    /// - Parameters:
    ///   - sampleRate: Hz, inside `info.supportedSampleRates` (``accelerometerOnlySampleRates`` with
    ///     `accelerometerOnly`); the chip runs at ``sampling(near:accelerometerOnly:)``'s rate and the
    ///     timestamps are spaced at it.
    ///   - accelerometerOnly: put the accelerometer alone into the FIFO.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip does not answer,
    ///   ``IMUDeviceError/readFailed(_:)`` when it answers wrongly.
    func start(sampleRate: Double, accelerometerOnly: Bool) throws(IMUDeviceError)

    /// The samples measured since the previous call, oldest first.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the chip stopped answering (removed, unpowered),
    ///   ``IMUDeviceError/readFailed(_:)`` for an overflow or a bad read that the next call may not repeat.
    func readSamples() throws(IMUDeviceError) -> [IMUSample]

    /// Puts the chip to sleep. Best effort: errors are ignored.
    func stop()
}

extension I2CChipDriver {
    /// Starts every sensor: ``start(sampleRate:accelerometerOnly:)`` without `accelerometerOnly`.
    /// - Parameter sampleRate: Hz, inside `info.supportedSampleRates`.
    public func start(sampleRate: Double) throws(IMUDeviceError) {
        try start(sampleRate: sampleRate, accelerometerOnly: false)
    }
}

/// How a chip samples at a requested rate (``I2CChipDriver/sampling(near:accelerometerOnly:)``).
public struct I2CChipSampling: Sendable, Equatable {
    /// The output data rate the chip runs at, Hz.
    public var rate: Double
    /// The −3 dB bandwidth of its accelerometer's filter at that rate, Hz.
    public var accelerometerBandwidth: Double

    /// Creates a description.
    /// - Parameters:
    ///   - rate: output data rate, Hz.
    ///   - accelerometerBandwidth: the accelerometer filter's −3 dB bandwidth, Hz.
    public init(rate: Double, accelerometerBandwidth: Double) {
        self.rate = rate
        self.accelerometerBandwidth = accelerometerBandwidth
    }
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
