import Dispatch
import Synchronization

/// An IMU read through the Linux kernel's Industrial I/O subsystem (`iio:NAME`): any accelerometer,
/// gyroscope or magnetometer with a kernel driver, streamed from its buffer (`/dev/iio:deviceN`).
///
/// - The device is found by ``IIODeviceDiscovery`` (`iio:deviceN` by directory, anything else by `name`)
///   when the IMU is created, so ``info`` is known before `start`; every `start` finds it again, so a
///   device that went away and came back (perhaps under another number) works again.
/// - Values are `(raw + offset) × scale` per channel (magnetometer Gauss → µT), turned into the board's
///   axes by the device's `mount_matrix` attributes, or by ``mountMatrixOverride`` when given.
/// - `start` configures and enables the buffer as `IIOBufferedCapture` describes: the slowest available
///   rate at least the requested one (so the device may run a little faster than asked), a monotonic
///   timestamp channel when the kernel offers one (else timestamps from the read time, back-dated by the
///   sample period), the device's own trigger. A thread of its own reads every ``readInterval(sampleRate:)``
///   and delivers what it read as one batch; `stop` turns the buffer off.
/// - A separate magnetometer device (`iio:mpu6050+ak8975`) is streamed alongside: each of its readings
///   rides on the next accelerometer/gyroscope sample (the first one measured at or after it), so
///   ``IMUSample/magneticField`` is set only on those samples.
/// - Sampling (``IMUSamplingRequest``): `sensors=accelerometer` buffers the accelerometer's channels alone
///   (a chip whose kernel driver serves both sensors from one device then moves fewer bytes per sample);
///   `rate=max` asks for the highest rate `*sampling_frequency_available` lists, `rate=HZ` for the slowest
///   at least HZ. ``IMUDeviceInfo/accelerometerBandwidth`` is the kernel's
///   `in_accel_filter_low_pass_3db_frequency` (or the device's `filter_low_pass_3db_frequency`) when the
///   driver offers one and the IMU will run at the rate set now (the attribute belongs to that rate).
/// - Faults: a failed read is delivered as `.fault(.readFailed)` and reading goes on; a device that
///   disappears (node at its end or `ENODEV`, sysfs directory gone) is delivered once as
///   `.fault(.unavailable)` and the reader ends: the consumer stops and starts the device again to reopen
///   it. Values that are not numbers or at full scale are screened by ``IMUSampleScreen``.
public final class IIOIMU: IMUDevice {
    /// Driver `iio`; the chip as `NAME (iio:deviceN)` (plus the magnetometer's); the sensors whose three
    /// axes the buffers carry; the rates of the sampling-frequency attribute; full scales from the scan
    /// types and scales.
    public let info: IMUDeviceInfo
    /// Where devices are looked for.
    public let discovery: IIODeviceDiscovery
    /// The accelerometer/gyroscope device's selector (`iio:deviceN` or a name).
    public let selector: String
    /// The separate magnetometer device's selector, if any.
    public let magnetometerSelector: String?
    /// How the device was asked to sample.
    public let sampling: IMUSamplingRequest
    /// A chip → board matrix that replaces every mount matrix the kernel gives, if set.
    public let mountMatrixOverride: MountMatrix?
    /// The devices as found when the IMU was created: the main one, then the magnetometer.
    public let devices: [IIODeviceInfo]

    /// The sensors streamed from the main device, most important first.
    private let primarySensors: [IIOChannel.Kind]
    private let queue = DispatchQueue(label: "MotionHAL.IIOIMU", target: IMUDeliveryQueue.root)
    private let state = Mutex(State())

    /// The current run's reader, and the previous one while it may still be closing its nodes.
    private struct State {
        var reader: IIOStreamReader?
        var finishing: IIOStreamReader?
    }

    /// Finds the device(s) and reads their description.
    /// - Parameters:
    ///   - selector: `iio:deviceN`, or the device's `name` (e.g. `mpu6050`).
    ///   - magnetometer: a separate magnetometer device's selector (e.g. `ak8975`).
    ///   - discovery: where to look (the kernel's directories by default).
    ///   - mountMatrix: chip → board axes for every sensor, replacing the kernel's `mount_matrix`.
    ///   - sampling: the sensors and rate (default: every buffered sensor at the device's current rate).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when a device is missing, has no buffered
    ///   accelerometer, gyroscope or magnetometer axes or no sampling frequency, or an attribute is
    ///   missing or malformed (the message names the file and quotes the text);
    ///   ``IMUDeviceError/invalidSpecification(_:)`` for a sampling request the device cannot meet.
    public init(
        device selector: String, magnetometer: String? = nil, discovery: IIODeviceDiscovery = IIODeviceDiscovery(),
        mountMatrix: MountMatrix? = nil, sampling: IMUSamplingRequest = .deviceDefault
    ) throws(IMUDeviceError) {
        let device = try discovery.device(selector)
        if sampling.accelerometerOnly, magnetometer != nil {
            throw .invalidSpecification("sensors=accelerometer reads no magnetometer: leave out +\(magnetometer!)")
        }
        var magnetometerDevice: IIODeviceInfo?
        if let magnetometer {
            let found = try discovery.device(magnetometer)
            guard found.bufferedAxes(of: .magneticField) != nil else {
                throw .unavailable("\(found.label) cannot buffer in_magn_x, _y and _z")
            }
            magnetometerDevice = found
        }
        var primarySensors = device.bufferedSensors.filter { magnetometer == nil || $0 != .magneticField }
        if sampling.accelerometerOnly {
            guard primarySensors.contains(.acceleration) else {
                throw .invalidSpecification("sensors=accelerometer: \(device.label) cannot buffer in_accel_x, _y and _z")
            }
            primarySensors = [.acceleration]
        }
        guard !primarySensors.isEmpty else {
            throw .unavailable(
                "\(device.label) cannot buffer the x, y and z axes of an accelerometer, gyroscope or magnetometer")
        }
        guard let frequency = device.samplingFrequency(for: primarySensors) else {
            throw .unavailable("\(device.label) has no sampling_frequency attribute")
        }
        let attributes = IIOSysfsDevice(path: device.sysfsPath)
        let current = try attributes.readNumber(frequency.attribute)
        let rates = frequency.supportedRange
        let rate: Double
        switch sampling.rate {
        case .deviceDefault: rate = rates.contains(current) ? current : frequency.rate(atLeast: current)
        case .highest: rate = rates.upperBound
        case .hertz: rate = frequency.rate(atLeast: try sampling.resolvedRate(in: rates, defaultRate: current, device: device.label))
        }
        // The kernel's filter attribute describes the rate set now; for another rate it is not known until
        // `start` sets it, and drivers tie the two together, so it is only taken for the rate in force.
        var bandwidth: Double?
        if rate == current {
            bandwidth = try attributes.readNumberIfPresent("in_accel_filter_low_pass_3db_frequency")
            if bandwidth == nil { bandwidth = try attributes.readNumberIfPresent("filter_low_pass_3db_frequency") }
        }

        var sensors: IMUSensors = []
        if primarySensors.contains(.acceleration) { sensors.insert(.accelerometer) }
        if primarySensors.contains(.angularVelocity) { sensors.insert(.gyroscope) }
        if primarySensors.contains(.magneticField) || magnetometerDevice != nil { sensors.insert(.magnetometer) }
        func fullScale(_ kind: IIOChannel.Kind, of device: IIODeviceInfo?) -> Double? {
            device?.bufferedAxes(of: kind)?.compactMap(\.fullScale).max()
        }
        var chip = "\(device.name) (\(device.directoryName))"
        if let magnetometerDevice { chip += " + \(magnetometerDevice.name) (\(magnetometerDevice.directoryName))" }
        if let mountMatrix { chip += " (mount matrix \(mountMatrix))" }
        if sampling.accelerometerOnly { chip += ", accelerometer only" }
        let accelerometerOnly = sampling.accelerometerOnly
        info = IMUDeviceInfo(
            driver: "iio", chip: chip, sensors: sensors, supportedSampleRates: rates, defaultSampleRate: rate,
            accelerometerRange: fullScale(.acceleration, of: device),
            gyroscopeRange: accelerometerOnly ? nil : fullScale(.angularVelocity, of: device),
            magnetometerRange: accelerometerOnly ? nil : fullScale(.magneticField, of: magnetometerDevice ?? device),
            accelerometerBandwidth: bandwidth.flatMap { $0 > 0 ? $0 : nil })
        self.sampling = sampling
        self.discovery = discovery
        self.selector = selector
        magnetometerSelector = magnetometer
        mountMatrixOverride = mountMatrix
        devices = [device] + (magnetometerDevice.map { [$0] } ?? [])
        self.primarySensors = primarySensors
    }

    /// Seconds between two reads of the buffer of a device running at `sampleRate`: three samples' time,
    /// at least 10 ms, at most 0.1 s (15 ms at 200 Hz). The buffer's watermark is set to the records of
    /// one interval.
    /// - Parameter sampleRate: the rate the device runs at, Hz.
    public static func readInterval(sampleRate: Double) -> Double {
        min(max(3 / sampleRate, 0.01), 0.1)
    }

    /// Finds the device(s) again, configures and enables their buffers and starts the reader thread.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)`` outside ``IMUDeviceInfo/supportedSampleRates``,
    ///   ``IMUDeviceError/alreadyRunning``, or ``IMUDeviceError/unavailable(_:)`` naming the device,
    ///   attribute or node that failed.
    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        guard info.supportedSampleRates.contains(sampleRate) else {
            throw IMUDeviceError.unsupportedSampleRate(sampleRate)
        }
        // A stop from the delivery handler does not wait; the old nodes must be closed before reopening.
        // Waited for outside the lock: the old reader may be delivering to a handler that calls `stop`.
        let finishing = state.withLock { state in state.reader == nil ? state.finishing : nil }
        if let finishing, !IMUDeliveryQueue.isCurrent { finishing.waitUntilFinished() }
        try state.withLock { (state) throws(IMUDeviceError) in
            guard state.reader == nil else { throw .alreadyRunning }
            state.finishing = nil
            let triggers = discovery.triggerNames()
            let primary = try IIOBufferedCapture(
                info: try discovery.device(selector), kinds: primarySensors, requestedRate: sampleRate,
                triggers: triggers, mountMatrixOverride: mountMatrixOverride)
            var magnetometer: IIOBufferedCapture?
            do throws(IMUDeviceError) {
                if let magnetometerSelector {
                    magnetometer = try IIOBufferedCapture(
                        info: try discovery.device(magnetometerSelector), kinds: [.magneticField],
                        requestedRate: sampleRate, triggers: triggers, mountMatrixOverride: mountMatrixOverride)
                }
                state.reader = try IIOStreamReader(
                    primary: primary, magnetometer: magnetometer, screen: IMUSampleScreen(info: info),
                    readInterval: primary.readInterval, queue: queue, handler: handler)
            } catch {
                for capture in [primary, magnetometer].compactMap({ $0 }) {
                    capture.disable()
                    capture.closeNode()
                }
                throw error
            }
        }
    }

    /// Stops the reader and turns the buffers off; no event is delivered after it returns. Called from the
    /// delivery handler it does not wait: the reader thread then closes the nodes on its own (so a `start`
    /// from the handler right after may find a node still open, which the kernel refuses as busy).
    public func stop() {
        let reader = state.withLock { state -> IIOStreamReader? in
            defer { state.finishing = state.reader ?? state.finishing; state.reader = nil }
            return state.reader
        }
        guard let reader else { return }
        reader.cancel()
        reader.disableBuffers()
        if !IMUDeliveryQueue.isCurrent { reader.waitUntilFinished() }
    }
}
