/// Every motion detector over one device's motion, fed each device-motion sample at the full sensor rate:
/// the events they find, the states that change and the steps counted. A detector left nil is switched
/// off. Pure value; accelerations in g with CoreMotion's conventions (``Sample``), rates in rad/s, times in s.
///
/// The specific force the free-fall, impact and vibration detectors need is `−(userAcceleration + gravity)`,
/// the accelerometer's reading in g with the physical sign, so the bank needs nothing but device motion. A
/// blow that is an impact (or lands a fall) is reported as that, not also as a tap: taps that overlap an
/// impact are dropped. Rest ↔ motion is fed the specific force's deviation from its mean over the last
/// second (second-order low-pass, 1 s) rather than the user acceleration, so that the attitude's error after
/// a long acceleration (a tilt of a few degrees leaks a few hundredths of g of gravity into the user
/// acceleration) does not keep a device that stands still "moving".
public struct MotionDetectorBank: Sendable {
    /// One device-motion sample, as `CMDeviceMotion` (and the contract's `DeviceMotionSample`) gives it.
    public struct Sample: Sendable, Equatable {
        /// s.
        public var timestamp: Double
        /// The user acceleration, g, device axes, with Apple's sign: the accelerometer's reading (the negated
        /// specific force) minus gravity, so the negated acceleration of the device.
        public var userAcceleration: SIMD3<Double>
        /// Gravity, g, device axes, pointing down.
        public var gravity: SIMD3<Double>
        /// Angular velocity, rad/s, device axes.
        public var rotationRate: SIMD3<Double>

        /// Creates a sample.
        /// - Parameters:
        ///   - timestamp: s.
        ///   - userAcceleration: g, Apple's sign.
        ///   - gravity: g, pointing down.
        ///   - rotationRate: rad/s.
        public init(timestamp: Double, userAcceleration: SIMD3<Double>, gravity: SIMD3<Double>, rotationRate: SIMD3<Double>) {
            self.timestamp = timestamp
            self.userAcceleration = userAcceleration
            self.gravity = gravity
            self.rotationRate = rotationRate
        }

        /// The sample of the attitude filter's SI output: its ``FusedMotionSample/appleVectors``, bit for bit
        /// what a device-motion subscriber receives.
        public init(_ fused: FusedMotionSample) {
            let (userAcceleration, gravity) = fused.appleVectors
            self.init(timestamp: fused.timestamp, userAcceleration: userAcceleration, gravity: gravity, rotationRate: fused.rotationRate)
        }

        /// The sample of a device-motion sample in Apple's units (a remote board's).
        public init(_ motion: DeviceMotionSample) {
            self.init(
                timestamp: motion.timestamp, userAcceleration: motion.userAcceleration, gravity: motion.gravity,
                rotationRate: motion.rotationRate)
        }
    }

    /// What one sample brought.
    public struct Output: Sendable, Equatable {
        /// Events completed by this sample, in the order the detectors found them.
        public var events: [MotionEvent] = []
        /// States that changed with this sample.
        public var states: [MotionState] = []
        /// Whether the pedometer counted a step.
        public var step = false

        /// Whether the sample brought nothing.
        public var isEmpty: Bool { events.isEmpty && states.isEmpty && !step }
    }

    /// Free falls (nil: off).
    public var freeFall: FreeFallDetector?
    /// Impacts (nil: off).
    public var impact: ImpactDetector?
    /// Taps and double taps (nil: off).
    public var tap: TapDetector?
    /// Shakes (nil: off).
    public var shake: ShakeDetector?
    /// Orientation (nil: off).
    public var orientation: DeviceOrientationDetector?
    /// Tilt from the attitude of the first sample, or a reference set on it (nil: off).
    public var tilt: TiltDetector?
    /// Rest ↔ motion (nil: off; the activity then never leaves "stationary" unless there are steps).
    public var moving: MotionActivityStateDetector?
    /// Vibration level and running state (nil: off).
    public var vibration: VibrationMeter?
    /// The pedometer (nil: off).
    public var steps: StepDetector?
    /// The activity (nil: off).
    public var activity: MotionActivityClassifier?
    /// Start and end of the impacts of the last second, s: the taps they also are are not reported.
    private var recentImpacts: [ClosedRange<Double>] = []
    /// The specific force's recent mean, g (nil before the first sample).
    private var meanForce: ButterworthLowPass?
    private var sampleStep = SampleStep()

    /// Creates a bank with the given detectors; by default every one with its documented defaults.
    public init(
        freeFall: FreeFallDetector? = FreeFallDetector(), impact: ImpactDetector? = ImpactDetector(),
        tap: TapDetector? = TapDetector(), shake: ShakeDetector? = ShakeDetector(),
        orientation: DeviceOrientationDetector? = DeviceOrientationDetector(), tilt: TiltDetector? = TiltDetector(),
        moving: MotionActivityStateDetector? = MotionActivityStateDetector(), vibration: VibrationMeter? = VibrationMeter(),
        steps: StepDetector? = StepDetector(), activity: MotionActivityClassifier? = MotionActivityClassifier()
    ) {
        self.freeFall = freeFall
        self.impact = impact
        self.tap = tap
        self.shake = shake
        self.orientation = orientation
        self.tilt = tilt
        self.moving = moving
        self.vibration = vibration
        self.steps = steps
        self.activity = activity
    }

    /// The states as they are now, one per detector that has one (for a new subscriber, or a retained
    /// message after a restart).
    public var currentStates: [MotionState] {
        var states: [MotionState] = []
        if let moving { states.append(.moving(moving.isMoving)) }
        if let current = orientation?.orientation { states.append(.orientation(current)) }
        if let tilt, tilt.reference != nil { states.append(.tilted(tilt.isTilted, angle: tilt.angle)) }
        if let vibration { states.append(.vibrating(vibration.isRunning, level: vibration.levels.first ?? 0)) }
        if let estimate = activity?.estimate { states.append(.activity(estimate)) }
        return states
    }

    /// Feeds one sample to every detector that is on.
    /// - Parameter sample: device motion, in order of time.
    /// - Returns: what it brought.
    public mutating func update(_ sample: Sample) -> Output {
        var output = Output()
        let time = sample.timestamp
        // The device's acceleration with its physical sign, and the specific force it implies.
        let acceleration = -sample.userAcceleration
        let specificForce = acceleration - sample.gravity
        let force = (specificForce * specificForce).sum().squareRoot()
        let user = (sample.userAcceleration * sample.userAcceleration).sum().squareRoot()
        let rate = (sample.rotationRate * sample.rotationRate).sum().squareRoot()
        func found(_ event: MotionEvent?) { if let event { output.events.append(event) } }
        if freeFall != nil { found(freeFall!.update(specificForce: force, timestamp: time)) }
        if impact != nil, let blow = impact!.update(specificForce: force, timestamp: time) {
            output.events.append(blow)
            recentImpacts.append(blow.timestamp...(blow.timestamp + blow.duration))
        }
        recentImpacts.removeAll { time - $0.upperBound > 1 }
        if tap != nil, let found = tap!.update(userAcceleration: user, timestamp: time),
            !recentImpacts.contains(where: { $0.overlaps(found.timestamp...(found.timestamp + found.duration)) })
        {
            output.events.append(found)
        }
        if shake != nil { found(shake!.update(userAcceleration: acceleration, timestamp: time)) }
        if orientation != nil, let changed = orientation!.update(gravity: sample.gravity) { output.states.append(.orientation(changed)) }
        if tilt != nil, let changed = tilt!.update(gravity: sample.gravity) { output.states.append(.tilted(changed, angle: tilt!.angle)) }
        if meanForce == nil {
            meanForce = ButterworthLowPass(timeConstant: 1)
            meanForce!.reset(to: specificForce)
        }
        let mean = meanForce!.update(specificForce, deltaTime: sampleStep.advance(to: time))
        let variation = specificForce - mean
        if moving != nil,
            let changed = moving!.update(acceleration: (variation * variation).sum().squareRoot(), rotationRate: rate, timestamp: time)
        {
            output.states.append(.moving(changed))
        }
        if vibration != nil, let changed = vibration!.update(specificForce: specificForce, timestamp: time) {
            output.states.append(.vibrating(changed, level: vibration!.levels.first ?? 0))
        }
        if steps != nil { output.step = steps!.update(userAcceleration: acceleration, gravity: sample.gravity, timestamp: time) }
        if activity != nil,
            let changed = activity!.update(
                isMoving: moving?.isMoving ?? false, cadence: steps?.cadence, lastStep: steps?.lastStep ?? -.infinity, timestamp: time)
        {
            output.states.append(.activity(changed))
        }
        return output
    }
}
