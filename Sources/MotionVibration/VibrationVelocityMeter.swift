#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionFusion

/// Vibration velocity RMS from the accelerometer in the time domain: the specific force band-passed to
/// the measuring band (a second-order Butterworth high-pass at the band's low edge, which also takes out
/// gravity, and a low-pass at its high edge, clipped to 0.4 × the sample rate), integrated, high-passed
/// again at the low edge (the integration's drift), and its square averaged exponentially over
/// ``averagingTime``. Per axis and for the vector (the root of the axes' sum). Pure value, fed at the
/// sensor rate; accelerations in m/s², velocities in mm/s, times in s.
///
/// The integration is Al-Alaoui's (y[n] = y[n−1] + T·(7·x[n] + x[n−1]) / 8), whose gain stays within 1 %
/// of 1/ω up to a quarter of the sample rate and within 3 % up to 0.4 of it; the trapezoidal rule's falls
/// 5 % short at an eighth of the rate. The band's own edges are the measurement's (ISO 20816-1 specifies
/// the band by its −3 dB points): a line reads the band's analog response, 1/√(1 + (f/f_high)⁴) at the
/// top and 1/(1 + (f_low/f)⁴) at the bottom (the high-pass is applied twice).
public struct VibrationVelocityMeter: Sendable {
    /// The measuring band, Hz (ISO 20816-1: 10–1000 Hz for machines above 600 rpm).
    public let band: ClosedRange<Double>
    /// The time constant of the mean square, s.
    public let averagingTime: Double

    private var bandHigh: ButterworthHighPass
    /// Made with the first sample, its edge clipped to 0.4 × that sample's rate.
    private var bandLow: ButterworthLowPass?
    private var drift: ButterworthHighPass
    private var velocity = SIMD3<Double>.zero
    private var lastAcceleration: SIMD3<Double>?
    private var meanSquare = SIMD3<Double>.zero
    private var elapsed = 0.0

    /// A meter of `band` (its high edge should be at most 0.4 × the sample rate) averaging over
    /// `averagingTime` seconds.
    public init(band: ClosedRange<Double> = 10...1000, averagingTime: Double = 1) {
        precondition(band.lowerBound > 0 && band.upperBound > band.lowerBound && averagingTime > 0)
        self.band = band
        self.averagingTime = averagingTime
        bandHigh = ButterworthHighPass(cutoff: band.lowerBound)
        drift = ButterworthHighPass(cutoff: band.lowerBound)
    }

    /// The band measured, Hz: ``band`` with its high edge clipped to 0.4 × the sample rate (known from the
    /// second sample).
    public private(set) var effectiveBand: ClosedRange<Double>?

    /// The velocity RMS of each axis, mm/s.
    public var axes: SIMD3<Double> { meanSquare.squareRoot() * 1000 }

    /// The velocity RMS of the vector, mm/s.
    public var vector: Double { (meanSquare.x + meanSquare.y + meanSquare.z).squareRoot() * 1000 }

    /// Whether the average has settled (three averaging times since the start).
    public var isSettled: Bool { elapsed >= 3 * averagingTime }

    /// Feeds one sample.
    /// - Parameters:
    ///   - specificForce: the accelerometer's reading, m/s².
    ///   - deltaTime: s since the previous sample (> 0).
    public mutating func update(specificForce: SIMD3<Double>, deltaTime: Double) {
        guard deltaTime > 0, deltaTime.isFinite, specificForce.x.isFinite, specificForce.y.isFinite, specificForce.z.isFinite else { return }
        if bandLow == nil {
            let high = min(band.upperBound, 0.4 / deltaTime)
            effectiveBand = band.lowerBound...max(high, band.lowerBound)
            bandLow = ButterworthLowPass(cutoff: high)
        }
        let acceleration = bandLow!.update(bandHigh.update(specificForce, deltaTime: deltaTime), deltaTime: deltaTime)
        if let last = lastAcceleration { velocity += (7 * acceleration + last) / 8 * deltaTime }
        lastAcceleration = acceleration
        let clean = drift.update(velocity, deltaTime: deltaTime)
        let weight = 1 - exp(-deltaTime / averagingTime)
        meanSquare += (clean * clean - meanSquare) * weight
        elapsed += deltaTime
    }
}
