import MotionMath

/// Decides whether the device lies still: the gyroscope and accelerometer readings stay within thresholds
/// of their own low-passed values, and the low-passed rate is no larger than a plausible bias, for a
/// minimum time. At rest it measures the gyroscope's bias (``restRate``).
///
/// The thresholds follow the sensors' noise where it needs more than the configured values
/// (``AttitudeFilterSettings/restThresholds(deltaTime:)``).
struct RestDetector: Sendable {
    /// The filter's settings: the thresholds, ``AttitudeFilterSettings/maximumGyroscopeBias`` (the largest
    /// low-passed rate: a device turning steadily faster is not at rest), the minimum duration.
    let settings: AttitudeFilterSettings
    /// The squared thresholds for the last `deltaTime` (recomputed when the interval changes).
    private var squaredThresholds = (deltaTime: 0.0, gyroscope: 0.0, accelerometer: 0.0)

    private var gyroscopeLowPass: ButterworthLowPass
    private var accelerometerLowPass: ButterworthLowPass
    private var stillFor = 0.0
    /// The time ``restRate`` has averaged over, s.
    private var averagedFor = 0.0

    /// Whether the device is at rest now.
    private(set) var isAtRest = false
    /// The low-passed gyroscope reading, rad/s.
    var meanRate: SIMD3<Double> { gyroscopeLowPass.value }
    /// The mean gyroscope reading of the current rest, rad/s: the bias, to the noise averaged over the rest
    /// so far (a white noise of density N averaged over T s leaves N/√(2T)): every reading since the rest
    /// was detected at the weight of its interval, over at most ``longestAverage`` (so that a bias drifting
    /// with temperature is followed). Not ``meanRate``, which after a turn still holds some of it when
    /// the rest begins. Meaningful only while ``isAtRest``.
    private(set) var restRate: SIMD3<Double> = .zero
    /// The longest time ``restRate`` averages over, s: 100 s, about where a MEMS gyroscope's Allan
    /// deviation stops falling (its bias instability).
    static let longestAverage = 100.0

    /// The time constant of the low-passes the readings are compared with, s: 0.5 s (VQF's
    /// `restFilterTau`).
    static let lowPassTimeConstant = 0.5

    init(settings: AttitudeFilterSettings) {
        self.settings = settings
        gyroscopeLowPass = ButterworthLowPass(timeConstant: Self.lowPassTimeConstant)
        accelerometerLowPass = ButterworthLowPass(timeConstant: Self.lowPassTimeConstant)
    }

    /// Feeds one reading pair.
    mutating func update(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, deltaTime: Double) {
        if !gyroscopeLowPass.isStarted { gyroscopeLowPass.reset(to: gyroscope) }
        if !accelerometerLowPass.isStarted { accelerometerLowPass.reset(to: accelerometer) }
        let meanRate = gyroscopeLowPass.update(gyroscope, deltaTime: deltaTime)
        let meanForce = accelerometerLowPass.update(accelerometer, deltaTime: deltaTime)
        if deltaTime != squaredThresholds.deltaTime {
            let thresholds = settings.restThresholds(deltaTime: deltaTime)
            squaredThresholds = (
                deltaTime, thresholds.gyroscope * thresholds.gyroscope, thresholds.accelerometer * thresholds.accelerometer
            )
        }
        let still = (gyroscope - meanRate).lengthSquared < squaredThresholds.gyroscope
            && (accelerometer - meanForce).lengthSquared < squaredThresholds.accelerometer
            && meanRate.lengthSquared < settings.maximumGyroscopeBias * settings.maximumGyroscopeBias
        stillFor = still ? stillFor + deltaTime : 0
        let wasAtRest = isAtRest
        isAtRest = stillFor >= settings.restMinimumDuration
        if isAtRest, !wasAtRest {
            restRate = gyroscope
            averagedFor = deltaTime
        } else if isAtRest {
            averagedFor = min(averagedFor + deltaTime, Self.longestAverage)
            restRate += (gyroscope - restRate) * (deltaTime / averagedFor)
        }
    }
}
