/// A deterministic SplitMix64 generator, so that randomized tests are reproducible.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly random unit vector (dimensionless).
    mutating func unitVector() -> SIMD3<Double> {
        while true {
            let v = SIMD3(Double.random(in: -1...1, using: &self), Double.random(in: -1...1, using: &self),
                          Double.random(in: -1...1, using: &self))
            let length = (v * v).sum().squareRoot()
            if length > 0.1, length <= 1 { return v / length }
        }
    }
}
