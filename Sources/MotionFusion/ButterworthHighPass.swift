#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A second-order Butterworth high-pass filter of a 3-vector (bilinear transform with a pre-warped cut-off,
/// direct form II transposed): |H| = 1 / √(1 + (f_c / f)⁴), so the stop band falls off with the square of
/// the frequency (the input minus a low-pass falls off only in proportion to it, and peaks above the
/// cut-off). Coefficients follow the sample interval, recomputed when it changes by more than 1 %.
public struct ButterworthHighPass: Sendable {
    /// Cut-off frequency, Hz.
    public let cutoff: Double
    private var coefficients = (b0: 0.0, b1: 0.0, b2: 0.0, a1: 0.0, a2: 0.0)
    private var sampleInterval = 0.0
    private var state0 = SIMD3<Double>.zero
    private var state1 = SIMD3<Double>.zero
    private var lastInput: SIMD3<Double>?

    /// A filter with its −3 dB point at `cutoff` Hz (below half the sample rate). Pure value: one owner
    /// feeds it, from any thread.
    public init(cutoff: Double) {
        self.cutoff = cutoff
    }

    /// Starts the filter at rest on `input` (its next outputs are those of a constant input until it changes).
    public mutating func start(at input: SIMD3<Double>) {
        lastInput = input
        sampleInterval = 0
    }

    /// Filters one sample taken `deltaTime` seconds after the previous one; returns the output. The first
    /// sample (and a change of interval) starts the filter at rest on it: a constant input gives zero.
    public mutating func update(_ input: SIMD3<Double>, deltaTime: Double) -> SIMD3<Double> {
        if abs(deltaTime - sampleInterval) > 0.01 * sampleInterval || sampleInterval == 0 {
            setCoefficients(sampleInterval: deltaTime)
            let rest = lastInput ?? input
            // Steady state for a constant input `rest` with output 0.
            state1 = rest * coefficients.b2
            state0 = rest * coefficients.b1 + state1
        }
        lastInput = input
        let c = coefficients
        let output = input * c.b0 + state0
        state0 = input * c.b1 - output * c.a1 + state1
        state1 = input * c.b2 - output * c.a2
        return output
    }

    private mutating func setCoefficients(sampleInterval: Double) {
        self.sampleInterval = sampleInterval
        let k = tan(.pi * min(cutoff * sampleInterval, 0.49))
        let root2 = 2.0.squareRoot()
        let norm = 1 / (1 + root2 * k + k * k)
        coefficients = (norm, -2 * norm, norm, 2 * (k * k - 1) * norm, (1 - root2 * k + k * k) * norm)
    }
}
