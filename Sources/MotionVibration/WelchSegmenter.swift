#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The first half of Welch's method, fed one sample at a time: it cuts the accelerometer's stream into
/// segments of ``segmentLength`` samples overlapping by half, and turns each into the power spectral density
/// of each axis. Each segment has its mean taken out (SciPy's `detrend='constant'`, which also takes out
/// gravity), is weighted by a periodic Hann window and transformed by FFTW; its one-sided density is
/// 2·|X[k]|² / (f_s·Σw²), with the 0 Hz and half-rate bins not doubled, in (m/s²)²/Hz — SciPy's
/// `welch(x, fs, window='hann', nperseg=N, noverlap=N/2, scaling='density')` of one segment.
///
/// Pure value apart from the transform's scratch buffers (shared by copies, used in turn); keeps N samples
/// and allocates nothing once made. Accelerations in m/s², rates in Hz.
public struct WelchSegmenter: Sendable {
    /// Samples per segment, N (even).
    public let segmentLength: Int
    /// The sample rate, Hz.
    public let sampleRate: Double
    /// The density of the last segment completed, per axis, (m/s²)²/Hz, bins 0 … N/2 (bin k at
    /// k·f_s/N Hz). Zero until the first segment completes.
    public private(set) var segmentDensity: [SIMD3<Double>]
    /// Segments completed so far.
    public private(set) var segmentCount = 0

    private let transform: RealFourierTransform
    private let window: [Float]
    /// 1 / (f_s·Σw²): the density's scale.
    private let scale: Double
    private var samples: [SIMD3<Float>]
    private var filled = 0

    /// A segmenter of `segmentLength` samples (even, ≥ 4) at `sampleRate` Hz.
    public init(segmentLength: Int, sampleRate: Double) {
        precondition(segmentLength >= 4 && segmentLength % 2 == 0 && sampleRate > 0, "an even segment ≥ 4 at a positive rate")
        self.segmentLength = segmentLength
        self.sampleRate = sampleRate
        transform = RealFourierTransform(length: segmentLength)
        // The periodic Hann window (SciPy's get_window('hann', N), DFT-even): w[n] = sin²(πn/N).
        window = (0..<segmentLength).map { index in
            let sine = sin(Double.pi * Double(index) / Double(segmentLength))
            return Float(sine * sine)
        }
        scale = 1 / (sampleRate * window.reduce(0) { $0 + Double($1) * Double($1) })
        samples = Array(repeating: .zero, count: segmentLength)
        segmentDensity = Array(repeating: .zero, count: segmentLength / 2 + 1)
    }

    /// Appends one sample (m/s², device axes); returns true when it completed a segment, whose density is
    /// then in ``segmentDensity``. A non-finite sample is taken as zero, so one bad reading spoils one
    /// segment's level rather than every later spectrum (so does one beyond single precision's range).
    public mutating func append(_ sample: SIMD3<Double>) -> Bool {
        // Checked after the conversion: a value beyond single precision's range is as bad as an infinite one.
        let single = SIMD3<Float>(sample)
        samples[filled] = single.x.isFinite && single.y.isFinite && single.z.isFinite ? single : .zero
        filled += 1
        guard filled == segmentLength else { return false }
        analyseSegment()
        // The second half starts the next segment (50 % overlap).
        let half = segmentLength / 2
        for index in 0..<half { samples[index] = samples[index + half] }
        filled = half
        segmentCount += 1
        return true
    }

    /// Forgets the samples of an unfinished segment (after a gap in the stream, say); keeps the count.
    public mutating func discardPartialSegment() {
        filled = 0
    }

    private mutating func analyseSegment() {
        let (samples, window, scale, transform, length) = (samples, window, scale, transform, segmentLength)
        var mean = SIMD3<Double>.zero
        for sample in samples { mean += SIMD3<Double>(sample) }
        let centre = SIMD3<Float>(mean / Double(length))
        let lastBin = length / 2
        segmentDensity.withUnsafeMutableBufferPointer { density in
            for axis in 0..<3 {
                transform.transform(
                    fill: { input in
                        for index in 0..<length { input[index] = (samples[index][axis] - centre[axis]) * window[index] }
                    },
                    read: { bins in
                        for bin in 0...lastBin {
                            let (real, imaginary) = (Double(bins[bin].0), Double(bins[bin].1))
                            let doubled = bin == 0 || bin == lastBin ? 1.0 : 2.0
                            density[bin][axis] = doubled * (real * real + imaginary * imaginary) * scale
                        }
                    })
            }
        }
    }
}
