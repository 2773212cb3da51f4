import MotionMath

/// Which IMU device to open, parsed from a device string such as `sim:rate=500,motion=spin`.
///
/// Grammar: `DRIVER` or `DRIVER:ARGUMENT`, surrounding white space ignored.
///
/// | string | device |
/// |---|---|
/// | `auto` | the IMU the kernel offers: the first IIO device with an accelerometer and a gyroscope, with a separate IIO magnetometer if it has none (``IIODeviceDiscovery/detectedIMUSpecification()``) |
/// | `sim` | ``SimulatedIMU`` with its default configuration (demo motion, 200 Hz, seed 1) |
/// | `sim:OPTIONS` | ``SimulatedIMU``; `OPTIONS` is a comma-separated list of `key=value`, each key at most once |
/// | `replay:PATH[,loop][,fast]` | a recording (``IMURecording``'s CSV) played back at its own rate (`fast`: without waiting), `loop` to start over at its end |
/// | `iio:DEVICE[+MAGNETOMETER][,sysfs=DIR][,dev=DIR][,rate=…][,sensors=…]` | a Linux IIO device streamed from its buffer (``IIOIMU``), e.g. `iio:mpu6050`, `iio:iio:device0`, `iio:mpu6050+ak8975` |
/// | `i2c:BUS@ADDRESS[,rate=…][,sensors=…]` | a chip on an I²C bus, e.g. `i2c:/dev/i2c-1@0x68`, identified by its WHO_AM_I (``I2CIMU``) |
///
/// Hardware devices (`iio:`, `i2c:`) also take ``IMUSamplingRequest``'s options: `rate=HZ` (the nearest
/// rate the chip runs at; refused outside its rates) or `rate=max` (its highest), and `sensors=accelerometer`
/// to read the accelerometer alone (the FIFO or buffer then carries nothing else, so the chip can run
/// faster: the vibration service's mode, e.g. `i2c:/dev/i2c-1@0x6a,sensors=accelerometer,rate=max`) or
/// `sensors=all` (the default).
///
/// IIO devices: `DEVICE` is `iio:deviceN` for that sysfs directory, or else the device's `name` attribute
/// (the lowest-numbered device of that name). `+MAGNETOMETER` (same form) adds a separate magnetometer
/// device whose readings ride on the next sample of `DEVICE`. `sysfs=DIR` replaces the sysfs root
/// `/sys/bus/iio/devices`, `dev=DIR` the directory of the nodes `/dev`; each option at most once.
///
/// Simulator options:
/// - `rate=HZ`: the device's default sample rate (`info.defaultSampleRate`), a number in 1...8000 Hz;
///   default 200.
/// - `motion=demo|stationary|spin|drop|shake|tap|tilt|walk|run|stairs|vibrate|fall|table_drop|sit|machine`:
///   ``SimulatedMotion/demo`` (default); ``SimulatedMotion/stationary(attitude:)`` face up with y towards
///   magnetic north; ``SimulatedMotion/spin`` (45 °/s about the vertical); the scenarios with ground truth,
///   each with its defaults: a 1 m drop every 10 s (``SimulatedDrop``), shaking bursts (``SimulatedShake``),
///   single and double taps (``SimulatedTaps``), a 60° tilt and back (``SimulatedTilt``), walking, running and
///   two floors of stairs up and down (``SimulatedGait``), a machine vibrating at 40 Hz (``SimulatedVibration``),
///   a person falling hard and getting up every 30 s (``SimulatedFall``), a phone dropped 40 cm onto a table
///   every 10 s (``SimulatedDrop/ontoTable``), a person sitting down hard every 24 s (``SimulatedSitDown``), a
///   rotating machine with unbalance, misalignment, looseness and a bearing defect (``SimulatedMachine``).
/// - `rpm=N`, `severity=MM_PER_S`: with `motion=machine`, its running speed (60…60000 rpm; default 1480) and
///   the velocity RMS of its fault lines (0…100 mm/s; default 2.8), both while it runs steadily.
/// - `faults=NAME[+NAME…]`: with `motion=machine`, the faults whose lines it has, any of `unbalance`,
///   `misalignment`, `looseness`, `bearing` joined by `+` (default all four); their shares of the velocity
///   mean square are scaled up to add up to 1, so the lines still make `severity`.
/// - `bearing=ORDER`: with `motion=machine`, the bearing defect's order of the running speed (0.5…50; default
///   3.57).
/// - `noise=MM_PER_S`: with `motion=machine`, broadband vibration: white velocity noise of this RMS (vector,
///   0…100 mm/s; default 0) over 10 Hz to 1000 Hz or 0.4 × `rate` if lower (`rate` above 25 Hz), added on
///   top of `severity` (total √(severity² + noise²)); deterministic from `seed` (see
///   ``SimulatedMachine/noise``).
/// - `ramp=SECONDS`, `cycle=SECONDS`: with `motion=machine`, start-up and coast-down: cycles of `cycle` s
///   (0…86400; default 60, more than 2 × `ramp`; needs `ramp`), each from standstill up to `rpm` in `ramp` s
///   (0…600; default 0: running steadily), steady, down to standstill in the last `ramp` s of the running
///   part, then still for `ramp` s (see ``SimulatedMachine``).
/// - `seed=N`: seed of the noise generator, a decimal or `0x` hexadecimal unsigned 64-bit integer; default 1.
/// - `batch=SECONDS`: how often the live simulator wakes up and delivers the samples that have come due
///   (``SimulatedIMU/Configuration/deliveryInterval``), 0.0005...1 s; default 0.01. Larger values mean fewer
///   wake-ups and more latency; timestamps are unaffected.
/// - `clock=own|shared`: `own` (default): a delivery thread of the device's own; `shared`: the process's
///   shared delivery threads, four per core, for every simulated device that asks (a fleet simulated in one
///   process, `motionctl simulate`).
/// - `fault_after=SECONDS`: fault injection (see ``SimulatedFaultInjection``): that many seconds (0…31536000, a
///   year) after
///   `start` the device delivers one `.fault(.readFailed("simulated fault"))` and then no samples for
///   `fault_duration` seconds, then resumes by itself. Samples stamped during the outage are lost (timestamps
///   keep following the real clock).
/// - `fault_duration=SECONDS`: length of the outage after each fault, 0…31536000; default 0 (a fault event without
///   lost samples). Needs `fault_after`.
/// - `fault=read|stall|nan|saturate|vanish`: what goes wrong at each fault (see ``FaultInjectingIMU/Kind``);
///   `read` (default) as described for `fault_after`; the others are injected by ``FaultInjectingIMU``
///   for `fault_duration` seconds each time: silence, readings that are not numbers, full-scale readings,
///   a device that is gone (and cannot be started) until the duration has passed. Needs `fault_after`.
/// - `fault_every=SECONDS`: repeat the fault with this period, > `fault_duration`; default: one fault. Needs
///   `fault_after`.
public enum IMUDeviceSpecification: Sendable, Equatable {
    /// The IMU the kernel offers, found when the device is opened (`auto`).
    case automatic
    /// The simulator with this configuration (`sim…`).
    case simulated(SimulatedIMU.Configuration)
    /// A recording replayed from a file (`replay:PATH[,loop][,fast]`).
    case replay(path: String, loop: Bool = false, asFastAsPossible: Bool = false)
    /// A Linux Industrial I/O device (`iio:DEVICE[+MAGNETOMETER][,sysfs=DIR][,dev=DIR]`): its selector
    /// (`iio:deviceN` or a name), a separate magnetometer's selector, the sysfs root and the node directory.
    case iio(
        name: String, magnetometer: String? = nil, sysfsRoot: String = IIODeviceDiscovery.defaultSysfsRoot,
        deviceDirectory: String = IIODeviceDiscovery.defaultDeviceDirectory, sampling: IMUSamplingRequest = .deviceDefault)
    /// A chip on an I²C bus (`i2c:BUS@ADDRESS[,rate=HZ|max][,sensors=accelerometer]`): bus device path,
    /// 7-bit address and how it samples.
    case i2c(bus: String, address: UInt8, sampling: IMUSamplingRequest = .deviceDefault)

    /// The driver names ``parse(_:)`` understands.
    public static let driverNames = drivers.names

    /// The drivers and how each reads its argument.
    private static let drivers = DeviceDriverRegistry<IMUDeviceSpecification>(
        noun: "device specification", driverLabel: "driver",
        drivers: [
            .init(name: "auto", argument: .none) { _ in .automatic },
            .init(name: "sim", argument: .optional) { options throws(DeviceSpecificationSyntaxError) in
                .simulated(try simulatorConfiguration(options: options ?? ""))
            },
            .init(name: "replay", argument: .required(example: "replay:PATH[,loop][,fast]")) { argument in
                var target = String(argument ?? "")
                var loop = false, fast = false
                while true {
                    if target.hasSuffix(",loop"), !loop { loop = true; target.removeLast(5); continue }
                    if target.hasSuffix(",fast"), !fast { fast = true; target.removeLast(5); continue }
                    break
                }
                return .replay(path: target, loop: loop, asFastAsPossible: fast)
            },
            .init(name: "iio", argument: .required(example: "iio:mpu6050")) { target throws(DeviceSpecificationSyntaxError) in
                try iioTarget(target ?? "")
            },
            .init(name: "i2c", argument: .required(example: "i2c:/dev/i2c-1@0x68")) { target throws(DeviceSpecificationSyntaxError) in
                let (busAndAddress, options) = try DeviceSpecificationGrammar.targetAndOptions(
                    target ?? "", driver: "i2c", known: IMUSamplingRequest.optionNames,
                    form: "rate=HZ, rate=max or sensors=accelerometer")
                let (bus, address) = try DeviceSpecificationGrammar.busAndAddress(busAndAddress, example: "/dev/i2c-1@0x68")
                return .i2c(bus: bus, address: address, sampling: try IMUSamplingRequest.read(options, driver: "i2c"))
            },
        ])

    /// The values the simulator's `motion=` option takes.
    public static let simulatedMotions = SimulatedMotion.named.map(\.name)

    /// Parses `specification` and opens the device it names.
    /// - Parameters:
    ///   - specification: a device string, see ``IMUDeviceSpecification``.
    ///   - discovery: where `auto` looks for the IMU the kernel offers (the kernel's sysfs by default).
    /// - Returns: the device, not yet started.
    /// - Throws: ``IMUDeviceError/invalidSpecification(_:)`` naming the bad part, or
    ///   ``IMUDeviceError/unavailable(_:)`` for a device that cannot be opened (an unreadable recording, an
    ///   IIO device that is missing or malformed, an I²C chip that does not answer).
    public static func open(
        _ specification: String, detectingIn discovery: IIODeviceDiscovery = IIODeviceDiscovery()
    ) throws(IMUDeviceError) -> any IMUDevice {
        try parse(specification).makeDevice(detectingIn: discovery)
    }

    /// Parses a device string without opening anything.
    /// - Parameter specification: a device string, see ``IMUDeviceSpecification``.
    /// - Throws: ``IMUDeviceError/invalidSpecification(_:)`` naming the bad driver, option or value.
    public static func parse(_ specification: String) throws(IMUDeviceError) -> IMUDeviceSpecification {
        do {
            return try drivers.parse(specification)
        } catch {
            throw .invalidSpecification(error.message)
        }
    }

    /// Opens the device this specification names.
    /// - Parameter discovery: where `auto` looks for the IMU the kernel offers (the kernel's sysfs by
    ///   default; a fake tree in tests).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` for a device that cannot be opened.
    public func makeDevice(detectingIn discovery: IIODeviceDiscovery = IIODeviceDiscovery()) throws(IMUDeviceError) -> any IMUDevice {
        switch self {
        case .automatic:
            guard let detected = discovery.detectedIMUSpecification() else {
                throw .unavailable(
                    "no IMU detected: no IIO device under \(discovery.sysfsRoot) buffers an accelerometer "
                        + "and a gyroscope (name the device instead, e.g. i2c:/dev/i2c-1@0x68)")
            }
            return try Self.open(detected)
        case .simulated(let configuration):
            guard let injection = configuration.faultInjection, injection.kind != .read else {
                return SimulatedIMU(configuration: configuration)
            }
            var plain = configuration
            plain.faultInjection = nil
            return FaultInjectingIMU(
                SimulatedIMU(configuration: plain),
                script: .init(kind: injection.kind, after: injection.after, duration: injection.duration, every: injection.every))
        case .replay(let path, let loop, let fast):
            return try ReplayIMU(path: path, loop: loop, asFastAsPossible: fast)
        case .iio(let name, let magnetometer, let sysfsRoot, let deviceDirectory, let sampling):
            return try IIOIMU(
                device: name, magnetometer: magnetometer,
                discovery: IIODeviceDiscovery(sysfsRoot: sysfsRoot, deviceDirectory: deviceDirectory), sampling: sampling)
        case .i2c(let bus, let address, let sampling):
            return try I2CIMU(bus: bus, address: address, sampling: sampling)
        }
    }

    // MARK: - Parsing helpers

    private static func simulatorConfiguration(options: Substring) throws(DeviceSpecificationSyntaxError)
        -> SimulatedIMU.Configuration
    {
        var configuration = SimulatedIMU.Configuration()
        guard !options.trimmingBlanks().isEmpty else { return configuration }
        var faultAfter: Double?
        var faultDuration: Double?
        var faultEvery: Double?
        var faultKind: FaultInjectingIMU.Kind?
        var machine = MachineOptions()
        let items = options.split(separator: ",", omittingEmptySubsequences: false)
        for (key, value) in try DeviceSpecificationGrammar.options(
            items, driver: "sim", whole: "sim:\(options)", known: simulatorOptionNames, form: "key=value")
        {
            switch key {
            case "rate":
                configuration.sampleRate = try DeviceSpecificationGrammar.number(
                    value, option: key, driver: "sim", unit: "Hz", range: SimulatedIMU.supportedSampleRates)
            case "motion":
                guard let motion = SimulatedMotion(name: String(value)) else {
                    throw DeviceSpecificationSyntaxError(
                        "option 'motion' of driver sim: '\(value)' is not one of \(Self.simulatedMotions.joined(separator: ", "))")
                }
                configuration.motion = motion
            case "seed":
                configuration.seed = try DeviceSpecificationGrammar.seed(value, driver: "sim")
            case "batch":
                let interval = try seconds(value, option: "batch", range: 0.0005...1)
                configuration.deliveryInterval = interval
            case "clock":
                switch value {
                case "own": configuration.sharesDeliveryThreads = false
                case "shared": configuration.sharesDeliveryThreads = true
                default: throw DeviceSpecificationSyntaxError("option 'clock' of driver sim: '\(value)' is not one of own, shared")
                }
            case "fault_after":
                faultAfter = try seconds(value, option: "fault_after", range: 0...maximumFaultSeconds)
            case "fault_duration":
                faultDuration = try seconds(value, option: "fault_duration", range: 0...maximumFaultSeconds)
            case "fault":
                guard let kind = FaultInjectingIMU.Kind(rawValue: String(value)) else {
                    throw DeviceSpecificationSyntaxError(
                        "option 'fault' of driver sim: '\(value)' is not one of \(FaultInjectingIMU.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                faultKind = kind
            case "fault_every":
                faultEvery = try seconds(value, option: "fault_every", range: 0...maximumFaultSeconds)
            case _ where MachineOptions.names.contains(String(key)):
                try machine.read(key: key, value: value)
            default:  // unreachable: `options` refuses keys outside simulatorOptionNames
                throw DeviceSpecificationSyntaxError("unknown option '\(key)' of driver sim")
            }
        }
        try machine.apply(to: &configuration)
        if let faultAfter {
            let duration = faultDuration ?? 0
            if let faultEvery, faultEvery <= duration {
                throw DeviceSpecificationSyntaxError(
                    "option 'fault_every' of driver sim: \(faultEvery) s must exceed fault_duration (\(duration) s)")
            }
            configuration.faultInjection = SimulatedFaultInjection(
                after: faultAfter, duration: duration, every: faultEvery, kind: faultKind ?? .read)
        } else if faultDuration != nil || faultEvery != nil || faultKind != nil {
            let option = faultDuration != nil ? "fault_duration" : faultEvery != nil ? "fault_every" : "fault"
            throw DeviceSpecificationSyntaxError("option '\(option)' of driver sim needs 'fault_after'")
        }
        return configuration
    }

    /// The longest fault time the simulator takes, s (a year).
    private static let maximumFaultSeconds = 31_536_000.0

    /// The options of driver `sim`, in the order the documentation lists them.
    private static let simulatorOptionNames = [
        "rate", "motion", "seed", "batch", "clock", "fault", "fault_after", "fault_duration", "fault_every",
    ] + MachineOptions.names

    /// The options of `motion=machine`, read in any order and applied once the motion, the rate and the seed
    /// are known.
    private struct MachineOptions {
        /// Their names, in the order the documentation lists them.
        static let names = ["rpm", "severity", "faults", "bearing", "noise", "ramp", "cycle"]

        /// The first one given, for the error without `motion=machine`.
        var first: Substring?
        var rpm: Double?
        var severity: Double?
        var faults: Set<SimulatedMachine.Fault>?
        var bearing: Double?
        var noise: Double?
        var ramp: Double?
        var cycle: Double?

        /// Reads option `key` (one of ``names``).
        mutating func read(key: Substring, value: Substring) throws(DeviceSpecificationSyntaxError) {
            if first == nil { first = key }
            func number(_ unit: String, _ range: ClosedRange<Double>) throws(DeviceSpecificationSyntaxError) -> Double {
                try DeviceSpecificationGrammar.number(value, option: key, driver: "sim", unit: unit, range: range)
            }
            switch key {
            case "rpm": rpm = try number("rpm", 60...60_000)
            case "severity": severity = try number("mm/s", 0...100)
            case "bearing": bearing = try number("orders", 0.5...50)
            case "noise": noise = try number("mm/s", 0...100)
            case "ramp": ramp = try IMUDeviceSpecification.seconds(value, option: "ramp", range: 0...600)
            case "cycle": cycle = try IMUDeviceSpecification.seconds(value, option: "cycle", range: 0...86_400)
            default:  // "faults"
                var faults = Set<SimulatedMachine.Fault>()
                for name in value.split(separator: "+", omittingEmptySubsequences: false) {
                    guard let fault = SimulatedMachine.Fault(rawValue: String(name.trimmingBlanks())) else {
                        throw DeviceSpecificationSyntaxError(
                            "option 'faults' of driver sim: '\(name)' is not one of \(SimulatedMachine.Fault.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    faults.insert(fault)
                }
                self.faults = faults
            }
        }

        /// Sets the machine of `configuration` up with the options given.
        /// - Throws: without `motion=machine`, for `cycle` without `ramp` or not above 2 × `ramp`, and for
        ///   `noise` at a rate that leaves no band (25 Hz or less).
        func apply(to configuration: inout SimulatedIMU.Configuration) throws(DeviceSpecificationSyntaxError) {
            guard let first else { return }
            guard case .machine(var machine) = configuration.motion else {
                throw DeviceSpecificationSyntaxError("option '\(first)' of driver sim needs 'motion=machine'")
            }
            if let rpm { machine.rpm = rpm }
            if let severity { machine.severity = severity }
            if let faults { machine.faults = faults }
            if let bearing { machine.bearingOrder = bearing }
            if let ramp { machine.ramp = ramp }
            if let cycle {
                guard let ramp else { throw DeviceSpecificationSyntaxError("option 'cycle' of driver sim needs 'ramp'") }
                guard cycle > 2 * ramp else {
                    throw DeviceSpecificationSyntaxError("option 'cycle' of driver sim: \(cycle) s must exceed twice ramp (2 × \(ramp) s)")
                }
                machine.cycle = cycle
            } else if let ramp, machine.cycle <= 2 * ramp {
                throw DeviceSpecificationSyntaxError(
                    "option 'ramp' of driver sim: \(ramp) s needs a cycle longer than twice it (cycle=SECONDS, default \(machine.cycle) s)")
            }
            if let noise, noise > 0 {
                // The band, like an accelerometer's anti-aliasing filter's, ends at 0.4 × the rate.
                let top = min(1000, 0.4 * configuration.sampleRate)
                guard top > 10 else {
                    throw DeviceSpecificationSyntaxError(
                        "option 'noise' of driver sim needs a rate above 25 Hz (its band is 10 Hz to 0.4 × rate), not \(configuration.sampleRate) Hz")
                }
                // Seed and band only with noise, so that a machine without it equals its plain description.
                machine.noiseBand = 10...top
                machine.noiseSeed = configuration.seed
                machine.noise = noise
            }
            configuration.motion = .machine(machine)
        }
    }

    /// `value` as a finite number of seconds inside `range`.
    private static func seconds(_ value: Substring, option: String, range: ClosedRange<Double>)
        throws(DeviceSpecificationSyntaxError) -> Double
    {
        try DeviceSpecificationGrammar.number(
            value, option: Substring(option), driver: "sim", unit: "s", quantity: "seconds", range: range)
    }

    /// `DEVICE[+MAGNETOMETER][,sysfs=DIR][,dev=DIR]`.
    private static func iioTarget(_ target: Substring) throws(DeviceSpecificationSyntaxError) -> IMUDeviceSpecification {
        let (device, options) = try DeviceSpecificationGrammar.targetAndOptions(
            target, driver: "iio", known: ["sysfs", "dev"] + IMUSamplingRequest.optionNames,
            form: "sysfs=DIR, dev=DIR, rate=HZ, rate=max or sensors=accelerometer")
        let devices = device.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
        guard devices.count <= 2, !devices.contains(where: \.isEmpty) else {
            throw DeviceSpecificationSyntaxError(
                "iio device '\(device)' needs the form DEVICE or DEVICE+MAGNETOMETER, e.g. 'mpu6050+ak8975'")
        }
        func option(_ key: Substring) -> String? { options.first { $0.key == key }.map { String($0.value) } }
        return .iio(
            name: String(devices[0]), magnetometer: devices.count == 2 ? String(devices[1]) : nil,
            sysfsRoot: option("sysfs") ?? IIODeviceDiscovery.defaultSysfsRoot,
            deviceDirectory: option("dev") ?? IIODeviceDiscovery.defaultDeviceDirectory,
            sampling: try IMUSamplingRequest.read(options, driver: "iio"))
    }
}
