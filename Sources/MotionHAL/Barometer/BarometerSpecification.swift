import MotionMath

/// Which barometer to open, parsed from a string: `sim[:OPTIONS]`, `iio:DEVICE[,sysfs=DIR]`,
/// `i2c:BUS@ADDRESS[,chip=NAME]` or `none`; surrounding white space ignored.
///
/// | string | device |
/// |---|---|
/// | `none` | no barometer (``makeDevice()`` gives `nil`) |
/// | `sim` | ``SimulatedBarometer`` with its default configuration (25 Hz, sea level, 1 Pa noise, at rest) |
/// | `sim:OPTIONS` | ``SimulatedBarometer``; `OPTIONS` is a comma-separated list of `key=value`, each key at most once |
/// | `iio:DEVICE[,sysfs=DIR]` | a Linux IIO pressure device (``IIOBarometer``), e.g. `iio:bmp280`, `iio:iio:device1`; `sysfs=DIR` replaces `/sys/bus/iio/devices` |
/// | `i2c:BUS@ADDRESS[,chip=NAME]` | a barometer chip on an I²C bus (``I2CBarometer``), e.g. `i2c:/dev/i2c-1@0x76`, identified by its chip ID; `chip=` accepts only that chip (`bmp280`, `bme280`, `lps22hb`, `lps22df`) |
///
/// Simulator options:
/// - `rate=HZ`: the default sample rate, 1...200 Hz; default 25.
/// - `pressure=PA`: the pressure at altitude 0, 10 000...200 000 Pa; default 101325.
/// - `temperature=C`: the sensor's temperature, −60...100 °C; default 20.
/// - `noise=PA`: standard deviation of the pressure noise, 0...1000 Pa; default 1.
/// - `seed=N`: seed of the noise generator, decimal or `0x` hexadecimal; default 1.
/// - the altitude profile, at most one of: `alt=M` a constant altitude (−1000...10000 m; default 0);
///   `climb=M@S` a climb of M metres (±10000) over S seconds (> 0) after 2 s; `floors=N` N floors (1...1000)
///   of 3 m at 0.5 m/s with 2 s pauses; `motion=NAME` the height of the IMU simulator's trajectory of that
///   name (`stairs`: two floors up and down with the simulated walker, `drop`: lifted 1 m and dropped).
///
/// ``description`` writes the specification back in this form (options that differ from the defaults
/// only), so that `BarometerSpecification(parsing: spec.description) == spec`.
public enum BarometerSpecification: Sendable, Equatable, CustomStringConvertible {
    /// No barometer (`none`).
    case none
    /// The simulator with this configuration (`sim…`).
    case simulated(SimulatedBarometer.Configuration)
    /// A Linux IIO pressure device (`iio:DEVICE[,sysfs=DIR]`): its selector (`iio:deviceN` or a name) and
    /// the sysfs root.
    case iio(name: String, sysfsRoot: String = IIODeviceDiscovery.defaultSysfsRoot)
    /// A barometer chip on an I²C bus (`i2c:BUS@ADDRESS[,chip=NAME]`): bus device path, 7-bit address and
    /// the chip model's name when only that one is accepted.
    case i2c(bus: String, address: UInt8, chip: String? = nil)

    /// The driver names the parser understands.
    public static let driverNames = ["none", "sim", "iio", "i2c"]

    /// Parses a barometer string without opening anything.
    /// - Parameter text: a specification, see ``BarometerSpecification``.
    /// - Throws: ``BarometerSpecificationError`` naming the bad driver, option or value.
    public init(parsing text: String) throws(BarometerSpecificationError) {
        let trimmed = Substring(text).trimmingBlanks()
        guard !trimmed.isEmpty else { throw BarometerSpecificationError("empty barometer specification") }
        let driver = trimmed.prefix { $0 != ":" }
        let argument = driver.endIndex == trimmed.endIndex ? nil : trimmed[trimmed.index(after: driver.endIndex)...]
        switch driver {
        case "none":
            guard argument == nil else { throw BarometerSpecificationError("driver none takes no argument: '\(trimmed)'") }
            self = .none
        case "sim":
            self = .simulated(try Self.simulatorConfiguration(options: argument ?? ""))
        case "iio":
            self = try Self.iioTarget(try Self.requiredArgument(argument, driver: "iio", form: "iio:bmp280"))
        case "i2c":
            self = try Self.i2cTarget(try Self.requiredArgument(argument, driver: "i2c", form: "i2c:/dev/i2c-1@0x76"))
        default:
            throw BarometerSpecificationError(
                "unknown barometer driver '\(driver)' in '\(trimmed)' (known drivers: \(Self.driverNames.joined(separator: ", ")))")
        }
    }

    /// The specification in the form ``init(parsing:)`` reads.
    public var description: String {
        switch self {
        case .none:
            return "none"
        case .simulated(let configuration):
            let options = Self.simulatorOptions(configuration)
            return options.isEmpty ? "sim" : "sim:" + options.joined(separator: ",")
        case .iio(let name, let sysfsRoot):
            return "iio:\(name)" + (sysfsRoot == IIODeviceDiscovery.defaultSysfsRoot ? "" : ",sysfs=\(sysfsRoot)")
        case .i2c(let bus, let address, let chip):
            return "i2c:\(bus)@\(I2CBusError.hex(address))" + (chip.map { ",chip=\($0)" } ?? "")
        }
    }

    /// Opens the barometer this specification names.
    /// - Returns: the device, not yet started; `nil` for ``none``.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` for a device that cannot be opened (an IIO device that is
    ///   missing or has no pressure channel, an I²C chip that does not answer or is no known barometer).
    public func makeDevice() throws -> (any BarometerDevice)? {
        switch self {
        case .none: return nil
        case .simulated(let configuration): return SimulatedBarometer(configuration: configuration)
        case .iio(let name, let sysfsRoot): return try IIOBarometer(device: name, discovery: IIODeviceDiscovery(sysfsRoot: sysfsRoot))
        case .i2c(let bus, let address, let chip): return try I2CBarometer(bus: bus, address: address, chip: chip)
        }
    }

    // MARK: - Parsing helpers

    static func requiredArgument(_ argument: Substring?, driver: String, form: String)
        throws(BarometerSpecificationError) -> Substring
    {
        guard let argument, !argument.trimmingBlanks().isEmpty else {
            throw BarometerSpecificationError("driver \(driver) needs an argument, e.g. '\(form)'")
        }
        return argument.trimmingBlanks()
    }

    /// `DEVICE[,key=value…]` split into the target and its options, each key among `keys` at most once.
    private static func targetAndOptions(_ text: Substring, driver: String, keys: [String])
        throws(BarometerSpecificationError) -> (target: Substring, options: [Substring: Substring])
    {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
        var options: [Substring: Substring] = [:]
        let form = keys.map { "\($0)=…" }.joined(separator: " or ")
        for option in items.dropFirst() {
            guard let equals = option.firstIndex(of: "="), !option[option.index(after: equals)...].trimmingBlanks().isEmpty
            else { throw BarometerSpecificationError("option '\(option)' of driver \(driver) needs the form \(form)") }
            let key = option[..<equals].trimmingBlanks()
            guard keys.contains(String(key)) else {
                throw BarometerSpecificationError(
                    "unknown option '\(key)' of driver \(driver) (known options: \(keys.joined(separator: ", ")))")
            }
            guard options[key] == nil else { throw BarometerSpecificationError("option '\(key)' given twice in '\(driver):\(text)'") }
            options[key] = option[option.index(after: equals)...].trimmingBlanks()
        }
        return (items[0], options)
    }

    private static func iioTarget(_ text: Substring) throws(BarometerSpecificationError) -> BarometerSpecification {
        let (device, options) = try targetAndOptions(text, driver: "iio", keys: ["sysfs"])
        guard !device.isEmpty else { throw BarometerSpecificationError("driver iio needs a device before its options, e.g. 'iio:bmp280'") }
        return .iio(name: String(device), sysfsRoot: options["sysfs"].map(String.init) ?? IIODeviceDiscovery.defaultSysfsRoot)
    }

    private static func i2cTarget(_ text: Substring) throws(BarometerSpecificationError) -> BarometerSpecification {
        let (target, options) = try targetAndOptions(text, driver: "i2c", keys: ["chip"])
        guard let at = target.lastIndex(of: "@"), at != target.startIndex else {
            throw BarometerSpecificationError("i2c target '\(target)' needs the form BUS@ADDRESS, e.g. '/dev/i2c-1@0x76'")
        }
        let addressText = target[target.index(after: at)...]
        let address = addressText.hasPrefix("0x") ? UInt8(addressText.dropFirst(2), radix: 16) : UInt8(addressText)
        guard let address, address <= 0x7F else {
            throw BarometerSpecificationError("i2c address '\(addressText)' is not a 7-bit address such as 0x76")
        }
        let chip = options["chip"].map(String.init)
        do { _ = try BarometerChipModel.models(named: chip) } catch {
            guard case .invalidSpecification(let why) = error else { throw BarometerSpecificationError(error.description) }
            throw BarometerSpecificationError("option 'chip' of driver i2c: \(why)")
        }
        return .i2c(bus: String(target[..<at]), address: address, chip: chip)
    }
}
