import MotionFusion
import MotionHAL
import MotionModel

/// The health of the engine's device and its sensor fusion: a snapshot, for status reports.
public struct MotionDiagnostics: Sendable, Equatable {
    /// The state of the attitude filter of one reference frame in use.
    public struct FusionState: Sendable, Equatable {
        /// The reference frame.
        public var referenceFrame: AttitudeReferenceFrame
        /// Whether the filter has an attitude yet (after its first usable accelerometer reading).
        public var isInitialized: Bool
        /// The filter's estimate of the gyroscope bias, rad/s, device axes x, y, z.
        public var gyroscopeBias: SIMD3<Double>
        /// Whether the filter rejects the magnetometer now as magnetically disturbed (the field's norm or
        /// dip is off its reference: a magnet, steel nearby); false in a frame without a magnetometer.
        public var isMagneticallyDisturbed: Bool
        /// The filter's own estimate of its errors (1 σ, degrees); nil before it has an attitude.
        public var uncertainty: AttitudeUncertaintyEstimate?

        /// Creates a fusion state.
        /// - Parameters:
        ///   - referenceFrame: the frame.
        ///   - isInitialized: whether the filter has an attitude.
        ///   - gyroscopeBias: bias estimate, rad/s.
        ///   - isMagneticallyDisturbed: whether the magnetometer is rejected as disturbed now.
        ///   - uncertainty: the filter's 1 σ errors, degrees.
        public init(
            referenceFrame: AttitudeReferenceFrame, isInitialized: Bool, gyroscopeBias: SIMD3<Double>,
            isMagneticallyDisturbed: Bool = false, uncertainty: AttitudeUncertaintyEstimate? = nil
        ) {
            self.referenceFrame = referenceFrame
            self.isInitialized = isInitialized
            self.gyroscopeBias = gyroscopeBias
            self.isMagneticallyDisturbed = isMagneticallyDisturbed
            self.uncertainty = uncertainty
        }
    }

    /// Driver name of the device (for example `sim`), nil without a device.
    public var driver: String?
    /// The sample rate the device is configured for (runs or will run at), Hz; 0 without a device.
    public var configuredSampleRate: Double
    /// Whether the device is running (some subscription is active and it started).
    public var isRunning: Bool
    /// Samples received per second over the last ~2 s, Hz (0 while stopped or stalled).
    public var achievedSampleRate: Double
    /// Samples received from the device since the engine was made.
    public var samplesReceived: UInt64
    /// Fault episodes since the engine was made (a device fault, a failed start or a stall; each episode
    /// counts once however many faults it contains; a fault that persists across runs, after the last
    /// subscriber left or the device was replaced, counts once per run).
    public var faultsSeen: Int
    /// What went wrong in the current fault episode; nil when healthy (samples flow again), and after the
    /// last subscriber left or the device was replaced.
    public var lastFault: String?
    /// The attitude filters of the reference frames in use by device-motion subscriptions.
    public var fusion: [FusionState]

    /// Creates a snapshot.
    /// - Parameters:
    ///   - driver: driver name, nil without a device.
    ///   - configuredSampleRate: Hz.
    ///   - isRunning: whether the device runs.
    ///   - achievedSampleRate: Hz over the last ~2 s.
    ///   - samplesReceived: samples since the engine was made.
    ///   - faultsSeen: fault episodes since the engine was made.
    ///   - lastFault: the current fault, nil when healthy.
    ///   - fusion: filter states of the frames in use.
    public init(
        driver: String?, configuredSampleRate: Double, isRunning: Bool, achievedSampleRate: Double,
        samplesReceived: UInt64, faultsSeen: Int, lastFault: String?, fusion: [FusionState]
    ) {
        self.driver = driver
        self.configuredSampleRate = configuredSampleRate
        self.isRunning = isRunning
        self.achievedSampleRate = achievedSampleRate
        self.samplesReceived = samplesReceived
        self.faultsSeen = faultsSeen
        self.lastFault = lastFault
        self.fusion = fusion
    }
}

extension MotionDiagnostics {
    /// The snapshot of an engine whose device is described by `info` (nil: none).
    /// - Parameters:
    ///   - info: the device's description.
    ///   - isRunning: whether the device runs.
    ///   - processing: the engine's routing and health, read under its lock.
    ///   - now: `CLOCK_MONOTONIC` ns, for the achieved rate.
    init(device info: IMUDeviceInfo?, isRunning: Bool, processing: MotionEngineProcessing, at now: UInt64) {
        self.init(
            driver: info?.driver,
            configuredSampleRate: isRunning ? processing.router.sampleRate : info?.defaultSampleRate ?? 0,
            isRunning: isRunning,
            achievedSampleRate: isRunning ? processing.health.achievedSampleRate(at: now) : 0,
            samplesReceived: processing.health.samplesReceived,
            faultsSeen: processing.health.faultsSeen,
            lastFault: processing.health.lastFault,
            fusion: processing.router.fusions.map { fusion in
                FusionState(
                    referenceFrame: fusion.frame, isInitialized: fusion.isReady, gyroscopeBias: fusion.gyroscopeBias,
                    isMagneticallyDisturbed: fusion.isMagneticallyDisturbed, uncertainty: fusion.uncertainty)
            })
    }
}
