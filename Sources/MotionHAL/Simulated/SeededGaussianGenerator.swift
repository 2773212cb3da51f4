#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny deterministic random generator: SplitMix64 for uniform bits, Box–Muller for Gaussian values.
///
/// The simulator makes one generator per sample from `(seed, sample index)`, so the noise of sample n
/// does not depend on which samples were generated before it.
struct SeededGaussianGenerator {
    private var state: UInt64
    private var spareGaussian: Double?

    /// A generator for the stream `stream` of the seed `seed`.
    init(seed: UInt64, stream: UInt64) {
        state = Self.mix(seed ^ Self.mix(stream &+ 0x6A09_E667_F3BC_C909))
    }

    /// SplitMix64's output function: a bijective 64-bit mixer.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 uniformly distributed bits.
    mutating func nextBits() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform value in (0, 1].
    mutating func nextUniform() -> Double {
        Double((nextBits() >> 11) + 1) * 0x1p-53
    }

    /// A standard normal value (mean 0, standard deviation 1).
    mutating func nextGaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        let radius = (-2 * log(nextUniform())).squareRoot()
        let angle = 2 * Double.pi * nextUniform()
        spareGaussian = radius * sin(angle)
        return radius * cos(angle)
    }

    /// Three independent normal values scaled by `standardDeviation`.
    mutating func nextGaussianVector(standardDeviation: Double) -> SIMD3<Double> {
        SIMD3(nextGaussian(), nextGaussian(), nextGaussian()) * standardDeviation
    }
}
