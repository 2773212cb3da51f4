import Dispatch
import Synchronization

/// A barometer read through the Linux kernel's Industrial I/O subsystem (`iio:DEVICE[,sysfs=DIR]`): any
/// pressure sensor with a kernel driver (bmp280, st_pressure, ms5611, dps310, …), polled through sysfs.
///
/// - The device is found by ``IIODeviceDiscovery`` (`iio:deviceN` by directory, anything else by `name`)
///   when the barometer is created, so ``info`` is known before `start`; every `start` finds it again, so
///   a device that went away and came back (perhaps under another number) works again.
/// - Values: `in_pressure_input` (kPa in the kernel ABI) or `(in_pressure_raw + offset) × scale`, in Pa;
///   `in_temp_input` (m°C) or `(in_temp_raw + offset) × scale`, in °C, when the device has a temperature
///   channel (`in_pressure0_…` and `in_temp0_…` too); see ``IIOBarometerChannel``.
/// - Rates: with a `sampling_frequency` (or `in_pressure_sampling_frequency`) attribute its `_available`
///   rates, the current one by default, and `start` writes the slowest available rate at least the one
///   asked for; without one (the kernel's bmp280 driver converts at every read) any rate in
///   ``pollingRates``, 10 Hz by default.
/// - A thread of its own reads the attributes once per period and delivers one reading per poll, stamped
///   with the time of the read. Faults: an attribute that cannot be read or parsed is `.fault(.readFailed)`
///   and polling goes on; a device whose sysfs directory has gone is `.fault(.unavailable)` once and
///   polling ends.
public final class IIOBarometer: BarometerDevice {
    /// Driver `iio`, chip `NAME (iio:deviceN)`, the device's rates, with temperature when it has the channel.
    public let info: BarometerInfo
    /// Where devices are looked for.
    public let discovery: IIODeviceDiscovery
    /// The device's selector (`iio:deviceN` or a name).
    public let selector: String
    /// The rates offered for a device without a sampling-frequency attribute, Hz.
    public static let pollingRates: ClosedRange<Double> = 0.1...50
    /// The default rate of a device without a sampling-frequency attribute, Hz.
    public static let defaultPollingRate = 10.0

    private let queue = DispatchQueue(label: "MotionHAL.IIOBarometer", target: IMUDeliveryQueue.root)
    private let state = Mutex<DevicePoller<BarometerEvent>?>(nil)

    /// What one poll needs: the device's directory, its channels and its rate attribute.
    private struct Source: Sendable {
        var label: String
        var device: IIOSysfsDevice
        var pressure: IIOBarometerChannel
        var temperature: IIOBarometerChannel?
        var samplingFrequency: IIOSamplingFrequency?
    }

    /// Finds the device and reads its description.
    /// - Parameters:
    ///   - selector: `iio:deviceN`, or the device's `name` (e.g. `bmp280`, `lps22hb`).
    ///   - discovery: where to look (the kernel's directories by default).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the device is missing, has no pressure channel, or an
    ///   attribute is missing or malformed (the message names the file and quotes the text).
    public init(device selector: String, discovery: IIODeviceDiscovery = IIODeviceDiscovery()) throws(IMUDeviceError) {
        self.discovery = discovery
        self.selector = selector
        let source = try Self.find(selector, in: discovery)
        var rates = Self.pollingRates
        var defaultRate = Self.defaultPollingRate
        if let frequency = source.samplingFrequency {
            rates = frequency.supportedRange
            let current = try source.device.readNumber(frequency.attribute)
            defaultRate = rates.contains(current) ? current : frequency.rate(atLeast: current)
        }
        info = BarometerInfo(
            driver: "iio", chip: source.label, supportedSampleRates: rates, defaultSampleRate: defaultRate,
            hasTemperature: source.temperature != nil)
    }

    deinit {
        // A running poll thread is not owned by this object: stop it with the device.
        state.withLock { $0 }?.cancel()
    }

    private static func find(_ selector: String, in discovery: IIODeviceDiscovery) throws(IMUDeviceError) -> Source {
        let found = try discovery.device(selector)
        let device = IIOSysfsDevice(path: found.sysfsPath)
        let label = "\(found.name) (\(found.directoryName))"
        guard let pressure = try IIOBarometerChannel.find(["in_pressure", "in_pressure0"], in: device, unitFactor: 1000) else {
            throw .unavailable("\(found.label) has no pressure channel (in_pressure_input or in_pressure_raw)")
        }
        let temperature = try IIOBarometerChannel.find(["in_temp", "in_temp0"], in: device, unitFactor: 0.001)
        var frequency = found.samplingFrequencies.first { $0.attribute == "sampling_frequency" }
        if frequency == nil {
            frequency = try IIOSamplingFrequency.load(
                "in_pressure_sampling_frequency", of: device, fallbackAvailable: "sampling_frequency_available")
        }
        return Source(label: label, device: device, pressure: pressure, temperature: temperature, samplingFrequency: frequency)
    }

    /// Finds the device again, sets its rate and starts the poll thread.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)`` outside ``BarometerInfo/supportedSampleRates``,
    ///   ``IMUDeviceError/alreadyRunning``, or ``IMUDeviceError/unavailable(_:)`` naming the device or the
    ///   attribute that failed.
    public func start(sampleRate: Double, handler: @escaping @Sendable (BarometerEvent) -> Void) throws {
        guard info.supportedSampleRates.contains(sampleRate) else {
            throw IMUDeviceError.unsupportedSampleRate(sampleRate)
        }
        try state.withLock { (run) throws(IMUDeviceError) in
            guard run == nil else { throw .alreadyRunning }
            let source = try Self.find(selector, in: discovery)
            var rate = sampleRate
            if let frequency = source.samplingFrequency {
                rate = frequency.rate(atLeast: sampleRate)
                try source.device.writeText(frequency.attribute, rate.decimalText)
            }
            // The kernel's files, read on the process's time.
            run = DevicePoller(interval: 1 / rate, time: .monotonic, queue: queue, handler: handler, poll: { Self.poll(source) })
        }
    }

    /// Stops the poll thread; no event is delivered after it returns. Called from the delivery handler it
    /// does not wait: the thread then finishes on its own.
    public func stop() {
        state.withLock { run in
            defer { run = nil }
            return run
        }?.stop()
    }

    /// One poll: a reading, a failed read, or the device gone.
    private static func poll(_ source: Source) -> [BarometerEvent] {
        let readTime = MonotonicClock.now()
        do throws(IMUDeviceError) {
            let pressure = try source.pressure.value(of: source.device)
            let temperature = try source.temperature?.value(of: source.device)
            guard pressure.isFinite, temperature?.isFinite ?? true else {
                return [.fault(.readFailed("\(source.label): a value that is not a number"))]
            }
            return [.readings([PressureReading(timestamp: readTime, pressure: pressure, temperature: temperature)])]
        } catch {
            guard source.device.isPresent else {
                return [.fault(.unavailable("IIO device \(source.label) is gone (\(source.device.path) was removed)"))]
            }
            switch error {
            case .unavailable(let why), .readFailed(let why), .invalidSpecification(let why): return [.fault(.readFailed(why))]
            default: return [.fault(error)]
            }
        }
    }
}
