import Foundation
import MotionTestSupport
import MotionVibration
import Testing

/// The spectrum against an independent implementation: SciPy's `scipy.signal.welch` (Debian's
/// python3-scipy) on the same samples, with the same segment, window, overlap, detrending and scaling.
@Suite struct WelchSciPyTests {
    @Test(arguments: [(1600.0, 1024), (6660.0, 4096)])
    func theSpectrumIsSciPysWithinOnePerCent(rate: Double, segmentLength: Int) throws {
        // Three tones (one between bins), gravity, and broadband noise, so that every bin has power.
        var generator = SeededGenerator(seed: UInt64(segmentLength))
        let count = segmentLength * 9 / 2  // eight segments overlapping by half
        let samples: [SIMD3<Float>] = (0..<count).map { index in
            let time = Double(index) / rate
            let tones = SIMD3(
                0.8 * sin(2 * .pi * 24.66 * time), 0.3 * sin(2 * .pi * 49.32 * time + 1), 0.2 * sin(2 * .pi * 307.1 * time) + 9.80665)
            return SIMD3<Float>(tones + generator.gaussianVector(standardDeviation: 0.02))
        }
        var segmenter = WelchSegmenter(segmentLength: segmentLength, sampleRate: rate)
        var average = SpectrumAverage(binCount: segmentLength / 2 + 1)
        for sample in samples where segmenter.append(SIMD3<Double>(sample)) { average.add(segmenter.segmentDensity) }
        let ours = try #require(average.spectrum(sampleRate: rate, segmentLength: segmentLength))
        #expect(ours.averages == 8)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("samples.txt")
        // Float's shortest round-trip text: SciPy reads exactly the values FFTW transformed.
        try samples.map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let script = """
            import sys, numpy, scipy.signal
            x = numpy.loadtxt(sys.argv[1])
            f, p = scipy.signal.welch(x, fs=float(sys.argv[2]), window='hann', nperseg=int(sys.argv[3]), noverlap=int(sys.argv[3]) // 2, axis=0)
            numpy.savetxt(sys.stdout, p, fmt='%.17g')
            """
        let result = try CommandLineTool.run(
            "/usr/bin/python3", ["-c", script, input.path, "\(rate)", "\(segmentLength)"], timeout: .seconds(60))
        try #require(result.status == 0, "\(result.output)")
        let theirs = result.output.split(separator: "\n").map { line in line.split(separator: " ").map { Double($0)! } }
        try #require(theirs.count == ours.density.count)

        var worst = 0.0
        for (bin, row) in theirs.enumerated() {
            for axis in 0..<3 {
                let difference = abs(ours.density[bin][axis] - row[axis]) / row[axis]
                worst = max(worst, difference)
            }
        }
        #expect(worst < 0.01, "largest difference of a bin: \(worst * 100) %")
    }
}
