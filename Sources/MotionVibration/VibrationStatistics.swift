import MotionFusion

/// The time-domain figures of a machine's acceleration over an interval: RMS, peak, crest factor (peak ÷
/// RMS: 1.41 for a sine, rising with impacts) and kurtosis (the fourth moment over the squared second: 1.5
/// for a sine, 3 for Gaussian noise, higher for a bearing's spikes), of the specific force band-passed to
/// the measuring band (a second-order Butterworth high-pass at its low edge, which takes out gravity and the
/// board's own slow motion, and a low-pass at its high edge, clipped to 0.4 × the sample rate). Per axis
/// and for the vector. Pure value: fed at the sensor rate, read and reset once an interval; the filters run
/// on across resets. Accelerations in m/s², times in s.
public struct VibrationStatistics: Sendable {
    /// The figures of one interval.
    public struct Summary: Sendable, Equatable {
        /// Samples in the interval.
        public var count: Int
        /// RMS of each axis, m/s².
        public var rms: SIMD3<Double>
        /// RMS of the vector (the root of the axes' summed mean squares), m/s².
        public var vectorRMS: Double
        /// Largest absolute value of each axis, m/s².
        public var peak: SIMD3<Double>
        /// Largest length of the vector, m/s².
        public var vectorPeak: Double
        /// Kurtosis of each axis (1.5 for a sine, 3 for Gaussian noise); 0 for an axis with no signal.
        public var kurtosis: SIMD3<Double>

        /// Peak ÷ RMS of each axis (0 for an axis with no signal).
        public var crestFactor: SIMD3<Double> {
            SIMD3((0..<3).map { rms[$0] > 0 ? peak[$0] / rms[$0] : 0 })
        }

        /// Peak ÷ RMS of the vector (0 with no signal).
        public var vectorCrestFactor: Double { vectorRMS > 0 ? vectorPeak / vectorRMS : 0 }
    }

    /// The measuring band, Hz.
    public let band: ClosedRange<Double>
    private var highPass: ButterworthHighPass
    /// Made with the first sample, its edge clipped to 0.4 × that sample's rate.
    private var lowPass: ButterworthLowPass?
    private var count = 0
    private var sumOfSquares = SIMD3<Double>.zero
    private var sumOfFourthPowers = SIMD3<Double>.zero
    private var peak = SIMD3<Double>.zero
    private var vectorPeak = 0.0

    /// Statistics of `band` (Hz; the high edge is clipped to 0.4 × the sample rate).
    public init(band: ClosedRange<Double> = 10...1000) {
        precondition(band.lowerBound > 0 && band.upperBound > band.lowerBound, "a band above 0 Hz")
        self.band = band
        highPass = ButterworthHighPass(cutoff: band.lowerBound)
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - specificForce: the accelerometer's reading, m/s².
    ///   - deltaTime: s since the previous sample (> 0).
    public mutating func update(specificForce: SIMD3<Double>, deltaTime: Double) {
        guard deltaTime > 0, deltaTime.isFinite, specificForce.x.isFinite, specificForce.y.isFinite, specificForce.z.isFinite else { return }
        if lowPass == nil {
            let high = max(min(band.upperBound, 0.4 / deltaTime), band.lowerBound)
            lowPass = ButterworthLowPass(cutoff: high)
        }
        let value = lowPass!.update(highPass.update(specificForce, deltaTime: deltaTime), deltaTime: deltaTime)
        let square = value * value
        count += 1
        sumOfSquares += square
        sumOfFourthPowers += square * square
        peak = pointwiseMax(peak, pointwiseMax(value, -value))
        vectorPeak = max(vectorPeak, (square.x + square.y + square.z).squareRoot())
    }

    /// The figures since the last reset; nil before the first sample.
    public var summary: Summary? {
        guard count > 0 else { return nil }
        let meanSquare = sumOfSquares / Double(count)
        let meanFourth = sumOfFourthPowers / Double(count)
        let kurtosis = SIMD3((0..<3).map { meanSquare[$0] > 0 ? meanFourth[$0] / (meanSquare[$0] * meanSquare[$0]) : 0 })
        return Summary(
            count: count, rms: meanSquare.squareRoot(), vectorRMS: (meanSquare.x + meanSquare.y + meanSquare.z).squareRoot(),
            peak: peak, vectorPeak: vectorPeak, kurtosis: kurtosis)
    }

    /// Starts a new interval (the filters keep their state).
    public mutating func reset() {
        count = 0
        sumOfSquares = .zero
        sumOfFourthPowers = .zero
        peak = .zero
        vectorPeak = 0
    }
}
