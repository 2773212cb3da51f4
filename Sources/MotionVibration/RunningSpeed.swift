/// A machine's running speed read from its spectrum, and the orders of its peaks. Pure functions.
///
/// Without a tachometer the running speed is the strongest low line that has harmonics: of the peaks up to
/// ``maximumFrequency(in:)``, those with at least one other peak at an integer multiple (2× … 8×) are
/// candidates, and the one with the largest velocity wins (a machine's 1× line dominates its velocity
/// spectrum; in acceleration, the higher harmonics and bearing tones weigh more). A spectrum with no such
/// peak has no estimate: a lone line may be anything (a neighbour's motor, a resonance).
public enum RunningSpeed {
    /// How close, Hz, a peak must be to n × f to count as its n-th harmonic, for a spectrum of bin spacing
    /// `resolution`: one and a half bins, widened by n half-bins for the fundamental's own error.
    static func tolerance(harmonic: Int, resolution: Double) -> Double {
        max(1.5, Double(harmonic) * 0.5) * resolution
    }

    /// The running speed estimated from `peaks`, Hz; nil when no peak up to `maximumFrequency` has a
    /// harmonic among them.
    /// - Parameters:
    ///   - peaks: a spectrum's peaks (any order).
    ///   - resolution: its bin spacing, Hz.
    ///   - maximumFrequency: the highest running speed considered, Hz (a quarter of the band's top, so that
    ///     its 2×–4× are in the spectrum).
    public static func estimate(from peaks: [SpectrumPeak], resolution: Double, maximumFrequency: Double) -> Double? {
        let candidates = peaks.filter { candidate in
            candidate.frequency <= maximumFrequency && (2...8).contains { harmonic in
                peaks.contains { abs($0.frequency - Double(harmonic) * candidate.frequency) <= tolerance(harmonic: harmonic, resolution: resolution) }
            }
        }
        return candidates.max { $0.velocity < $1.velocity }?.frequency
    }

    /// The order of `frequency` for a machine running at `runningFrequency` Hz (1 for the running speed).
    public static func order(of frequency: Double, runningFrequency: Double) -> Double {
        frequency / runningFrequency
    }
}
