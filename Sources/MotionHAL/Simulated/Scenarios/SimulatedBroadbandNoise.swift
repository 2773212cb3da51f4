#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The broadband vibration of a ``SimulatedMachine`` (`noise=`): band-limited white velocity noise, as a sum of
/// many sines with seeded random frequencies and phases.
///
/// Why sines: the simulator's samples are a pure function of their index (``SimulatedIMU/sample(index:sampleRate:startTimestamp:)``),
/// and the accelerometer reads the acceleration, which must be the exact derivative of the velocity (and the
/// band must be limited without a filter, which would need the samples before). A sum of sines is all of that
/// at once: exact position, velocity and acceleration at any instant, nothing above the band to alias, and
/// a known RMS. With ``linesPerAxis`` lines of equal amplitude on each axis, one drawn uniformly inside each
/// of as many equal slices of the band (stratified, so the spectrum is flat at any resolution coarser than
/// the slices, about 6 Hz for 10–800 Hz), at uniformly random phases, the velocity's power spectral density
/// is flat over the band, its RMS per axis is exactly `rms / √3` (over times long compared with the
/// slices' inverse), and its amplitudes are close to Gaussian (a sum of n random-phase sines has kurtosis
/// 3 − 1.5/n; in acceleration, where the upper lines weigh more, about 3 − 2.7/n, 2.98 for 128 lines). The
/// cost, two trigonometric functions per line and sample (768 for 128 lines on three axes, a few µs), is
/// only paid when `rms` > 0.
struct SimulatedBroadbandNoise: Sendable {
    /// Sines on each axis.
    static let linesPerAxis = 128

    /// Velocity RMS of the vector, mm/s (≥ 0).
    let rms: Double
    /// The band the lines fill, Hz (lower bound > 0).
    let band: ClosedRange<Double>
    /// Seed of the frequencies and phases.
    let seed: UInt64

    /// One sine of the velocity, `amplitude · cos(ω t + phase)` along one axis.
    private struct Line: Sendable {
        /// 0, 1 or 2: x, y or z.
        var axis: Int
        /// Angular frequency, rad/s.
        var omega: Double
        /// Phase at t = 0, rad.
        var phase: Double
    }

    /// Peak velocity of each line, m/s.
    private let amplitude: Double
    /// The lines, axis by axis; none when `rms` is 0.
    private let lines: [Line]

    /// Noise of `rms` mm/s (vector) over `band` Hz, its lines drawn from `seed`.
    /// - Parameters:
    ///   - rms: mm/s, ≥ 0.
    ///   - band: Hz, lower bound > 0.
    ///   - seed: any; equal seeds give equal noise.
    init(rms: Double, band: ClosedRange<Double>, seed: UInt64) {
        precondition(rms >= 0 && rms.isFinite, "SimulatedMachine noise must be finite and ≥ 0 mm/s")
        precondition(band.lowerBound > 0 && band.upperBound.isFinite, "SimulatedMachine noise band must lie above 0 Hz")
        self.rms = rms
        self.band = band
        self.seed = seed
        let count = Self.linesPerAxis
        // Each axis carries rms²/3 of the mean square, shared by `count` sines of mean square amplitude²/2.
        amplitude = rms / 1000 / 3.0.squareRoot() * (2 / Double(count)).squareRoot()
        guard rms > 0 else {
            lines = []
            return
        }
        let slice = (band.upperBound - band.lowerBound) / Double(count)
        var lines: [Line] = []
        lines.reserveCapacity(3 * count)
        for axis in 0..<3 {
            // Streams far from the sensor noise's (the sample indices, counted from 0).
            var random = SeededGaussianGenerator(seed: seed, stream: UInt64.max - 0x4E4F_4953 - UInt64(axis))
            for slot in 0..<count {
                let offset = (random.nextSignedUniform() + 1) / 2, phase = (random.nextSignedUniform() + 1) * Double.pi
                let frequency = band.lowerBound + (Double(slot) + offset) * slice
                lines.append(Line(axis: axis, omega: 2 * Double.pi * frequency, phase: phase))
            }
        }
        self.lines = lines
    }

    /// Displacement (m), velocity (m/s) and acceleration (m/s²) of the noise at `time` s, each the exact
    /// derivative of the one before.
    func kinematics(at time: Double) -> (position: SIMD3<Double>, velocity: SIMD3<Double>, acceleration: SIMD3<Double>) {
        var position = SIMD3<Double>.zero, velocity = SIMD3<Double>.zero, acceleration = SIMD3<Double>.zero
        for line in lines {
            let angle = line.omega * time + line.phase
            let sine = sin(angle), cosine = cos(angle)
            // velocity A·cos(ωt + φ): position (A/ω)·sin(ωt + φ), acceleration −A·ω·sin(ωt + φ).
            position[line.axis] += amplitude / line.omega * sine
            velocity[line.axis] += amplitude * cosine
            acceleration[line.axis] -= amplitude * line.omega * sine
        }
        return (position, velocity, acceleration)
    }
}

extension SimulatedBroadbandNoise: Equatable {
    /// Equal parameters: the lines follow from them.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rms == rhs.rms && lhs.band == rhs.band && lhs.seed == rhs.seed
    }
}
