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
/// | `i2c:BUS@ADDRESS[,chip=NAME]` | a barometer chip on an I²C bus (``I2CBarometer``), e.g. `i2c:/dev/i2c-1@0x76`, identified by its chip ID (an MS5837 at 0x76 by its PROM); `chip=` accepts only that chip (`bmp280`, `bme280`, `lps22hb`, `lps22df`, `ms5837`; `ms5837-30ba` and `ms5837-02ba` take that part whatever its PROM's version field says) |
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
    public static let driverNames = drivers.names

    /// The drivers and how each reads its argument.
    private static let drivers = DeviceDriverRegistry<BarometerSpecification>(
        noun: "barometer specification", driverLabel: "barometer driver",
        drivers: [
            .init(name: "none", argument: .none) { _ in .none },
            .init(name: "sim", argument: .optional) { options throws(DeviceSpecificationSyntaxError) in
                .simulated(try simulatorConfiguration(options: options ?? ""))
            },
            .init(name: "iio", argument: .required(example: "iio:bmp280")) { target throws(DeviceSpecificationSyntaxError) in
                try iioTarget(target ?? "")
            },
            .init(name: "i2c", argument: .required(example: "i2c:/dev/i2c-1@0x76")) { target throws(DeviceSpecificationSyntaxError) in
                try i2cTarget(target ?? "")
            },
        ])

    /// Parses a barometer string without opening anything.
    /// - Parameter text: a specification, see ``BarometerSpecification``.
    /// - Throws: ``BarometerSpecificationError`` naming the bad driver, option or value.
    public init(parsing text: String) throws(BarometerSpecificationError) {
        do {
            self = try Self.drivers.parse(text)
        } catch {
            throw BarometerSpecificationError(error.message)
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

    /// `DEVICE[,sysfs=DIR]`.
    private static func iioTarget(_ text: Substring) throws(DeviceSpecificationSyntaxError) -> BarometerSpecification {
        let (device, options) = try DeviceSpecificationGrammar.targetAndOptions(text, driver: "iio", known: ["sysfs"], form: "sysfs=…")
        guard !device.isEmpty else {
            throw DeviceSpecificationSyntaxError("driver iio needs a device before its options, e.g. 'iio:bmp280'")
        }
        return .iio(name: String(device), sysfsRoot: options.first.map { String($0.value) } ?? IIODeviceDiscovery.defaultSysfsRoot)
    }

    /// `BUS@ADDRESS[,chip=NAME]`.
    private static func i2cTarget(_ text: Substring) throws(DeviceSpecificationSyntaxError) -> BarometerSpecification {
        let (target, options) = try DeviceSpecificationGrammar.targetAndOptions(text, driver: "i2c", known: ["chip"], form: "chip=…")
        let (bus, address) = try DeviceSpecificationGrammar.busAndAddress(target, example: "/dev/i2c-1@0x76")
        let chip = options.first.map { String($0.value) }
        do { _ = try BarometerChipModel.models(named: chip) } catch {
            guard case .invalidSpecification(let why) = error else { throw DeviceSpecificationSyntaxError(error.description) }
            throw DeviceSpecificationSyntaxError("option 'chip' of driver i2c: \(why)")
        }
        return .i2c(bus: bus, address: address, chip: chip)
    }
}
