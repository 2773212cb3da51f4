#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// VQF's second-order Butterworth low-pass over `count` values at once, mean-initialised as VQF does: for
/// the first `timeConstant` seconds the output is the running mean of the inputs, and the filter then
/// starts in the steady state of that mean (so the start does not hang on one sample).
struct VQFLowPass: Sendable {
    private let b: (Double, Double, Double)
    private let a: (Double, Double)
    private let timeConstant: Double
    private let sampleTime: Double
    /// Per value the two state variables of the direct form II transposed; nil while averaging.
    private var state: [(Double, Double)]?
    private var sum: [Double]
    private var count = 0.0

    /// - Parameters:
    ///   - timeConstant: s; the cut-off is √2 / (2π τ) Hz (VQF's `filterCoeffs`).
    ///   - sampleTime: s.
    ///   - count: how many values each update filters.
    init(timeConstant: Double, sampleTime: Double, count: Int) {
        let cutoff = 2.0.squareRoot() / (2 * Double.pi) / timeConstant
        let c = tan(Double.pi * cutoff * sampleTime)
        let d = c * c + 2.0.squareRoot() * c + 1
        let b0 = c * c / d
        b = (b0, 2 * b0, b0)
        a = (2 * (c * c - 1) / d, (1 - 2.0.squareRoot() * c + c * c) / d)
        self.timeConstant = timeConstant
        self.sampleTime = sampleTime
        sum = Array(repeating: 0, count: count)
    }

    /// Filters one set of values; returns the outputs.
    mutating func update(_ input: [Double]) -> [Double] {
        guard var state else {
            count += 1
            var output = input
            for index in input.indices {
                sum[index] += input[index]
                output[index] = sum[index] / count
            }
            if count * sampleTime >= timeConstant {
                // The steady state for a constant input x0 (scipy's lfilter_zi).
                self.state = output.map { ($0 * (1 - b.0), $0 * (b.2 - a.1)) }
            }
            return output
        }
        var output = input
        for index in input.indices {
            let x = input[index]
            let y = b.0 * x + state[index].0
            state[index] = (b.1 * x - a.0 * y + state[index].1, b.2 * x - a.1 * y)
            output[index] = y
        }
        self.state = state
        return output
    }
}
