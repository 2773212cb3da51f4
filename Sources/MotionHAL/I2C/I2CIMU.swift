import Dispatch
import Synchronization

/// An IMU chip on an I²C bus (`i2c:BUS@ADDRESS`), driven by its ``I2CChipDriver``: this type finds the
/// chip, runs the driver on a poll thread of its own, applies the mount matrix, screens the values
/// (``IMUSampleScreen``) and delivers batches.
///
/// - The chip is identified when the device is created (each model of ``I2CChipModel/all`` probes its
///   identity registers), so ``info`` is known before `start`. Every `start` opens the bus and probes
///   again: a chip that was replaced or removed since is reported there.
/// - The poll thread reads the FIFO every ``pollInterval(sampleRate:)`` (10 ms at 200 Hz and above, at
///   most 0.1 s) and delivers what it read as one batch on the shared ``IMUDeliveryQueue``.
/// - Sampling: ``IMUSamplingRequest`` (`rate=`, `sensors=accelerometer`) decides the mode and rate when
///   the device is created, so ``info`` describes the run to come: with `sensors=accelerometer` its sensors
///   are the accelerometer alone and its rates the driver's ``I2CChipDriver/accelerometerOnlySampleRates``;
///   ``IMUDeviceInfo/defaultSampleRate`` is the chip's output data rate nearest the request and
///   ``IMUDeviceInfo/accelerometerBandwidth`` its filter's there.
/// - Faults: a failed read is delivered as `.fault` and polling goes on; a chip that stops answering is
///   delivered as `.fault(.unavailable)` and polling ends (the consumer stops and starts the device again
///   to reopen it, as CoreMotion's hub does with back-off); no samples for ``stallTimeout`` is a
///   `.fault(.readFailed)` after which the driver configures the chip again.
public final class I2CIMU: IMUDevice {
    /// The chip's description, from its driver, with the mount matrix noted in `chip` when it is not the identity.
    public let info: IMUDeviceInfo
    /// The bus's name, e.g. `/dev/i2c-1`.
    public let busName: String
    /// The chip's 7-bit address.
    public let address: UInt8
    /// The chip model found at the address.
    public let model: I2CChipModel
    /// How the chip was asked to sample.
    public let sampling: IMUSamplingRequest
    /// The sensors the chip has with everything on (``info`` may list fewer).
    private let chipSensors: IMUSensors
    /// Maps the chip's axes to the board's.
    public let mountMatrix: MountMatrix
    /// How long without a single sample counts as a stall, s (default 0.5 s plus ten sample periods).
    public var stallTimeout: Double { 0.5 }

    private let openBus: @Sendable () throws(I2CBusError) -> any I2CBus
    /// What the driver stamps its reads with and the poll runs on.
    private let time: DeviceTime
    private let queue = DispatchQueue(label: "MotionHAL.I2CIMU", target: IMUDeliveryQueue.root)
    /// The current run's poller (the driver inside is only touched by its poll thread).
    private let runs = PollerSlot<IMUDeviceEvent>()

    /// Opens the Linux bus at `bus` and identifies the chip at `address`.
    /// - Parameters:
    ///   - bus: the adapter's device file, e.g. `/dev/i2c-1`.
    ///   - address: the chip's 7-bit address, e.g. `0x68`.
    ///   - chip: a model name to accept only that chip (`nil`: any known chip).
    ///   - mountMatrix: chip axes → board axes.
    ///   - sampling: the mode and rate (default: every sensor at the driver's default rate).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the bus cannot be opened, nothing answers at the
    ///   address or the chip is none the driver knows; ``IMUDeviceError/invalidSpecification(_:)`` for an
    ///   unknown `chip` name or a sampling request the chip cannot meet.
    public convenience init(
        bus: String, address: UInt8, chip: String? = nil, mountMatrix: MountMatrix = .identity,
        sampling: IMUSamplingRequest = .deviceDefault
    ) throws(IMUDeviceError) {
        #if canImport(Glibc)
        try self.init(
            openingBus: { () throws(I2CBusError) -> any I2CBus in try LinuxI2CBus(path: bus) }, busName: bus,
            address: address, models: try Self.models(named: chip), mountMatrix: mountMatrix, sampling: sampling)
        #else
        throw .unavailable("I2C buses need Linux")
        #endif
    }

    /// Identifies the chip at `address` on a bus that `openBus` opens (the real bus, or an emulation).
    /// - Parameters:
    ///   - openBus: opens the bus; called now and at every `start`.
    ///   - busName: the bus's name for messages.
    ///   - address: the chip's 7-bit address.
    ///   - models: the chip models to try, in order.
    ///   - mountMatrix: chip axes → board axes.
    ///   - time: what stamps the reads and runs the poll (the monotonic clock and a thread on a board).
    ///   - sampling: the mode and rate (default: every sensor at the driver's default rate).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the bus cannot be opened, nothing answers or no
    ///   model recognises the chip; ``IMUDeviceError/invalidSpecification(_:)`` for a sampling request the
    ///   chip cannot meet (no accelerometer-only mode, a rate outside its rates).
    public init(
        openingBus openBus: @escaping @Sendable () throws(I2CBusError) -> any I2CBus, busName: String,
        address: UInt8, models: [I2CChipModel] = I2CChipModel.all, mountMatrix: MountMatrix = .identity,
        time: DeviceTime = .monotonic, sampling: IMUSamplingRequest = .deviceDefault
    ) throws(IMUDeviceError) {
        self.openBus = openBus
        self.time = time
        self.busName = busName
        self.address = address
        self.mountMatrix = mountMatrix
        let (model, driver) = try Self.identify(openBus: openBus, busName: busName, address: address, models: models, time: time)
        self.model = model
        self.sampling = sampling
        chipSensors = driver.info.sensors
        var info = try Self.runInfo(driver, model: model, sampling: sampling)
        if mountMatrix != .identity { info.chip += " (mount matrix \(mountMatrix))" }
        self.info = info
    }

    /// The driver's description for the run `sampling` asks for.
    private static func runInfo(
        _ driver: any I2CChipDriver, model: I2CChipModel, sampling: IMUSamplingRequest
    ) throws(IMUDeviceError) -> IMUDeviceInfo {
        var info = driver.info
        if sampling.accelerometerOnly {
            guard let rates = driver.accelerometerOnlySampleRates else {
                throw .invalidSpecification("sensors=accelerometer: the \(model.name) has no accelerometer-only mode")
            }
            info.sensors = [.accelerometer]
            info.supportedSampleRates = rates
            info.gyroscopeRange = nil
            info.magnetometerRange = nil
            info.chip += ", accelerometer only"
        }
        let requested = try sampling.resolvedRate(
            in: info.supportedSampleRates, defaultRate: driver.info.defaultSampleRate, device: "the \(model.name)")
        let chip = driver.sampling(near: requested, accelerometerOnly: sampling.accelerometerOnly)
        info.defaultSampleRate = chip.rate
        info.accelerometerBandwidth = chip.accelerometerBandwidth
        return info
    }

    /// The models a `chip=` option allows.
    static func models(named chip: String?) throws(IMUDeviceError) -> [I2CChipModel] {
        try I2CChipModel.models(named: chip, in: I2CChipModel.all, kind: "I2C chip")
    }

    private static func identify(
        openBus: @Sendable () throws(I2CBusError) -> any I2CBus, busName: String, address: UInt8,
        models: [I2CChipModel], time: DeviceTime
    ) throws(IMUDeviceError) -> (I2CChipModel, any I2CChipDriver) {
        try I2CChipModel.identify(among: models, kind: "chips", openBus: openBus, busName: busName, address: address, time: time)
    }

    /// `accelerometer, gyroscope and magnetometer` for messages.
    private static func describe(_ sensors: IMUSensors) -> String {
        let names = [(IMUSensors.accelerometer, "accelerometer"), (.gyroscope, "gyroscope"), (.magnetometer, "magnetometer")]
            .filter { sensors.contains($0.0) }.map(\.1)
        return names.count <= 1 ? names.first ?? "no sensors" : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// Seconds between two FIFO reads at `sampleRate`: two samples' time, at least 10 ms, at most 0.1 s.
    /// - Parameter sampleRate: Hz.
    public static func pollInterval(sampleRate: Double) -> Double {
        min(max(2 / sampleRate, 0.01), 0.1)
    }

    /// Opens the bus, probes and configures the chip and starts polling.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)``, ``IMUDeviceError/alreadyRunning``, or
    ///   ``IMUDeviceError/unavailable(_:)`` when the bus or the chip (the same model as at creation) is gone.
    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        guard info.supportedSampleRates.contains(sampleRate) else {
            throw IMUDeviceError.unsupportedSampleRate(sampleRate)
        }
        try runs.start { () throws(IMUDeviceError) in
            let (_, driver) = try Self.identify(openBus: openBus, busName: busName, address: address, models: [model], time: time)
            // A chip pair that lost a member this run reads (a magnetometer gone from the bus) is not the device
            // opened; an accelerometer-only run does not need the magnetometer.
            guard info.sensors.isSubset(of: driver.info.sensors) else {
                throw .unavailable(
                    "the \(model.name) at \(I2CBusError.hex(address)) on \(busName) now has \(Self.describe(driver.info.sensors)) instead of \(Self.describe(chipSensors))")
            }
            let accelerometerOnly = sampling.accelerometerOnly
            try driver.start(sampleRate: sampleRate, accelerometerOnly: accelerometerOnly)
            let chip = ChipPoll(
                driver: driver, mountMatrix: mountMatrix, screen: IMUSampleScreen(info: info),
                silence: SilenceWatch(timeout: stallTimeout + 10 / sampleRate, start: time.now()), sampleRate: sampleRate,
                accelerometerOnly: accelerometerOnly, time: time)
            return DevicePoller(
                interval: Self.pollInterval(sampleRate: sampleRate), time: time, queue: queue, handler: handler,
                poll: { chip.poll() }, finish: { chip.driver.stop() })
        }
    }

    /// Stops polling and puts the chip to sleep; no event is delivered after it returns. Called from the
    /// delivery handler it does not wait: the poll thread then finishes on its own.
    public func stop() {
        runs.stop()
    }

    /// The poll thread's view of the chip. Only the poll thread touches the driver, the screen and the
    /// silence watch (the last time when it puts the chip to sleep after its last poll).
    private final class ChipPoll: @unchecked Sendable {
        let driver: any I2CChipDriver
        let mountMatrix: MountMatrix
        var screen: IMUSampleScreen
        var silence: SilenceWatch
        let sampleRate: Double
        let accelerometerOnly: Bool
        let time: DeviceTime

        init(
            driver: any I2CChipDriver, mountMatrix: MountMatrix, screen: IMUSampleScreen, silence: SilenceWatch,
            sampleRate: Double, accelerometerOnly: Bool, time: DeviceTime
        ) {
            self.accelerometerOnly = accelerometerOnly
            self.driver = driver
            self.mountMatrix = mountMatrix
            self.screen = screen
            self.silence = silence
            self.sampleRate = sampleRate
            self.time = time
        }

        /// One poll: read, convert, screen; faults as described on ``I2CIMU``.
        func poll() -> [IMUDeviceEvent] {
            var events: [IMUDeviceEvent] = []
            do {
                var samples = try driver.readSamples()
                let now = time.now()
                if samples.isEmpty {
                    if let silent = silence.stall(at: now) {
                        events.append(.fault(.readFailed("no samples from the chip for \(silent) ms; configuring it again")))
                        try driver.start(sampleRate: sampleRate, accelerometerOnly: accelerometerOnly)
                    }
                } else {
                    silence.dataArrived(at: now)
                    if mountMatrix != .identity {
                        for index in samples.indices { samples[index] = rotated(samples[index]) }
                    }
                    let (kept, fault) = screen.screen(samples)
                    if let fault { events.append(.fault(fault)) }
                    if !kept.isEmpty { events.append(.samples(kept)) }
                }
            } catch {
                events.append(.fault(error))
            }
            return events
        }

        private func rotated(_ sample: IMUSample) -> IMUSample {
            var sample = sample
            sample.acceleration = sample.acceleration.map(mountMatrix.apply)
            sample.rotationRate = sample.rotationRate.map(mountMatrix.apply)
            sample.magneticField = sample.magneticField.map(mountMatrix.apply)
            return sample
        }
    }
}
