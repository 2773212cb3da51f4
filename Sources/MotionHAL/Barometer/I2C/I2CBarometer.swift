import Dispatch
import Synchronization

/// A barometer chip on an I²C bus (`i2c:BUS@ADDRESS[,chip=NAME]`), driven by its
/// ``BarometerChipDriver``: this type finds the chip, runs the driver on a poll thread of its own and
/// delivers its readings, one event per reading.
///
/// - The chip is identified when the device is created (each model of ``BarometerChipModel/all``, or the
///   one named, probes its identity register; the MS5837, which has none, its PROM), so ``info`` is known
///   before `start`. Every `start` opens
///   the bus and probes again: a chip that was replaced or removed since is reported there.
/// - The poll thread asks the driver for a new conversion every ``pollInterval(outputDataRate:)``: twice
///   the chip's rate, so that no conversion is missed.
/// - Faults, as ``I2CIMU``: a failed read is delivered as `.fault(.readFailed)` and polling goes on (the
///   next good read is the recovery); a chip that stops answering is delivered once as
///   `.fault(.unavailable)` and polling ends (the consumer stops and starts the device again to reopen
///   it); no reading for ``stallTimeout(outputDataRate:)`` (a chip that reset itself, or whose values are
///   marked not measured) is a `.fault(.readFailed)` after which the driver configures the chip again.
public final class I2CBarometer: BarometerDevice {
    /// The chip's description, from its driver.
    public let info: BarometerInfo
    /// The bus's name, e.g. `/dev/i2c-1`.
    public let busName: String
    /// The chip's 7-bit address.
    public let address: UInt8
    /// The chip model found at the address.
    public let model: BarometerChipModel

    private let openBus: @Sendable () throws(I2CBusError) -> any I2CBus
    /// What the driver stamps its readings with and the poll runs on.
    private let time: DeviceTime
    private let queue = DispatchQueue(label: "MotionHAL.I2CBarometer", target: IMUDeliveryQueue.root)
    /// The current run's poller (the driver inside is only touched by its poll thread).
    private let runs = PollerSlot<BarometerEvent>()

    /// Opens the Linux bus at `bus` and identifies the barometer at `address`.
    /// - Parameters:
    ///   - bus: the adapter's device file, e.g. `/dev/i2c-1`.
    ///   - address: the chip's 7-bit address, e.g. `0x76`.
    ///   - chip: a model name to accept only that chip (`nil`: any known chip).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the bus cannot be opened, nothing answers at the
    ///   address or the chip is none the driver knows; ``IMUDeviceError/invalidSpecification(_:)`` for an
    ///   unknown `chip` name.
    public convenience init(bus: String, address: UInt8, chip: String? = nil) throws(IMUDeviceError) {
        #if canImport(Glibc)
        try self.init(
            openingBus: { () throws(I2CBusError) -> any I2CBus in try LinuxI2CBus(path: bus) }, busName: bus,
            address: address, models: try BarometerChipModel.models(named: chip))
        #else
        throw .unavailable("I2C buses need Linux")
        #endif
    }

    /// Identifies the barometer at `address` on a bus that `openBus` opens (the real bus, or an emulation).
    /// - Parameters:
    ///   - openBus: opens the bus; called now and at every `start`.
    ///   - busName: the bus's name for messages.
    ///   - address: the chip's 7-bit address.
    ///   - models: the chip models to try, in order.
    ///   - time: what stamps the readings and runs the poll (the monotonic clock and a thread on a board).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` when the bus cannot be opened, nothing answers or no
    ///   model recognises the chip.
    public init(
        openingBus openBus: @escaping @Sendable () throws(I2CBusError) -> any I2CBus, busName: String,
        address: UInt8, models: [BarometerChipModel] = BarometerChipModel.all, time: DeviceTime = .monotonic
    ) throws(IMUDeviceError) {
        self.openBus = openBus
        self.time = time
        self.busName = busName
        self.address = address
        let (model, driver) = try Self.identify(openBus: openBus, busName: busName, address: address, models: models, time: time)
        self.model = model
        info = driver.info
    }

    private static func identify(
        openBus: @Sendable () throws(I2CBusError) -> any I2CBus, busName: String, address: UInt8,
        models: [BarometerChipModel], time: DeviceTime
    ) throws(IMUDeviceError) -> (BarometerChipModel, any BarometerChipDriver) {
        try BarometerChipModel.identify(
            among: models, kind: "barometers", openBus: openBus, busName: busName, address: address, time: time)
    }

    /// Seconds between two polls of a chip converting at `outputDataRate`: half its period, at least
    /// 2 ms, at most 0.5 s.
    /// - Parameter outputDataRate: Hz.
    public static func pollInterval(outputDataRate: Double) -> Double {
        min(max(0.5 / outputDataRate, 0.002), 0.5)
    }

    /// How long without a reading counts as a stall for a chip converting at `outputDataRate`, s: 0.5 s
    /// plus five periods.
    /// - Parameter outputDataRate: Hz.
    public static func stallTimeout(outputDataRate: Double) -> Double {
        0.5 + 5 / outputDataRate
    }

    /// Opens the bus, probes and configures the chip and starts polling.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)``, ``IMUDeviceError/alreadyRunning``, or
    ///   ``IMUDeviceError/unavailable(_:)`` when the bus or the chip (the same model as at creation) is gone.
    public func start(sampleRate: Double, handler: @escaping @Sendable (BarometerEvent) -> Void) throws {
        guard info.supportedSampleRates.contains(sampleRate) else {
            throw IMUDeviceError.unsupportedSampleRate(sampleRate)
        }
        try runs.start { () throws(IMUDeviceError) in
            let (_, driver) = try Self.identify(openBus: openBus, busName: busName, address: address, models: [model], time: time)
            try driver.start(sampleRate: sampleRate)
            let rate = max(sampleRate, driver.outputDataRate ?? sampleRate)
            let chip = ChipPoll(
                driver: driver, sampleRate: sampleRate,
                silence: SilenceWatch(timeout: Self.stallTimeout(outputDataRate: rate), start: time.now()), time: time)
            return DevicePoller(
                interval: Self.pollInterval(outputDataRate: rate), time: time, queue: queue, handler: handler,
                poll: { chip.poll() }, finish: { chip.driver.stop() })
        }
    }

    /// Stops polling and puts the chip to sleep; no event is delivered after it returns. Called from the
    /// delivery handler it does not wait: the poll thread then finishes on its own.
    public func stop() {
        runs.stop()
    }

    /// The poll thread's view of the chip. Only the poll thread touches the driver and the silence watch
    /// (the last time when it puts the chip to sleep after its last poll).
    private final class ChipPoll: @unchecked Sendable {
        let driver: any BarometerChipDriver
        let sampleRate: Double
        var silence: SilenceWatch
        let time: DeviceTime

        init(driver: any BarometerChipDriver, sampleRate: Double, silence: SilenceWatch, time: DeviceTime) {
            self.driver = driver
            self.sampleRate = sampleRate
            self.silence = silence
            self.time = time
        }

        /// One poll: a reading, a fault, a stall's fault and reconfiguration, or nothing.
        func poll() -> [BarometerEvent] {
            do {
                let now = time.now()
                if let reading = try driver.read() {
                    silence.dataArrived(at: now)
                    return [.readings([reading])]
                }
                guard let silence = silence.stall(at: now) else { return [] }
                let stalled = BarometerEvent.fault(
                    .readFailed("no readings from the chip for \(silence) ms; configuring it again"))
                do { try driver.start(sampleRate: sampleRate) } catch { return [stalled, .fault(error)] }
                return [stalled]
            } catch {
                return [.fault(error)]
            }
        }
    }
}
