import MotionMath

/// Decides whether the device lies still: the gyroscope and accelerometer readings stay within thresholds
/// of their own low-passed values, and the low-passed rate is no larger than a plausible bias, for a
/// minimum time.
struct RestDetector: Sendable {
    /// Largest deviation of the rate from its low-passed value, rad/s.
    let gyroscopeThreshold: Double
    /// Largest low-passed rate, rad/s: the largest bias the filter accepts (a device turning steadily
    /// faster is not at rest).
    let maximumMeanRate: Double
    /// Largest deviation of the specific force from its low-passed value, m/s².
    let accelerometerThreshold: Double
    /// How long both must stay within their thresholds, s.
    let minimumDuration: Double

    private var gyroscopeLowPass: ButterworthLowPass
    private var accelerometerLowPass: ButterworthLowPass
    private var stillFor = 0.0

    /// Whether the device is at rest now.
    private(set) var isAtRest = false
    /// The low-passed gyroscope reading, rad/s: at rest, the bias.
    var meanRate: SIMD3<Double> { gyroscopeLowPass.value }

    init(
        gyroscopeThreshold: Double, maximumMeanRate: Double, accelerometerThreshold: Double, minimumDuration: Double,
        filterTimeConstant: Double
    ) {
        self.gyroscopeThreshold = gyroscopeThreshold
        self.maximumMeanRate = maximumMeanRate
        self.accelerometerThreshold = accelerometerThreshold
        self.minimumDuration = minimumDuration
        gyroscopeLowPass = ButterworthLowPass(timeConstant: filterTimeConstant)
        accelerometerLowPass = ButterworthLowPass(timeConstant: filterTimeConstant)
    }

    /// Feeds one reading pair.
    mutating func update(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, deltaTime: Double) {
        if !gyroscopeLowPass.isStarted { gyroscopeLowPass.reset(to: gyroscope) }
        if !accelerometerLowPass.isStarted { accelerometerLowPass.reset(to: accelerometer) }
        let meanRate = gyroscopeLowPass.update(gyroscope, deltaTime: deltaTime)
        let meanForce = accelerometerLowPass.update(accelerometer, deltaTime: deltaTime)
        let still = (gyroscope - meanRate).lengthSquared < gyroscopeThreshold * gyroscopeThreshold
            && (accelerometer - meanForce).lengthSquared < accelerometerThreshold * accelerometerThreshold
            && meanRate.lengthSquared < maximumMeanRate * maximumMeanRate
        stillFor = still ? stillFor + deltaTime : 0
        isAtRest = stillFor >= minimumDuration
    }
}
