#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A second-order Butterworth low-pass filter of a 3-vector (bilinear transform, direct form II transposed),
/// with a time constant rather than a cut-off frequency: `f_c = √2 / (2π·τ)`, so that it settles like a
/// first-order filter of time constant `τ` but rejects fast oscillations far better.
///
/// The coefficients follow the sample interval; they are recomputed only when it changes by more than
/// 1 %, so jitter in the timestamps costs nothing.
public struct ButterworthLowPass: Sendable {
    /// Time constant, s.
    public let timeConstant: Double
    private var coefficients = (b0: 0.0, b1: 0.0, b2: 0.0, a1: 0.0, a2: 0.0)
    private var sampleInterval = 0.0
    private var state0 = SIMD3<Double>.zero
    private var state1 = SIMD3<Double>.zero
    /// The last output.
    public private(set) var value = SIMD3<Double>.zero
    /// Whether the filter has been started from a first value.
    public private(set) var isStarted = false

    /// A filter of time constant `timeConstant` s (cut-off √2 / (2π·τ) Hz). Pure value: one owner feeds
    /// it, from any thread.
    public init(timeConstant: Double) {
        self.timeConstant = timeConstant
    }

    /// A filter with its −3 dB point at `cutoff` Hz (below half the sample rate): the time constant
    /// √2 / (2π·f_c).
    public init(cutoff: Double) {
        self.init(timeConstant: 2.squareRoot() / (2 * .pi * cutoff))
    }

    /// Starts the filter at rest at `initial` (its output is `initial` until the input changes).
    public mutating func reset(to initial: SIMD3<Double>) {
        value = initial
        isStarted = true
        // Steady state of the transposed direct form for a constant input equal to its output.
        state0 = initial * (1 - coefficients.b0)
        state1 = initial * (coefficients.b2 - coefficients.a2)
    }

    /// Filters one sample taken `deltaTime` seconds after the previous one; returns the output.
    @discardableResult @inline(__always)
    public mutating func update(_ input: SIMD3<Double>, deltaTime: Double) -> SIMD3<Double> {
        if abs(deltaTime - sampleInterval) > 0.01 * sampleInterval || sampleInterval == 0 {
            let output = isStarted ? value : input
            setCoefficients(sampleInterval: deltaTime)
            reset(to: output)
        }
        let c = coefficients
        let output = input * c.b0 + state0
        state0 = input * c.b1 - output * c.a1 + state1
        state1 = input * c.b2 - output * c.a2
        value = output
        return output
    }

    private mutating func setCoefficients(sampleInterval: Double) {
        self.sampleInterval = sampleInterval
        let cutoff = 2.0.squareRoot() / (2 * .pi * timeConstant)
        let c = tan(.pi * cutoff * sampleInterval)
        let d = c * c + 2.0.squareRoot() * c + 1
        let b0 = c * c / d
        coefficients = (b0, 2 * b0, b0, 2 * (c * c - 1) / d, (1 - 2.0.squareRoot() * c + c * c) / d)
    }
}
