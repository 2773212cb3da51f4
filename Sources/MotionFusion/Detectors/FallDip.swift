/// The first phase of a fall as ``FallDetector`` follows it: the specific force below the dip threshold
/// (a body, or a device, no longer held up), with the posture from before it and the figures the later
/// judgement needs. One dip runs from its first sample below the threshold to its last; the force may
/// rise above it for less than the impact window in between. Pure value; forces in g, rates in rad/s,
/// times in s.
struct FallDip: Sendable {
    /// The first sample below the dip threshold, s.
    let start: Double
    /// The direction of the specific force before the dip (unit, device axes): the posture the fall
    /// started from.
    let reference: SIMD3<Double>
    /// The last sample below the dip threshold, s.
    private(set) var lastBelow: Double
    /// Time spent below the dip threshold, s (each sample counts the step from the one before).
    private(set) var timeBelow = 0.0
    /// The longest stretch below the free-fall threshold, s.
    private(set) var longestFreeFall = 0.0
    private var freeFall = 0.0
    /// The largest rotation rate seen since the start, rad/s.
    private(set) var peakRotationRate = 0.0

    /// Starts a dip at `start` s from the posture `reference` (unit vector, device axes).
    init(start: Double, reference: SIMD3<Double>) {
        self.start = start
        self.reference = reference
        lastBelow = start
    }

    /// Adds one sample.
    /// - Parameters:
    ///   - force: the specific force's magnitude, g.
    ///   - rate: the rotation rate's magnitude, rad/s.
    ///   - step: time since the previous sample, s.
    ///   - timestamp: s.
    ///   - dipThreshold: g.
    ///   - freeFallThreshold: g.
    mutating func add(force: Double, rate: Double, step: Double, timestamp: Double, dipThreshold: Double, freeFallThreshold: Double) {
        peakRotationRate = max(peakRotationRate, rate)
        if force < dipThreshold {
            lastBelow = timestamp
            timeBelow += step
        }
        freeFall = force < freeFallThreshold ? freeFall + step : 0
        longestFreeFall = max(longestFreeFall, freeFall)
    }

    /// Notes a rotation rate seen after the dip (during the impact), rad/s.
    mutating func noteRotation(_ rate: Double) { peakRotationRate = max(peakRotationRate, rate) }
}
