import MotionHAL
import Testing

/// FIFO timestamps from burst reads: spaced by the chip's real period, within a period of the truth.
@Suite struct FIFOTimestamperTests {
    /// A chip sampling every `chipPeriod` ns from `phase`, read every `readInterval` ns with `jitter`.
    struct Burst { var readTime: UInt64; var trueTimes: [UInt64] }

    static func bursts(
        chipPeriod: Double, phase: Double, readInterval: Double, jitter: (Int) -> Double, reads: Int
    ) -> [Burst] {
        var result: [Burst] = []
        var produced = 0
        for read in 1...reads {
            let readTime = 1e9 + Double(read) * readInterval + jitter(read)
            var times: [UInt64] = []
            while phase + Double(produced + 1) * chipPeriod <= readTime {
                produced += 1
                times.append(UInt64(phase + Double(produced) * chipPeriod))
            }
            result.append(Burst(readTime: UInt64(readTime), trueTimes: times))
        }
        return result
    }

    @Test(arguments: [0.0, 0.02, -0.03])
    func tracksAChipWhoseOscillatorIsOff(error: Double) {
        let nominal = 5_000_000.0  // 200 Hz
        let chipPeriod = nominal / (1 + error)
        // Reads every 10 ms, late by 0–3 ms in a fixed pseudo-random pattern.
        let bursts = Self.bursts(
            chipPeriod: chipPeriod, phase: 1e9 + 1_234_567, readInterval: 10e6,
            jitter: { Double(($0 * 7919) % 3000) * 1000 }, reads: 600)
        var timestamper = FIFOTimestamper(sampleRate: 200)
        var last: UInt64 = 0
        var worstAfterSettling = 0.0
        for (index, burst) in bursts.enumerated() {
            let stamps = timestamper.timestamps(count: burst.trueTimes.count, readTime: burst.readTime)
            #expect(stamps.count == burst.trueTimes.count)
            for (stamp, truth) in zip(stamps, burst.trueTimes) {
                #expect(stamp > last && stamp <= burst.readTime)
                last = stamp
                if index > 300 { worstAfterSettling = max(worstAfterSettling, abs(Double(stamp) - Double(truth))) }
            }
        }
        // The period is learnt to within 0.1 %, and each timestamp lies within a period of the truth.
        #expect(abs(timestamper.period - chipPeriod) < 0.001 * chipPeriod, "period \(timestamper.period)")
        #expect(worstAfterSettling < chipPeriod, "worst error \(worstAfterSettling) ns")
    }

    @Test func resetStartsAfreshAndEmptyBurstsGiveNothing() {
        var timestamper = FIFOTimestamper(sampleRate: 100)
        #expect(timestamper.timestamps(count: 0, readTime: 5_000_000_000).isEmpty)
        let first = timestamper.timestamps(count: 3, readTime: 5_000_000_000)
        #expect(first == [4_980_000_000, 4_990_000_000, 5_000_000_000])
        timestamper.reset()
        #expect(timestamper.period == 10_000_000)
        let afterReset = timestamper.timestamps(count: 2, readTime: 6_000_000_000)
        #expect(afterReset == [5_990_000_000, 6_000_000_000])
        // A burst after a reset that would reach back before the last timestamp given still follows it.
        timestamper.reset()
        let long = timestamper.timestamps(count: 200, readTime: 6_500_000_000)
        #expect(long.first! > 6_000_000_000 && long.last! == 6_500_000_000)
        #expect(zip(long, long.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func aBurstThatWouldOverlapThePreviousOneIsSqueezedAfterIt() {
        var timestamper = FIFOTimestamper(sampleRate: 100)
        _ = timestamper.timestamps(count: 1, readTime: 1_000_000_000)
        // Two reads 1 ms apart, the second with more samples than can fit: still strictly increasing.
        let stamps = timestamper.timestamps(count: 5, readTime: 1_001_000_000)
        #expect(stamps.count == 5)
        #expect(stamps.first! > 1_000_000_000 && stamps.last! <= 1_001_000_000)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
    }
}
