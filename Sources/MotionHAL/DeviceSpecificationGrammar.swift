/// Why a device string could not be read; the message names the bad driver, option or value. Each
/// kind of specification wraps it in its own public error (``IMUDeviceError/invalidSpecification(_:)``,
/// ``BarometerSpecificationError``).
struct DeviceSpecificationSyntaxError: Error, Sendable, Equatable {
    /// What is wrong, e.g. `option 'rate' of driver sim: 'fast' is not a number of Hz`.
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// The drivers one kind of device string can name (IMU or barometer), and the grammar they share:
/// `DRIVER` or `DRIVER:ARGUMENT`, surrounding white space ignored, the argument read by the driver's
/// entry. A pure value: parsing opens nothing.
struct DeviceDriverRegistry<Specification>: Sendable {
    /// Whether a driver takes an argument after its colon.
    enum Argument: Sendable {
        /// `DRIVER` alone (`auto`, `none`).
        case none
        /// `DRIVER` or `DRIVER:ARGUMENT` (`sim`); the entry gets `nil` without one.
        case optional
        /// `DRIVER:ARGUMENT` only; `example` is shown when it is missing, e.g. `iio:mpu6050`.
        case required(example: String)
    }

    /// One driver: its name, its argument rule, and how it reads the argument (trimmed, non-empty when
    /// required).
    struct Driver: Sendable {
        let name: String
        let argument: Argument
        let read: @Sendable (Substring?) throws(DeviceSpecificationSyntaxError) -> Specification
    }

    /// What an empty string is called in its error, e.g. `device specification`.
    let noun: String
    /// How an unknown driver is named in its error, e.g. `driver` or `barometer driver`.
    let driverLabel: String
    /// The drivers, in the order errors list them.
    let drivers: [Driver]

    /// The driver names, in the registry's order.
    var names: [String] { drivers.map(\.name) }

    /// Reads `text` as `DRIVER[:ARGUMENT]` with the driver's own reader.
    /// - Throws: ``DeviceSpecificationSyntaxError`` for an empty string, an unknown driver, an argument
    ///   where none is taken or none where one is needed, or whatever the driver's reader refuses.
    func parse(_ text: String) throws(DeviceSpecificationSyntaxError) -> Specification {
        let trimmed = Substring(text).trimmingBlanks()
        guard !trimmed.isEmpty else { throw DeviceSpecificationSyntaxError("empty \(noun)") }
        let name = trimmed.prefix { $0 != ":" }
        let argument = name.endIndex == trimmed.endIndex ? nil : trimmed[trimmed.index(after: name.endIndex)...]
        guard let driver = drivers.first(where: { $0.name == name }) else {
            throw DeviceSpecificationSyntaxError(
                "unknown \(driverLabel) '\(name)' in '\(trimmed)' (known drivers: \(names.joined(separator: ", ")))")
        }
        switch driver.argument {
        case .none:
            guard argument == nil else {
                throw DeviceSpecificationSyntaxError("driver \(name) takes no argument: '\(trimmed)'")
            }
            return try driver.read(nil)
        case .optional:
            return try driver.read(argument?.trimmingBlanks())
        case .required(let example):
            guard let argument, !argument.trimmingBlanks().isEmpty else {
                throw DeviceSpecificationSyntaxError("driver \(name) needs an argument, e.g. '\(example)'")
            }
            return try driver.read(argument.trimmingBlanks())
        }
    }
}

/// The parts of device strings that several drivers share: `key=value` option lists, `BUS@ADDRESS`,
/// seeds and bounded numbers. Every error names the driver and the option.
enum DeviceSpecificationGrammar {
    /// One `key=value` option, both sides trimmed.
    typealias Option = (key: Substring, value: Substring)

    /// Reads a comma-separated list of `key=value` options, each key among `known` and at most once.
    /// - Parameters:
    ///   - items: the options, already split at commas (empty items are refused).
    ///   - driver: the driver's name, for errors.
    ///   - whole: the whole `driver:argument` text, for errors.
    ///   - known: the keys the driver takes, in the order errors list them.
    ///   - form: how an option looks, for errors, e.g. `key=value` or `sysfs=DIR or dev=DIR`.
    /// - Returns: the options in the order given.
    static func options(
        _ items: some Sequence<Substring>, driver: String, whole: String, known: [String], form: String
    ) throws(DeviceSpecificationSyntaxError) -> [Option] {
        var options: [Option] = []
        for item in items {
            let option = item.trimmingBlanks()
            guard !option.isEmpty else { throw DeviceSpecificationSyntaxError("empty option in '\(whole)'") }
            guard let equals = option.firstIndex(of: "="), !option[option.index(after: equals)...].trimmingBlanks().isEmpty
            else { throw DeviceSpecificationSyntaxError("option '\(option)' of driver \(driver) needs the form \(form)") }
            let key = option[..<equals].trimmingBlanks()
            guard known.contains(String(key)) else {
                throw DeviceSpecificationSyntaxError(
                    "unknown option '\(key)' of driver \(driver) (known options: \(known.joined(separator: ", ")))")
            }
            guard !options.contains(where: { $0.key == key }) else {
                throw DeviceSpecificationSyntaxError("option '\(key)' given twice in '\(whole)'")
            }
            options.append((key, option[option.index(after: equals)...].trimmingBlanks()))
        }
        return options
    }

    /// Splits `TARGET[,key=value…]` into its target (trimmed) and its options, read as ``options(_:driver:whole:known:form:)``
    /// does; `driver` also names the whole text (`driver:text`) in errors.
    static func targetAndOptions(_ text: Substring, driver: String, known: [String], form: String)
        throws(DeviceSpecificationSyntaxError) -> (target: Substring, options: [Option])
    {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        let options = try options(items.dropFirst(), driver: driver, whole: "\(driver):\(text)", known: known, form: form)
        return (items[0].trimmingBlanks(), options)
    }

    /// Splits `BUS@ADDRESS` (the last `@`) and reads the address, decimal or `0x` hexadecimal, 7-bit.
    /// - Parameter example: a valid target for the error, e.g. `/dev/i2c-1@0x68`.
    static func busAndAddress(_ target: Substring, example: String)
        throws(DeviceSpecificationSyntaxError) -> (bus: String, address: UInt8)
    {
        guard let at = target.lastIndex(of: "@"), at != target.startIndex else {
            throw DeviceSpecificationSyntaxError("i2c target '\(target)' needs the form BUS@ADDRESS, e.g. '\(example)'")
        }
        let addressText = target[target.index(after: at)...]
        let address = addressText.hasPrefix("0x") ? UInt8(addressText.dropFirst(2), radix: 16) : UInt8(addressText)
        guard let address, address <= 0x7F else {
            let exampleAddress = example[example.index(after: example.lastIndex(of: "@") ?? example.startIndex)...]
            throw DeviceSpecificationSyntaxError("i2c address '\(addressText)' is not a 7-bit address such as \(exampleAddress)")
        }
        return (String(target[..<at]), address)
    }

    /// A seed, decimal or `0x` hexadecimal, as an unsigned 64-bit integer.
    static func seed(_ value: Substring, driver: String) throws(DeviceSpecificationSyntaxError) -> UInt64 {
        let seed = value.hasPrefix("0x") ? UInt64(value.dropFirst(2), radix: 16) : UInt64(value)
        guard let seed else {
            throw DeviceSpecificationSyntaxError("option 'seed' of driver \(driver): '\(value)' is not an unsigned 64-bit integer")
        }
        return seed
    }

    /// `value` as a finite number inside `range`.
    /// - Parameters:
    ///   - unit: the unit's symbol, written after the value and the bounds (`Hz`, `s`).
    ///   - quantity: what a number of the unit is called in "is not a number of …" (`seconds`); the
    ///     symbol when `nil`.
    static func number(
        _ value: Substring, option: Substring, driver: String, unit: String, quantity: String? = nil,
        range: ClosedRange<Double>
    ) throws(DeviceSpecificationSyntaxError) -> Double {
        guard let number = Double(value.trimmingBlanks()), number.isFinite else {
            throw DeviceSpecificationSyntaxError(
                "option '\(option)' of driver \(driver): '\(value)' is not a number of \(quantity ?? unit)")
        }
        guard range.contains(number) else {
            let bounds = "\(range.lowerBound.decimalText)...\(range.upperBound.decimalText)"
            throw DeviceSpecificationSyntaxError("option '\(option)' of driver \(driver): \(value) \(unit) is outside \(bounds) \(unit)")
        }
        return number
    }
}
