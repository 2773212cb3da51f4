import MotionMath
import Dispatch
import Synchronization

/// A 9-axis IMU that follows a known trajectory and reports physically consistent, noisy readings.
///
/// Readings are computed from the exact state of a ``SimulatedMotion``:
/// - accelerometer: specific force `Rᵀ (a_enu + (0, 0, g))` + white noise, m/s² (face up at rest:
///   (0, 0, +g));
/// - gyroscope: body angular velocity + ``Configuration/gyroscopeBias`` + white noise, rad/s;
/// - magnetometer: `Rᵀ B_enu` + white noise, µT;
///
/// where R is the body → ENU attitude. Sample n of a run is taken at trajectory time n / rate and stamped
/// `t0 + n / rate` (ns of `CLOCK_MONOTONIC`, t0 read in `start`), so the long-run rate is exact whatever
/// the timer jitter. A thread of its own wakes every ``Configuration/deliveryInterval``
/// seconds and delivers every sample whose timestamp has passed as one `.samples` event. Each `start`
/// begins the trajectory again at time 0. ``Configuration/faultInjection`` scripts faults and outages of the
/// live device (see ``SimulatedFaultInjection``).
///
/// Noise comes from a generator seeded by ``Configuration/seed`` and the sample index, so
/// ``sample(index:sampleRate:startTimestamp:)`` is a pure function: tests and benchmarks get exactly the
/// readings the live device would deliver, without a clock.
public final class SimulatedIMU: IMUDevice {
    /// The rates the simulator supports, Hz.
    public static let supportedSampleRates: ClosedRange<Double> = 1...8000

    /// The configuration the device was created with.
    public let configuration: Configuration

    /// Driver `sim`, chip `simulated 9-axis IMU`, all sensors, 1...8000 Hz, default
    /// ``Configuration/sampleRate``.
    public let info: IMUDeviceInfo

    private let queue = DispatchQueue(label: "MotionHAL.SimulatedIMU", target: IMUDeliveryQueue.root)
    // Not Sendable in Swift 6.0's Dispatch (see IMUDeliveryQueue.key): set once, never changed.
    #if compiler(>=6.1)
    private let onQueueKey = DispatchSpecificKey<Bool>()
    #else
    nonisolated(unsafe) private let onQueueKey = DispatchSpecificKey<Bool>()
    #endif
    private let state = Mutex(RunState())
    /// What stamps the samples and runs the deliveries.
    private let time: DeviceTime

    /// Creates a simulated device.
    /// - Parameters:
    ///   - configuration: trajectory, sensor errors and environment; see ``Configuration``.
    ///   - time: what stamps the samples and runs the deliveries (the monotonic clock and a thread, or the
    ///     delivery pool, by default; a test's manual clock delivers as it is advanced).
    /// - Precondition: `configuration.sampleRate` lies in ``supportedSampleRates``, the delivery interval is
    ///   finite and > 0, the noise deviations are ≥ 0, and fault injection times are ≥ 0 with a period
    ///   longer than the outage. (``IMUDeviceSpecification`` checks user input
    ///   and throws instead.)
    public init(configuration: Configuration = Configuration(), time: DeviceTime = .monotonic) {
        self.time = time
        precondition(
            Self.supportedSampleRates.contains(configuration.sampleRate),
            "SimulatedIMU sample rate \(configuration.sampleRate) Hz outside \(Self.supportedSampleRates)")
        precondition(
            configuration.deliveryInterval.isFinite && configuration.deliveryInterval > 0,
            "SimulatedIMU delivery interval must be > 0 s")
        precondition(
            configuration.accelerometerNoise >= 0 && configuration.gyroscopeNoise >= 0
                && configuration.magnetometerNoise >= 0,
            "SimulatedIMU noise standard deviations must be ≥ 0")
        if let injection = configuration.faultInjection {
            precondition(
                injection.after >= 0 && injection.duration >= 0 && injection.after.isFinite
                    && injection.duration.isFinite,
                "SimulatedIMU fault injection times must be finite and ≥ 0 s")
            precondition(
                injection.every.map { $0.isFinite && $0 > injection.duration } ?? true,
                "SimulatedIMU fault period must exceed the fault duration")
        }
        self.configuration = configuration
        self.info = IMUDeviceInfo(
            driver: "sim", chip: "simulated 9-axis IMU", sensors: .all,
            supportedSampleRates: Self.supportedSampleRates, defaultSampleRate: configuration.sampleRate)
        queue.setSpecific(key: onQueueKey, value: true)
    }

    deinit {
        // A running delivery thread is not owned by this object: stop it with the device.
        state.withLock { $0.run?.clock.cancel() }
    }

    // MARK: - Clock-free generation

    /// The exact, noise-free state at `time` seconds since the start of the trajectory.
    public func groundTruth(at time: Double) -> SimulatedGroundTruth {
        let kinematics = configuration.motion.kinematics(at: time, gravity: configuration.gravity)
        let toBody = kinematics.attitude.conjugate
        return SimulatedGroundTruth(
            time: time,
            attitude: kinematics.attitude,
            angularVelocity: kinematics.angularVelocity,
            position: kinematics.position,
            velocity: kinematics.velocity,
            linearAcceleration: kinematics.acceleration,
            specificForce: toBody.rotate(kinematics.acceleration + SIMD3(0, 0, configuration.gravity)),
            magneticField: toBody.rotate(configuration.earthMagneticField))
    }

    /// Sample `index` of a run at `sampleRate`: the reading at trajectory time `index / sampleRate` with
    /// bias and noise, stamped ``timestamp(ofSample:sampleRate:startTimestamp:)``. Pure and deterministic:
    /// the live device delivers exactly these samples.
    /// - Parameters:
    ///   - index: sample number in the run, ≥ 0.
    ///   - sampleRate: Hz, > 0.
    ///   - startTimestamp: timestamp of sample 0, ns of `CLOCK_MONOTONIC` (default 0).
    public func sample(index: Int, sampleRate: Double, startTimestamp: UInt64 = 0) -> IMUSample {
        let truth = groundTruth(at: Double(index) / sampleRate)
        var noise = SeededGaussianGenerator(seed: configuration.seed, stream: UInt64(truncatingIfNeeded: index))
        let accelerationNoise = noise.nextGaussianVector(standardDeviation: configuration.accelerometerNoise)
        let rotationRateNoise = noise.nextGaussianVector(standardDeviation: configuration.gyroscopeNoise)
        let magneticFieldNoise = noise.nextGaussianVector(standardDeviation: configuration.magnetometerNoise)
        return IMUSample(
            timestamp: Self.timestamp(ofSample: index, sampleRate: sampleRate, startTimestamp: startTimestamp),
            acceleration: truth.specificForce + accelerationNoise,
            rotationRate: truth.angularVelocity + configuration.gyroscopeBias + rotationRateNoise,
            magneticField: truth.magneticField + magneticFieldNoise)
    }

    /// The first `count` samples of a run, as ``sample(index:sampleRate:startTimestamp:)`` gives them.
    /// - Parameters:
    ///   - count: number of samples, ≥ 0.
    ///   - sampleRate: Hz (default ``Configuration/sampleRate``).
    ///   - startTimestamp: timestamp of sample 0, ns (default 0).
    public func samples(count: Int, sampleRate: Double? = nil, startTimestamp: UInt64 = 0) -> [IMUSample] {
        let rate = sampleRate ?? configuration.sampleRate
        return (0..<max(count, 0)).map { sample(index: $0, sampleRate: rate, startTimestamp: startTimestamp) }
    }

    /// Timestamp of sample `index` of a run: `startTimestamp + round(index · 10⁹ / sampleRate)` ns.
    /// - Parameters:
    ///   - index: sample number, ≥ 0.
    ///   - sampleRate: Hz, > 0.
    ///   - startTimestamp: timestamp of sample 0, ns of `CLOCK_MONOTONIC`.
    public static func timestamp(ofSample index: Int, sampleRate: Double, startTimestamp: UInt64) -> UInt64 {
        startTimestamp + UInt64((Double(index) * 1e9 / sampleRate).rounded())
    }

    // MARK: - Live device

    /// Starts delivering samples at `sampleRate` Hz on the device's own serial queue, from trajectory
    /// time 0.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)`` outside 1...8000 Hz,
    ///   ``IMUDeviceError/alreadyRunning`` if running.
    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        guard sampleRate.isFinite, Self.supportedSampleRates.contains(sampleRate) else {
            throw IMUDeviceError.unsupportedSampleRate(sampleRate)
        }
        try state.withLock { state throws(IMUDeviceError) in
            guard state.run == nil else { throw .alreadyRunning }
            state.lastGeneration &+= 1
            let generation = state.lastGeneration
            let startTimestamp = time.now()
            // Each tick delivers on the device's queue (which shares the delivery root queue): run inline
            // by the clock's thread when the queue is idle, so a delivery wakes one thread only. On the
            // shared threads the tick delivers directly: one pool thread keeps the clock, so its deliveries
            // are serial, and thousands of devices do not contend for the one root queue.
            // On another clock than the process's, the deliveries are that clock's (never the pool's).
            let shared = configuration.sharesDeliveryThreads && time.clock == nil
            let clock = DeliveryClock(
                interval: max(UInt64(configuration.deliveryInterval * 1e9), 100_000), start: startTimestamp, shared: shared,
                time: time
            ) { [weak self] in
                guard let self else { return }
                if shared {
                    deliverDueSamples(generation: generation)
                } else {
                    // A block returning `Void`, not `Void?` (`self?.…`): that picked Dispatch's generic
                    // `sync<T>`, which looks up `Optional<T>`'s metadata in the runtime's cache on every
                    // call (1.6 % of the agent's CPU in `motion-bench agent`).
                    queue.sync { self.deliverDueSamples(generation: generation) }
                }
            }
            state.run = Run(
                generation: generation, clock: clock, sampleRate: sampleRate,
                startTimestamp: startTimestamp, nextIndex: 0, handler: handler,
                nextFault: configuration.faultInjection.flatMap {
                    $0.kind == .read ? Self.timestamp($0.after, after: startTimestamp) : nil
                })
        }
    }

    /// Stops delivering. Idempotent; once it returns no further event is delivered (it waits for a
    /// delivery in progress, unless called from inside the handler itself).
    public func stop() {
        let stopped = state.withLock { state in
            let run = state.run
            state.run = nil
            return run?.clock
        }
        guard let stopped else { return }
        stopped.cancel()
        if stopped.isShared {
            // From inside a tick (the handler stopping its device) nothing of this device runs after it.
            if !DeliveryClockPool.shared.isCurrentThread { stopped.waitUntilFinished() }
            return
        }
        // On the delivery queue (this device's or a consumer's that shares its root) no delivery block of
        // this device can be running, and waiting for one would deadlock.
        if DispatchQueue.getSpecific(key: onQueueKey) != true && !IMUDeliveryQueue.isCurrent {
            // A delivery that read the run before it was cleared finishes before this returns.
            queue.sync {}
        }
    }

    /// On the queue: delivers every sample of run `generation` whose timestamp has passed, and an injected
    /// fault that has come due (samples stamped before it first, none during its outage).
    private func deliverDueSamples(generation: UInt64) {
        let now = time.now()
        // Other kinds of fault are injected around the simulator (FaultInjectingIMU).
        let injection = configuration.faultInjection.flatMap { $0.kind == .read ? $0 : nil }
        // The run is changed in place: a copy of it would retain and release its clock and handler.
        let due = state.withLock { state -> DueDelivery? in
            guard state.run?.generation == generation else { return nil }
            return state.run!.takeDueDelivery(now: now, injection: injection)
        }
        guard let due else { return }
        let plan = due.plan
        func deliver(_ indices: Range<Int>) {
            guard !indices.isEmpty else { return }
            due.handler(
                .samples(indices.map { sample(index: $0, sampleRate: due.sampleRate, startTimestamp: due.startTimestamp) }))
        }
        deliver(plan.beforeFault)
        if plan.isFaulted { due.handler(.fault(.readFailed(SimulatedFaultInjection.faultText))) }
        deliver(plan.afterFault)
    }

    /// The timestamp `seconds` after `timestamp`, ns, saturating at `UInt64.max` (a fault that never comes).
    private static func timestamp(_ seconds: Double, after timestamp: UInt64) -> UInt64 {
        let (sum, overflow) = timestamp.addingReportingOverflow(MonotonicClock.nanoseconds(seconds))
        return overflow ? .max : sum
    }

    /// What one timer tick delivers: samples, then possibly an injected fault and the samples after it.
    private struct DeliveryPlan {
        var beforeFault: Range<Int>
        var isFaulted: Bool
        var afterFault: Range<Int>
    }

    /// What the device is doing; guarded by `state`.
    private struct RunState {
        var run: Run?
        var lastGeneration: UInt64 = 0
    }

    /// What a tick hands over, read from the run under the lock.
    private struct DueDelivery {
        var plan: DeliveryPlan
        var handler: @Sendable (IMUDeviceEvent) -> Void
        var sampleRate: Double
        var startTimestamp: UInt64
    }

    /// One run between `start` and `stop`.
    private struct Run {
        var generation: UInt64
        var clock: DeliveryClock
        var sampleRate: Double
        var startTimestamp: UInt64
        var nextIndex: Int
        var handler: @Sendable (IMUDeviceEvent) -> Void
        /// When the next injected fault is due, ns of `CLOCK_MONOTONIC`; nil for none.
        var nextFault: UInt64? = nil
        /// When the current injected outage ends, ns; nil outside an outage.
        var outageEnd: UInt64? = nil

        /// What the tick at `now` (ns of `CLOCK_MONOTONIC`) delivers, with what it needs outside the lock;
        /// moves ``nextIndex`` past the samples due.
        mutating func takeDueDelivery(now: UInt64, injection: SimulatedFaultInjection?) -> DueDelivery {
            DueDelivery(
                plan: planDelivery(now: now, injection: injection), handler: handler, sampleRate: sampleRate,
                startTimestamp: startTimestamp)
        }

        /// The samples due at `now` (ns of `CLOCK_MONOTONIC`), with an injected read fault among them when
        /// one is due; moves ``nextIndex`` past them.
        private mutating func planDelivery(now: UInt64, injection: SimulatedFaultInjection?) -> DeliveryPlan {
            skipOutage(now: now)
            let firstDue = nextIndex
            var plan = DeliveryPlan(beforeFault: firstDue..<firstDue, isFaulted: false, afterFault: firstDue..<firstDue)
            if let injection, let fault = nextFault, fault <= now {
                while timestamp(nextIndex) < fault { nextIndex += 1 }
                plan.beforeFault = firstDue..<nextIndex
                plan.isFaulted = true
                nextFault = injection.every.map { SimulatedIMU.timestamp($0, after: fault) }
                if injection.duration > 0 { outageEnd = SimulatedIMU.timestamp(injection.duration, after: fault) }
                skipOutage(now: now)
            }
            let resumeFrom = nextIndex
            while timestamp(nextIndex) <= now { nextIndex += 1 }
            if plan.isFaulted {
                plan.afterFault = resumeFrom..<nextIndex
            } else {
                plan.beforeFault = resumeFrom..<nextIndex
            }
            return plan
        }

        /// Samples stamped inside an outage are lost; once it is over, delivery resumes after it.
        private mutating func skipOutage(now: UInt64) {
            guard let end = outageEnd else { return }
            if now < end {
                while timestamp(nextIndex) <= now { nextIndex += 1 }
            } else {
                while timestamp(nextIndex) < end { nextIndex += 1 }
                outageEnd = nil
            }
        }

        private func timestamp(_ index: Int) -> UInt64 {
            SimulatedIMU.timestamp(ofSample: index, sampleRate: sampleRate, startTimestamp: startTimestamp)
        }
    }
}
