/// An averaged acceleration spectrum (Welch's method): the power spectral density of each axis, and what
/// condition monitoring reads from it — the RMS of acceleration and velocity in a band (velocity by
/// integration in the frequency domain, dividing each line by 2πf) and the largest peaks. Pure value;
/// accelerations in m/s², velocities in mm/s, frequencies in Hz.
///
/// The lines an analyser shows are ``lines`` = N / 2.56 of the N/2 + 1 bins: up to 0.39 × the sample rate,
/// where an accelerometer's anti-aliasing filter still passes the signal.
public struct AccelerationSpectrum: Sendable, Equatable {
    /// The sample rate, Hz.
    public let sampleRate: Double
    /// Samples per segment, N.
    public let segmentLength: Int
    /// Segments averaged.
    public let averages: Int
    /// The density of each axis, (m/s²)²/Hz, bins 0 … N/2 (bin k at k × ``resolution`` Hz).
    public let density: [SIMD3<Double>]

    /// A spectrum of `density` (N/2 + 1 bins) averaged over `averages` segments of `segmentLength` samples.
    public init(sampleRate: Double, segmentLength: Int, averages: Int, density: [SIMD3<Double>]) {
        precondition(density.count == segmentLength / 2 + 1, "N/2 + 1 bins")
        self.sampleRate = sampleRate
        self.segmentLength = segmentLength
        self.averages = averages
        self.density = density
    }

    /// The spacing of the bins, Hz (f_s / N).
    public var resolution: Double { sampleRate / Double(segmentLength) }

    /// The lines shown, N / 2.56 (1600 for N = 4096).
    public var lines: Int { Int((Double(segmentLength) / 2.56).rounded(.down)) }

    /// The frequency of bin `bin`, Hz.
    public func frequency(ofBin bin: Int) -> Double { Double(bin) * resolution }

    /// The density of the vector (the sum of the axes' densities) in bin `bin`, (m/s²)²/Hz.
    public func vectorDensity(ofBin bin: Int) -> Double {
        let axes = density[bin]
        return axes.x + axes.y + axes.z
    }

    /// The bins whose frequencies lie in `band` (never bin 0), clipped to those that exist.
    public func bins(in band: ClosedRange<Double>) -> ClosedRange<Int>? {
        let first = max(1, Int((band.lowerBound / resolution).rounded(.up)))
        let last = min(density.count - 1, Int((band.upperBound / resolution).rounded(.down)))
        return first <= last ? first...last : nil
    }

    /// The acceleration RMS in `band` of each axis and of the vector, m/s² (the root of the density's
    /// integral over the band).
    public func accelerationRMS(in band: ClosedRange<Double>) -> (axes: SIMD3<Double>, vector: Double) {
        integrated(in: band) { _ in 1 }
    }

    /// The velocity RMS in `band` of each axis and of the vector, mm/s: each line's acceleration divided by
    /// 2πf before integrating (the band's edges are sharp, unlike the time-domain meter's Butterworth
    /// slopes).
    public func velocityRMS(in band: ClosedRange<Double>) -> (axes: SIMD3<Double>, vector: Double) {
        let rms = integrated(in: band) { frequency in
            let omega = 2 * Double.pi * frequency
            return 1 / (omega * omega)
        }
        return (rms.axes * 1000, rms.vector * 1000)
    }

    private func integrated(in band: ClosedRange<Double>, weight: (Double) -> Double) -> (axes: SIMD3<Double>, vector: Double) {
        guard let bins = bins(in: band) else { return (.zero, 0) }
        var sum = SIMD3<Double>.zero
        for bin in bins { sum += density[bin] * weight(frequency(ofBin: bin)) }
        sum *= resolution
        return (sum.squareRoot(), (sum.x + sum.y + sum.z).squareRoot())
    }

    /// The `count` largest peaks of the vector's spectrum in `band`, largest first: local maxima of the
    /// vector density, each measured over its Hann window's main lobe (the two bins either side): its RMS is
    /// the root of the lobe's integral, its frequency the lobe's power-weighted centre (within a tenth of a
    /// bin for a tone between bins). Peaks closer than three bins are one peak.
    public func peaks(count: Int, in band: ClosedRange<Double>) -> [SpectrumPeak] {
        guard count > 0, let bins = bins(in: band), bins.count >= 3 else { return [] }
        var candidates: [SpectrumPeak] = []
        for bin in bins.lowerBound...bins.upperBound {
            let level = vectorDensity(ofBin: bin)
            guard level > 0, bin == 0 || level > vectorDensity(ofBin: bin - 1),
                bin == density.count - 1 || level >= vectorDensity(ofBin: bin + 1)
            else { continue }
            candidates.append(peak(at: bin))
        }
        candidates.sort { $0.amplitude > $1.amplitude }
        var chosen: [SpectrumPeak] = []
        for candidate in candidates where chosen.count < count {
            if chosen.allSatisfy({ abs($0.frequency - candidate.frequency) >= 3 * resolution }) { chosen.append(candidate) }
        }
        return chosen
    }

    /// The peak whose largest bin is `bin`, measured over the lobe bin − 2 … bin + 2.
    func peak(at bin: Int) -> SpectrumPeak {
        let lobe = max(0, bin - 2)...min(density.count - 1, bin + 2)
        var power = SIMD3<Double>.zero
        var moment = 0.0
        for index in lobe {
            power += density[index]
            moment += vectorDensity(ofBin: index) * frequency(ofBin: index)
        }
        let total = power.x + power.y + power.z
        return SpectrumPeak(
            frequency: total > 0 ? moment / total : frequency(ofBin: bin),
            axes: (power * resolution).squareRoot(),
            amplitude: (total * resolution).squareRoot())
    }
}

/// One peak of a spectrum: a line of the machine's vibration.
public struct SpectrumPeak: Sendable, Equatable {
    /// Its frequency, Hz.
    public var frequency: Double
    /// Its acceleration RMS on each axis, m/s².
    public var axes: SIMD3<Double>
    /// Its acceleration RMS of the vector, m/s².
    public var amplitude: Double

    /// A peak at `frequency` Hz of RMS `amplitude` m/s² (the vector's), `axes` on each axis.
    public init(frequency: Double, axes: SIMD3<Double>, amplitude: Double) {
        self.frequency = frequency
        self.axes = axes
        self.amplitude = amplitude
    }

    /// Its velocity RMS, mm/s (the amplitude over 2πf).
    public var velocity: Double { amplitude / (2 * Double.pi * frequency) * 1000 }

    /// The axis with the most of it: 0 x, 1 y, 2 z.
    public var dominantAxis: Int { axes.x >= axes.y && axes.x >= axes.z ? 0 : axes.y >= axes.z ? 1 : 2 }
}

/// Welch's second half: the mean of segment densities (linear averaging, as an analyser's "averages").
public struct SpectrumAverage: Sendable {
    /// Segments added since the last reset.
    public private(set) var count = 0
    private var sum: [SIMD3<Double>]

    /// An empty average of spectra of `binCount` bins.
    public init(binCount: Int) {
        sum = Array(repeating: .zero, count: binCount)
    }

    /// Adds one segment's density (the same number of bins).
    public mutating func add(_ density: [SIMD3<Double>]) {
        precondition(density.count == sum.count, "the same bins")
        for bin in sum.indices { sum[bin] += density[bin] }
        count += 1
    }

    /// The mean so far as a spectrum of segments of `segmentLength` samples at `sampleRate` Hz; nil before
    /// the first segment.
    public func spectrum(sampleRate: Double, segmentLength: Int) -> AccelerationSpectrum? {
        guard count > 0 else { return nil }
        let scale = 1 / Double(count)
        return AccelerationSpectrum(sampleRate: sampleRate, segmentLength: segmentLength, averages: count, density: sum.map { $0 * scale })
    }

    /// Starts again (keeps the storage).
    public mutating func reset() {
        for bin in sum.indices { sum[bin] = .zero }
        count = 0
    }
}
