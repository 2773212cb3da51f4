import MotionMath

/// A sampling-frequency attribute of an IIO device and the rates it accepts.
///
/// The attribute is the device's `sampling_frequency` or a channel type's (`in_accel_sampling_frequency`),
/// Hz; the rates are its `*_available` companion (Documentation/ABI/testing/sysfs-bus-iio): a list such as
/// `12.5 26 52 104 208` or a range `[min step max]`. Without a companion (or the device's own
/// `sampling_frequency_available` for a channel type's attribute) only the current value is known.
public struct IIOSamplingFrequency: Sendable, Equatable {
    /// The rates an attribute accepts, Hz.
    public enum Rates: Sendable, Equatable {
        /// These rates, ascending.
        case list([Double])
        /// `minimum`, `minimum + step`, … up to `maximum` (any rate in between when `step` is 0).
        case range(minimum: Double, step: Double, maximum: Double)
    }

    /// The attribute's name in the device directory, e.g. `sampling_frequency`.
    public var attribute: String
    /// The rates it accepts.
    public var rates: Rates

    /// Creates a description.
    /// - Parameters:
    ///   - attribute: the attribute's name.
    ///   - rates: the rates it accepts.
    public init(attribute: String, rates: Rates) {
        self.attribute = attribute
        self.rates = rates
    }

    /// The lowest and highest rate, Hz.
    public var supportedRange: ClosedRange<Double> {
        switch rates {
        case .list(let list): list[0]...list[list.count - 1]
        case .range(let minimum, _, let maximum): minimum...maximum
        }
    }

    /// The slowest accepted rate that is at least `requested` (the fastest when none is), Hz.
    /// - Parameter requested: Hz.
    public func rate(atLeast requested: Double) -> Double {
        switch rates {
        case .list(let list):
            return list.first { $0 >= requested } ?? list[list.count - 1]
        case .range(let minimum, let step, let maximum):
            guard requested > minimum else { return minimum }
            guard step > 0 else { return min(requested, maximum) }
            let steps = ((requested - minimum) / step * 1e9).rounded() / 1e9  // 0.1 + 0.2 ≠ 0.3
            return min(minimum + steps.rounded(.up) * step, maximum)
        }
    }

    /// Parses the text of a `*_available` attribute.
    /// - Parameters:
    ///   - text: e.g. `12.5 26 52` or `[1 1 200]`.
    ///   - file: the attribute's path, named in the error.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` naming `file` and quoting `text`.
    public static func parseRates(_ text: String, file: String) throws(IMUDeviceError) -> Rates {
        let trimmed = Substring(text).trimmingBlanks()
        let isRange = trimmed.hasPrefix("[") && trimmed.hasSuffix("]")
        let body = isRange ? trimmed.dropFirst().dropLast() : trimmed
        let notRates = IMUDeviceError.unavailable("\(file): '\(text)' is not a list of sample rates in Hz")
        var values: [Double] = []
        for word in body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard let value = Double(word), value.isFinite, value >= 0 else { throw notRates }
            values.append(value)
        }
        guard !values.isEmpty else { throw notRates }
        if isRange {
            guard values.count == 3, values[0] > 0, values[0] <= values[2] else {
                throw .unavailable("\(file): '\(text)' is not a range '[min step max]' of sample rates in Hz")
            }
            return .range(minimum: values[0], step: values[1], maximum: values[2])
        }
        guard values.allSatisfy({ $0 > 0 }) else { throw notRates }
        return .list(values.sorted())
    }

    /// Reads the attribute `attribute` of `device` and its rates (`<attribute>_available`, else
    /// `fallbackAvailable`, else the current value alone); `nil` when the attribute does not exist.
    static func load(
        _ attribute: String, of device: IIOSysfsDevice, fallbackAvailable: String? = nil
    ) throws(IMUDeviceError) -> IIOSamplingFrequency? {
        guard let current = try device.readNumberIfPresent(attribute) else { return nil }
        for available in [attribute + "_available", fallbackAvailable].compactMap({ $0 }) {
            if let text = try device.readTextIfPresent(available) {
                return IIOSamplingFrequency(
                    attribute: attribute, rates: try parseRates(text, file: device.path(of: available)))
            }
        }
        guard current > 0 else {
            throw .unavailable(
                "\(device.path(of: attribute)): sample rate \(current) Hz and no list of available rates")
        }
        return IIOSamplingFrequency(attribute: attribute, rates: .list([current]))
    }
}
