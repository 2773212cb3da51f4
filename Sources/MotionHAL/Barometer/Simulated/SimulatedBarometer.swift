import Dispatch
import MotionMath
import Synchronization

/// A barometer that follows a known altitude profile and reports the standard atmosphere's pressure there,
/// with white noise.
///
/// Reading n of a run is taken at profile time n / rate: pressure
/// `BarometricFormula.pressure(altitude: profile(t), referencePressure:)` + noise (σ
/// ``Configuration/pressureNoise``), temperature ``Configuration/temperature``; stamped
/// `t0 + n / rate` (ns of `CLOCK_MONOTONIC`, t0 read in `start`), as ``SimulatedIMU`` stamps its samples. A
/// thread of its own wakes once per period and delivers every reading whose timestamp has passed as one
/// `.readings` event. Each `start` begins the profile again at time 0.
///
/// Noise comes from a generator seeded by ``Configuration/seed`` and the reading's index (on a stream of
/// its own, so a simulated IMU with the same seed draws other numbers), so
/// ``reading(index:sampleRate:startTimestamp:)`` is a pure function: tests get exactly the readings the
/// live device delivers, without a clock.
public final class SimulatedBarometer: BarometerDevice {
    /// The rates the simulator supports, Hz.
    public static let supportedSampleRates: ClosedRange<Double> = 1...200

    /// The configuration the device was created with.
    public let configuration: Configuration

    /// Driver `sim`, chip `simulated barometer`, 1...200 Hz, default ``Configuration/sampleRate``, with
    /// temperature.
    public let info: BarometerInfo

    private let queue = DispatchQueue(label: "MotionHAL.SimulatedBarometer", target: IMUDeliveryQueue.root)
    private let state = Mutex<DevicePoller<BarometerEvent>?>(nil)
    /// What stamps the readings and runs the deliveries.
    private let time: DeviceTime

    /// Creates a simulated barometer.
    /// - Parameters:
    ///   - configuration: rate, atmosphere, noise and altitude profile; see ``Configuration``.
    ///   - time: what stamps the readings and runs the deliveries (the monotonic clock and a thread by
    ///     default; a test's manual clock delivers as it is advanced).
    /// - Precondition: `configuration.sampleRate` lies in ``supportedSampleRates``, the reference pressure
    ///   is finite and > 0, the noise finite and ≥ 0. (``BarometerSpecification`` checks user input and
    ///   throws instead.)
    public init(configuration: Configuration = Configuration(), time: DeviceTime = .monotonic) {
        self.time = time
        precondition(
            Self.supportedSampleRates.contains(configuration.sampleRate),
            "SimulatedBarometer sample rate \(configuration.sampleRate) Hz outside \(Self.supportedSampleRates)")
        precondition(
            configuration.referencePressure.isFinite && configuration.referencePressure > 0,
            "SimulatedBarometer reference pressure must be > 0 Pa")
        precondition(
            configuration.pressureNoise.isFinite && configuration.pressureNoise >= 0,
            "SimulatedBarometer pressure noise must be ≥ 0 Pa")
        self.configuration = configuration
        info = BarometerInfo(
            driver: "sim", chip: "simulated barometer", supportedSampleRates: Self.supportedSampleRates,
            defaultSampleRate: configuration.sampleRate, hasTemperature: true)
    }

    deinit {
        // A running poll thread is not owned by this object: stop it with the device.
        state.withLock { $0 }?.cancel()
    }

    /// The exact, noise-free pressure `time` seconds after the start of the profile, Pa.
    /// - Parameter time: s since the start.
    public func truePressure(at time: Double) -> Double {
        BarometricFormula.pressure(
            altitude: configuration.altitudeProfile.altitude(at: time), referencePressure: configuration.referencePressure)
    }

    /// Reading `index` of a run at `sampleRate`: the pressure at profile time `index / sampleRate` with
    /// noise, stamped ``SimulatedIMU/timestamp(ofSample:sampleRate:startTimestamp:)``. Pure and
    /// deterministic: the live device delivers exactly these readings.
    /// - Parameters:
    ///   - index: reading number in the run, ≥ 0.
    ///   - sampleRate: Hz, > 0.
    ///   - startTimestamp: timestamp of reading 0, ns of `CLOCK_MONOTONIC` (default 0).
    public func reading(index: Int, sampleRate: Double, startTimestamp: UInt64 = 0) -> PressureReading {
        var noise = SeededGaussianGenerator(seed: configuration.seed, stream: UInt64(truncatingIfNeeded: index) | 1 << 63)
        return PressureReading(
            timestamp: SimulatedIMU.timestamp(ofSample: index, sampleRate: sampleRate, startTimestamp: startTimestamp),
            pressure: truePressure(at: Double(index) / sampleRate) + noise.nextGaussian() * configuration.pressureNoise,
            temperature: configuration.temperature)
    }

    /// Starts delivering readings at `sampleRate` Hz on the device's own serial queue, from profile time 0.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)`` outside 1...200 Hz,
    ///   ``IMUDeviceError/alreadyRunning`` if running.
    public func start(sampleRate: Double, handler: @escaping @Sendable (BarometerEvent) -> Void) throws {
        guard Self.supportedSampleRates.contains(sampleRate) else {
            throw IMUDeviceError.unsupportedSampleRate(sampleRate)
        }
        try state.withLock { (run) throws(IMUDeviceError) in
            guard run == nil else { throw .alreadyRunning }
            let schedule = Schedule(device: self, sampleRate: sampleRate, startTimestamp: time.now(), time: time)
            run = DevicePoller(
                interval: 1 / sampleRate, time: time, queue: queue, handler: handler, poll: { schedule.dueReadings() })
        }
    }

    /// Stops delivering. Idempotent; once it returns no further event is delivered (it waits for a
    /// delivery in progress, unless called from inside the handler itself).
    public func stop() {
        state.withLock { run in
            defer { run = nil }
            return run
        }?.stop()
    }

    /// One run's progress through its readings; only the poll thread touches `nextIndex`.
    private final class Schedule: @unchecked Sendable {
        // The device is held weakly: a run does not keep a released device alive.
        private weak var device: SimulatedBarometer?
        private let sampleRate: Double
        private let startTimestamp: UInt64
        private let time: DeviceTime
        private var nextIndex = 0

        init(device: SimulatedBarometer, sampleRate: Double, startTimestamp: UInt64, time: DeviceTime) {
            self.device = device
            self.sampleRate = sampleRate
            self.startTimestamp = startTimestamp
            self.time = time
        }

        /// Every reading whose timestamp has passed and that was not delivered yet, as one event.
        func dueReadings() -> [BarometerEvent] {
            guard let device else { return [] }
            let now = time.now()
            var readings: [PressureReading] = []
            while true {
                let reading = device.reading(index: nextIndex, sampleRate: sampleRate, startTimestamp: startTimestamp)
                guard reading.timestamp <= now else { break }
                readings.append(reading)
                nextIndex += 1
            }
            return readings.isEmpty ? [] : [.readings(readings)]
        }
    }
}
