import MotionMath

/// The statistics ``FallDetector`` judges a body by in the seconds after an impact, gathered sample by
/// sample: the specific force's mean direction (the posture), the RMS deviations of the specific force and
/// the rotation rate from their means (activity), and the spread of their half-second means
/// (micro-motion: breathing and the small shifts of a living body, which a device at rest lacks; the
/// averaging brings white sensor noise down by √n, so the spread measures slow motion, not noise). Pure
/// value; forces in g, rates in rad/s, times in s.
struct FallObservation: Sendable {
    /// Length of the blocks whose means make the micro-motion, s: a few per breath (3–5 s), many samples
    /// each even at 25 Hz.
    static let blockLength = 0.5

    /// When the observation began, s.
    let start: Double
    private var count = 0.0
    private var forceSum = SIMD3<Double>.zero, forceSquares = SIMD3<Double>.zero
    private var rateSum = SIMD3<Double>.zero, rateSquares = SIMD3<Double>.zero
    private var block: (start: Double, count: Double, force: SIMD3<Double>, rate: SIMD3<Double>)
    private var blockMeans: [(force: SIMD3<Double>, rate: SIMD3<Double>)] = []

    /// Starts an observation at `start` s.
    init(start: Double) {
        self.start = start
        block = (start, 0, .zero, .zero)
    }

    /// Adds one sample.
    /// - Parameters:
    ///   - force: specific force, g, device axes.
    ///   - rate: rotation rate, rad/s, device axes.
    ///   - timestamp: s.
    mutating func add(force: SIMD3<Double>, rate: SIMD3<Double>, timestamp: Double) {
        count += 1
        forceSum += force
        forceSquares += force * force
        rateSum += rate
        rateSquares += rate * rate
        if timestamp - block.start >= Self.blockLength, block.count > 0 {
            blockMeans.append((block.force / block.count, block.rate / block.count))
            block = (timestamp, 0, .zero, .zero)
        }
        block.count += 1
        block.force += force
        block.rate += rate
    }

    /// The specific force's mean over the observation, g.
    var meanForce: SIMD3<Double> { count > 0 ? forceSum / count : .zero }

    /// The specific force's RMS deviation from its mean (all three axes), g.
    var forceDeviation: Double { Self.deviation(sum: forceSum, squares: forceSquares, count: count) }

    /// The rotation rate's RMS deviation from its mean (all three axes), rad/s: a constant gyroscope bias
    /// does not count.
    var rateDeviation: Double { Self.deviation(sum: rateSum, squares: rateSquares, count: count) }

    /// The largest distance between two of the completed half-second means of the specific force, g
    /// (0 with fewer than two).
    var forceSpread: Double { Self.spread(blockMeans.map(\.force)) }

    /// The largest distance between two of the completed half-second means of the rotation rate, rad/s.
    var rateSpread: Double { Self.spread(blockMeans.map(\.rate)) }

    private static func deviation(sum: SIMD3<Double>, squares: SIMD3<Double>, count: Double) -> Double {
        guard count > 0 else { return 0 }
        let mean = sum / count
        let variance = squares / count - mean * mean
        return max(variance.x + variance.y + variance.z, 0).squareRoot()
    }

    private static func spread(_ means: [SIMD3<Double>]) -> Double {
        var largest = 0.0
        for (index, mean) in means.enumerated() {
            for other in means[(index + 1)...] { largest = max(largest, (mean - other).length) }
        }
        return largest
    }
}
