/// Counts steps from the acceleration along gravity: each step lifts and drops the body, so the vertical
/// user acceleration, smoothed over ``smoothingTime``, swings above ``peakThreshold`` and back below
/// ``troughThreshold`` once per step. A step is counted at a peak that follows a trough, at least
/// ``minimumInterval`` after the previous step (at most 4 steps a second: running is about 3); cadence is
/// taken from the steps of the last few seconds. The pedometer's core (CMPedometer's step count and
/// cadence). Pure value; accelerations in g, times in s.
public struct StepDetector: Sendable {
    /// A step's peak must exceed this vertical user acceleration, g. Default 0.12 g.
    public let peakThreshold: Double
    /// Before the next peak the signal must fall below this, g. Default −0.05 g.
    public let troughThreshold: Double
    /// Shortest time between two steps, s. Default 0.25 s.
    public let minimumInterval: Double
    /// Time constant of the smoothing, s. Default 0.05 s.
    public let smoothingTime: Double

    /// Steps counted so far.
    public private(set) var steps = 0
    private var smoothed = 0.0
    private var armed = true
    private var sampleStep = SampleStep()
    /// When the last step was counted, s (−∞ before the first).
    public private(set) var lastStep = -Double.infinity
    private var recentSteps: [Double] = []

    /// Creates a detector; every parameter has the documented default.
    public init(peakThreshold: Double = 0.12, troughThreshold: Double = -0.05, minimumInterval: Double = 0.25, smoothingTime: Double = 0.05) {
        self.peakThreshold = peakThreshold
        self.troughThreshold = troughThreshold
        self.minimumInterval = minimumInterval
        self.smoothingTime = smoothingTime
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - userAcceleration: device axes, g.
    ///   - gravity: device axes, g (pointing down, as Apple's `CMDeviceMotion.gravity`).
    ///   - timestamp: s.
    /// - Returns: true when this sample completed a step.
    @discardableResult
    public mutating func update(userAcceleration: SIMD3<Double>, gravity: SIMD3<Double>, timestamp: Double) -> Bool {
        let length = (gravity * gravity).sum().squareRoot()
        guard length > 0, length.isFinite else { return false }
        // Upward component: against gravity.
        let vertical = -(userAcceleration * gravity).sum() / length
        let step = sampleStep.advance(to: timestamp)
        smoothed += (vertical - smoothed) * min(step / smoothingTime, 1)
        if smoothed < troughThreshold { armed = true }
        guard armed, smoothed > peakThreshold, timestamp - lastStep >= minimumInterval else { return false }
        armed = false
        // A pause of over 2 s (slower than any gait) starts a new walk: its cadence is its own.
        if timestamp - lastStep > 2 { recentSteps.removeAll() }
        lastStep = timestamp
        steps += 1
        recentSteps.append(timestamp)
        recentSteps.removeAll { timestamp - $0 > 5 }
        return true
    }

    /// Steps per second over the last 5 s of steps since the last pause of over 2 s (nil with fewer than two).
    public var cadence: Double? {
        guard recentSteps.count >= 2, let first = recentSteps.first, let last = recentSteps.last, last > first else { return nil }
        return Double(recentSteps.count - 1) / (last - first)
    }
}
