#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny deterministic random generator: SplitMix64 for uniform bits, Marsaglia's polar method for
/// Gaussian values (one logarithm and one square root per pair, no trigonometry: the simulator draws nine
/// values per sample).
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

    /// A uniform value in [-1, 1).
    mutating func nextSignedUniform() -> Double {
        Double(nextBits() >> 11) * 0x1p-52 - 1
    }

    /// A standard normal value (mean 0, standard deviation 1).
    mutating func nextGaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        // A point uniform in the unit disc (accepted with probability π/4), scaled so that both
        // coordinates are independent standard normal values.
        while true {
            let u = nextSignedUniform(), v = nextSignedUniform()
            let squaredRadius = u * u + v * v
            guard squaredRadius < 1, squaredRadius > 0 else { continue }
            let scale = (-2 * log(squaredRadius) / squaredRadius).squareRoot()
            spareGaussian = v * scale
            return u * scale
        }
    }

    /// Three independent normal values scaled by `standardDeviation`.
    mutating func nextGaussianVector(standardDeviation: Double) -> SIMD3<Double> {
        SIMD3(nextGaussian(), nextGaussian(), nextGaussian()) * standardDeviation
    }
}
