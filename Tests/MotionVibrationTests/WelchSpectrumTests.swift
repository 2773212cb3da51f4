#if canImport(Glibc)
import Glibc
#endif
import MotionTestSupport
import MotionVibration
import Testing

/// Welch spectra of synthetic signals whose truth is known: a sine's velocity RMS and frequency, the two
/// ways of measuring velocity against each other, peaks, and the running speed.
@Suite struct WelchSpectrumTests {
    /// The spectrum of `seconds` of `signal` (m/s² at time t s) sampled at `rate` Hz, `lines` lines.
    static func spectrum(rate: Double, lines: Int, seconds: Double, signal: (Double) -> SIMD3<Double>) -> AccelerationSpectrum? {
        let segmentLength = Int((Double(lines) * 2.56).rounded())
        var segmenter = WelchSegmenter(segmentLength: segmentLength, sampleRate: rate)
        var average = SpectrumAverage(binCount: segmentLength / 2 + 1)
        for index in 0..<Int(seconds * rate) where segmenter.append(signal(Double(index) / rate)) {
            average.add(segmenter.segmentDensity)
        }
        return average.spectrum(sampleRate: rate, segmentLength: segmentLength)
    }

    /// An acceleration sine whose velocity RMS is `velocity` mm/s at `frequency` Hz, on `axis`, over 1 g.
    static func tone(velocity: Double, frequency: Double, axis: SIMD3<Double> = SIMD3(1, 0, 0)) -> (Double) -> SIMD3<Double> {
        let amplitude = velocity / 1000 * 2.0.squareRoot() * 2 * Double.pi * frequency
        return { time in axis * amplitude * sin(2 * Double.pi * frequency * time) + SIMD3(0, 0, 9.80665) }
    }

    @Test(arguments: [(1600.0, 400), (1600.0, 1600), (6660.0, 800), (6660.0, 1600)])
    func aSineReadsItsVelocityWithinTwoPerCentAndItsFrequencyWithinALine(rate: Double, lines: Int) throws {
        for frequency in [24.7, 61.3, 157.9, 0.35 * rate] {
            let spectrum = try #require(Self.spectrum(rate: rate, lines: lines, seconds: 12, signal: Self.tone(velocity: 4.5, frequency: frequency)))
            #expect(spectrum.lines == lines)
            let velocity = spectrum.velocityRMS(in: 10...1000)
            let expected = frequency <= 1000 ? 4.5 : 0
            #expect(abs(velocity.vector - expected) <= 0.02 * 4.5, "\(frequency) Hz at \(rate) Hz: \(velocity.vector) mm/s")
            let peak = try #require(spectrum.peaks(count: 1, in: 1...(0.4 * rate)).first)
            #expect(abs(peak.frequency - frequency) <= spectrum.resolution, "\(peak.frequency) Hz for \(frequency) Hz")
            #expect(abs(peak.velocity / 4.5 - 1) < 0.02, "the peak's own velocity \(peak.velocity) mm/s")
            #expect(peak.dominantAxis == 0)
        }
    }

    @Test func theAccelerationRMSOfTheSpectrumIsTheSignals() throws {
        // Two tones on two axes and Gaussian noise: the band's RMS is the root of the summed powers.
        var generator = SeededGenerator(seed: 34)
        let noise = (0..<Int(10 * 1600.0)).map { _ in generator.gaussianVector(standardDeviation: 0.05) }
        let spectrum = try #require(
            Self.spectrum(rate: 1600, lines: 800, seconds: 10) { time in
                SIMD3(2 * sin(2 * .pi * 50 * time), 0.5 * sin(2 * .pi * 120 * time), 9.8) + noise[Int((time * 1600).rounded())]
            })
        let rms = spectrum.accelerationRMS(in: 0.1...800)
        // Noise: 0.05² × 3 axes; tones: 2²/2 + 0.5²/2.
        let expected = (0.05 * 0.05 * 3 + 2 + 0.125).squareRoot()
        #expect(abs(rms.vector / expected - 1) < 0.01, "\(rms.vector) against \(expected)")
        #expect(abs(rms.axes.y / (0.0025 + 0.125).squareRoot() - 1) < 0.02)
    }

    @Test func frequencyAndTimeDomainVelocitiesAgreeWithinThreePerCent() throws {
        // A machine's lines, from 1× at 24.7 Hz to a bearing tone at 400 Hz, at 1.6 and 6.66 kHz.
        for rate in [1600.0, 6660] {
            let tones = [(24.7, 3.0), (49.3, 1.2), (88.1, 0.8), (400.0, 0.6)]
            let signal: (Double) -> SIMD3<Double> = { time in
                tones.enumerated().reduce(SIMD3(0, 0, 9.80665)) { sum, entry in
                    let axis = SIMD3<Double>(entry.offset % 3 == 0 ? 1 : 0, entry.offset % 3 == 1 ? 1 : 0, entry.offset % 3 == 2 ? 1 : 0)
                    return sum + Self.tone(velocity: entry.element.1, frequency: entry.element.0, axis: axis)(time) - SIMD3(0, 0, 9.80665)
                }
            }
            let spectrum = try #require(Self.spectrum(rate: rate, lines: 1600, seconds: 16, signal: signal))
            var meter = VibrationVelocityMeter(averagingTime: 2)
            for index in 0..<Int(16 * rate) { meter.update(specificForce: signal(Double(index) / rate), deltaTime: 1 / rate) }
            let truth = tones.map { $0.1 * $0.1 }.reduce(0, +).squareRoot()
            let frequencyDomain = spectrum.velocityRMS(in: 10...1000).vector
            #expect(abs(frequencyDomain / truth - 1) < 0.02, "frequency domain \(frequencyDomain) against \(truth) at \(rate) Hz")
            #expect(abs(meter.vector / frequencyDomain - 1) < 0.03, "time domain \(meter.vector), frequency domain \(frequencyDomain) at \(rate) Hz")
        }
    }

    @Test func peaksComeLargestFirstAndCloseLinesAreOne() throws {
        let spectrum = try #require(
            Self.spectrum(rate: 1600, lines: 800, seconds: 8) { time in
                SIMD3(sin(2 * .pi * 100 * time) + 0.3 * sin(2 * .pi * 300 * time), 0.6 * sin(2 * .pi * 200 * time), 0)
            })
        let peaks = spectrum.peaks(count: 3, in: 1...640)
        #expect(peaks.map { ($0.frequency / 100).rounded() } == [1, 2, 3])
        #expect(abs(peaks[0].amplitude - 1 / 2.0.squareRoot()) < 0.01)
        #expect(peaks[1].dominantAxis == 1)
        #expect(zip(peaks, peaks.dropFirst()).allSatisfy { $0.0.amplitude >= $0.1.amplitude })
    }

    @Test func theRunningSpeedIsTheStrongestLowLineWithHarmonics() {
        func peak(_ frequency: Double, velocity: Double) -> SpectrumPeak {
            let amplitude = velocity / 1000 * 2 * Double.pi * frequency
            return SpectrumPeak(frequency: frequency, axes: SIMD3(amplitude, 0, 0), amplitude: amplitude)
        }
        // 1× 24.7 Hz with 2× and 4×, a strong bearing tone at 88.1 Hz with no harmonic, and a 50 Hz hum.
        let peaks = [peak(24.7, velocity: 3), peak(49.4, velocity: 1), peak(98.7, velocity: 0.8), peak(88.1, velocity: 2.5), peak(150, velocity: 0.5)]
        #expect(RunningSpeed.estimate(from: peaks, resolution: 0.39, maximumFrequency: 250) == 24.7)
        // The estimate is a fundamental only below the limit; a lone line has none.
        #expect(RunningSpeed.estimate(from: peaks, resolution: 0.39, maximumFrequency: 20) == nil)
        #expect(RunningSpeed.estimate(from: [peak(24.7, velocity: 3)], resolution: 0.39, maximumFrequency: 250) == nil)
        #expect(abs(RunningSpeed.order(of: 88.1, runningFrequency: 24.7) - 3.567) < 0.001)
    }

    @Test func aBadSampleSpoilsOneSegmentNotTheSpectrum() throws {
        var segmenter = WelchSegmenter(segmentLength: 256, sampleRate: 1000)
        var densities: [[SIMD3<Double>]] = []
        for index in 0..<2048 {
            let value = index == 300 ? SIMD3(Double.nan, .infinity, 0) : SIMD3(sin(2 * .pi * 100 * Double(index) / 1000), 0, 0)
            if segmenter.append(value) { densities.append(segmenter.segmentDensity) }
        }
        #expect(densities.count == 15)
        #expect(densities.allSatisfy { $0.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite } })
    }

    @Test func oneTransformIsSharedSafelyBetweenThreads() async {
        // Segmenters copied to tasks share a transform; its lock makes their results those of one thread.
        let segmenter = WelchSegmenter(segmentLength: 512, sampleRate: 1000)
        let results = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var copy = segmenter
                    var last = 0.0
                    for index in 0..<4096 where copy.append(SIMD3(sin(2 * .pi * 125 * Double(index) / 1000), 0, 0)) {
                        last = copy.segmentDensity[64].x
                    }
                    return last
                }
            }
            return await group.reduce(into: [Double]()) { $0.append($1) }
        }
        #expect(Set(results).count == 1 && results[0] > 0)
    }
}
