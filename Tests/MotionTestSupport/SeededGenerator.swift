import Foundation

/// SplitMix64: a small deterministic random number generator so the tests are reproducible.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal deviate (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A vector of independent normal deviates with the given standard deviation.
    public mutating func gaussianVector(standardDeviation: Double) -> SIMD3<Double> {
        SIMD3(gaussian(), gaussian(), gaussian()) * standardDeviation
    }

    /// A uniformly distributed unit vector.
    public mutating func unitVector() -> SIMD3<Double> {
        while true {
            let v = SIMD3(gaussian(), gaussian(), gaussian())
            let length = (v * v).sum().squareRoot()
            if length > 1e-6 { return v / length }
        }
    }
}
