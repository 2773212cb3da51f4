/// How a hardware IMU is asked to sample: the `rate=` and `sensors=` options of the `i2c:` and `iio:`
/// device strings (``IMUDeviceSpecification``).
///
/// By default a device runs every sensor it has at its driver's default rate, which suits attitude fusion.
/// A vibration node wants the opposite: the accelerometer alone, as fast as the chip goes, so the FIFO (or
/// the IIO buffer) carries accelerometer words only and the usable band reaches as high as the chip's
/// filter allows. The device's ``IMUDeviceInfo`` then describes that mode: its sensors, its rates, the
/// rate it runs at (``IMUDeviceInfo/defaultSampleRate``) and its accelerometer's bandwidth.
public struct IMUSamplingRequest: Sendable, Equatable {
    /// The rate asked for.
    public enum Rate: Sendable, Equatable {
        /// The driver's default rate (absent `rate=`).
        case deviceDefault
        /// As near this many hertz as the chip gets (`rate=HZ`); outside the mode's rates it is refused.
        case hertz(Double)
        /// The highest rate the chip offers in the mode asked for (`rate=max`).
        case highest
    }

    /// The rate asked for.
    public var rate: Rate
    /// Whether only the accelerometer is read (`sensors=accelerometer`): the gyroscope and magnetometer
    /// stay out of the FIFO, which lets the chip run faster.
    public var accelerometerOnly: Bool

    /// Creates a request.
    /// - Parameters:
    ///   - rate: the rate asked for (default: the driver's).
    ///   - accelerometerOnly: read the accelerometer alone (default `false`: every sensor).
    public init(rate: Rate = .deviceDefault, accelerometerOnly: Bool = false) {
        self.rate = rate
        self.accelerometerOnly = accelerometerOnly
    }

    /// Every sensor at the driver's default rate.
    public static let deviceDefault = IMUSamplingRequest()

    /// The option names a request is read from.
    static let optionNames = ["rate", "sensors"]

    /// The rate a device runs at for this request.
    /// - Parameters:
    ///   - rates: the rates the device offers in the requested mode, Hz.
    ///   - defaultRate: the driver's default in that mode, Hz.
    ///   - device: the device's name, for the error.
    /// - Throws: ``IMUDeviceError/invalidSpecification(_:)`` for a `rate=` outside `rates`.
    public func resolvedRate(in rates: ClosedRange<Double>, defaultRate: Double, device: String) throws(IMUDeviceError) -> Double {
        switch rate {
        case .deviceDefault:
            return min(max(defaultRate, rates.lowerBound), rates.upperBound)
        case .highest:
            return rates.upperBound
        case .hertz(let hertz):
            guard rates.contains(hertz) else {
                let mode = accelerometerOnly ? " with the accelerometer alone" : ""
                throw .invalidSpecification(
                    "rate=\(hertz.decimalText) Hz: \(device) runs\(mode) at \(rates.lowerBound.decimalText)...\(rates.upperBound.decimalText) Hz "
                        + "(rate=max asks for the highest)")
            }
            return hertz
        }
    }

    /// Reads `rate=HZ|max` and `sensors=all|accelerometer` from options already split by the grammar.
    /// - Parameters:
    ///   - options: the device string's options; other keys are ignored.
    ///   - driver: the driver's name, for errors.
    static func read(
        _ options: [DeviceSpecificationGrammar.Option], driver: String
    ) throws(DeviceSpecificationSyntaxError) -> IMUSamplingRequest {
        var request = IMUSamplingRequest()
        for (key, value) in options {
            switch key {
            case "rate" where value == "max":
                request.rate = .highest
            case "rate":
                request.rate = .hertz(
                    try DeviceSpecificationGrammar.number(
                        value, option: key, driver: driver, unit: "Hz", range: .leastNonzeroMagnitude...1_000_000))
            case "sensors":
                switch value {
                case "all": request.accelerometerOnly = false
                case "accelerometer": request.accelerometerOnly = true
                default:
                    throw DeviceSpecificationSyntaxError(
                        "option 'sensors' of driver \(driver): '\(value)' is not one of all, accelerometer")
                }
            default:
                continue
            }
        }
        return request
    }
}
