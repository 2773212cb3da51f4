import MotionContract
import MotionMath
import CoreMotion
import Foundation
import MotionTestSupport
import Testing

@testable import MotionAgent

@Suite struct TopicSamplerTests {
    /// Samples every `period` seconds from `start`, the value given by `value(t)`.
    private func stream(
        from start: Double, count: Int, period: Double, value: (Double) -> SIMD3<Double> = { SIMD3($0, 0, 0) }
    ) -> [VectorSample] {
        (0..<count).map { index in
            let time = start + Double(index) * period
            return VectorSample(timestamp: time, value: value(time))
        }
    }

    private func sampler(_ settings: TopicSamplingSettings) throws -> TopicSampler<VectorSample> {
        try TopicSampler(settings: settings)
    }

    @Test func latestAt1kHzEvery10msPublishesTheSampleAtEachDueTime() throws {
        let samples = stream(from: 1234.5, count: 1000, period: 0.001)
        var topic = try sampler(TopicSamplingSettings(interval: 0.01, mode: .latest))
        let messages = topic.add(samples)
        #expect(messages.count == 100)
        #expect(messages.allSatisfy { $0.count == 1 })
        // Due times are every 10 ms from the first sample: the published samples are exactly those.
        #expect(messages.map { $0[0] } == (0..<100).map { samples[$0 * 10] })
        #expect(topic.flush().isEmpty, "latest mode holds nothing back")
    }

    @Test func latestKeepsTheExactLongRunRate() throws {
        let samples = stream(from: 50, count: 10_000, period: 0.001)  // 10 s at 1 kHz
        var every30ms = try sampler(TopicSamplingSettings(interval: 0.03))
        let times = every30ms.add(samples).map { $0[0].timestamp }
        #expect(times.count == 334)  // due times 0, 0.03, …, 9.99 s
        let rate = Double(times.count - 1) / (times.last! - times.first!)
        #expect(abs(rate - 100.0 / 3) < 1e-6, "\(rate) msg/s")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.03) < 1e-9 })

        // 300 Hz from 1 kHz: not a whole number of samples per interval, yet no drift.
        var at300Hz = try sampler(TopicSamplingSettings(interval: 1.0 / 300))
        let times300 = at300Hz.add(samples).map { $0[0].timestamp }
        #expect(abs(times300.count - 3000) <= 1)
        let gaps = zip(times300, times300.dropFirst()).map { ($1 - $0) * 1000 }
        #expect(gaps.allSatisfy { abs($0 - 3) < 1e-6 || abs($0 - 4) < 1e-6 }, "gaps are whole samples")
        let rate300 = Double(times300.count - 1) / (times300.last! - times300.first!)
        #expect(abs(rate300 - 300) < 0.2, "\(rate300) msg/s")
    }

    @Test func aSensorSlowerThanTheRequestedRatePublishesEachSampleOnce() throws {
        var random = SeededGenerator(seed: 7)
        // 20 Hz with ±5 ms jitter, 100 Hz requested.
        let samples = (0..<200).map { index in
            VectorSample(timestamp: 10 + Double(index) * 0.05 + Double.random(in: -0.005...0.005, using: &random),
                         value: SIMD3(Double(index), 0, 0))
        }
        var latest = try sampler(TopicSamplingSettings(interval: 0.01, mode: .latest))
        #expect(latest.add(samples).flatMap { $0 } == samples)

        var mean = try sampler(TopicSamplingSettings(interval: 0.01, mode: .mean))
        let published = (mean.add(samples) + mean.flush()).flatMap { $0 }
        #expect(published == samples, "a window of one sample has that sample as its mean")
    }

    @Test func aSensorAsFastAsTheRequestedRateWithJitterLosesNoSample() throws {
        var random = SeededGenerator(seed: 11)
        // 50 Hz with ±3 ms jitter, 50 Hz requested (any jitter below a sixth of the period is safe).
        let samples = (0..<500).map { index in
            VectorSample(timestamp: 3 + Double(index) * 0.02 + Double.random(in: -0.003...0.003, using: &random),
                         value: SIMD3(Double(index), 0, 0))
        }
        var latest = try sampler(TopicSamplingSettings(interval: 0.02, mode: .latest))
        #expect(latest.add(samples).flatMap { $0 } == samples)
        var mean = try sampler(TopicSamplingSettings(interval: 0.02, mode: .mean))
        #expect((mean.add(samples) + mean.flush()).flatMap { $0 } == samples)
    }

    @Test func theMeanOfARampIsItsMidpoint() throws {
        let slope = SIMD3(2.0, -0.5, 0.25)
        let samples = stream(from: 700, count: 1000, period: 0.001) { slope * ($0 - 700) + SIMD3(0, 0, 1) }
        var topic = try sampler(TopicSamplingSettings(interval: 0.02, mode: .mean))
        let values = topic.add(samples).map { $0[0] }
        #expect(values.count == 49, "window 49 is still open")
        for (index, value) in values.enumerated() {
            // Window k holds samples 20k…20k+19: its midpoint is sample 20k + 9.5.
            let midpoint = 700 + (Double(index * 20) + 9.5) * 0.001
            #expect(abs(value.timestamp - midpoint) < 1e-9)
            let expected = slope * (midpoint - 700) + SIMD3(0, 0, 1)
            #expect(value.distance(to: VectorSample(timestamp: midpoint, value: expected)) < 1e-9)
        }
    }

    @Test func theMeanRemovesA50HzSineThatLatestAliasesToAConstant() throws {
        let phase = 0.7
        let samples = stream(from: 20, count: 2000, period: 0.001) { time in
            SIMD3(sin(2 * .pi * 50 * (time - 20) + phase), 0, 0)
        }
        var mean = try sampler(TopicSamplingSettings(interval: 0.02, mode: .mean))
        let averaged = mean.add(samples).map { $0[0].value.x }
        #expect(averaged.count == 99)
        #expect(averaged.allSatisfy { abs($0) < 1e-12 }, "a whole period averages to 0")

        var latest = try sampler(TopicSamplingSettings(interval: 0.02, mode: .latest))
        let aliased = latest.add(samples).map { $0[0].value.x }
        #expect(aliased.count == 100)
        #expect(aliased.allSatisfy { abs($0 - sin(phase)) < 1e-9 }, "sampled once per period: a constant \(sin(phase))")
    }

    @Test func anOutageDoesNotBurst() throws {
        let before = stream(from: 100, count: 1000, period: 0.001)
        let after = stream(from: 106, count: 1000, period: 0.001)  // 5 s without samples
        for mode in SamplingMode.allCases {
            var topic = try sampler(TopicSamplingSettings(interval: 0.01, mode: mode))
            let first = topic.add(before)
            let atResumption = topic.add([after[0]])
            #expect(atResumption.count == 1, "\(mode): one message when the samples resume")
            let rest = topic.add(Array(after.dropFirst()))
            let times = (first + atResumption + rest).map { $0[0].timestamp }
            #expect(times.count == (mode == .latest ? 200 : 199), "\(mode)")
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 > 0.0099 }, "\(mode): no duplicates")
        }
    }

    @Test func timeGoingBackRestartsTheGrid() throws {
        var topic = try sampler(TopicSamplingSettings(interval: 0.01))
        let late = topic.add(stream(from: 1000, count: 500, period: 0.001))
        let restarted = topic.add(stream(from: 2, count: 500, period: 0.001))
        #expect(late.count == 50)
        #expect(restarted.count == 50)
        #expect(restarted.first?.first?.timestamp == 2)
    }

    @Test func batchingGroupsValuesAndFlushSendsTheRest() throws {
        var topic = try sampler(TopicSamplingSettings(interval: 0.01, batchSize: 5))
        let samples = stream(from: 0, count: 1060, period: 0.001)
        let messages = topic.add(samples)
        #expect(messages.count == 21)
        #expect(messages.allSatisfy { $0.count == 5 })
        #expect(messages.flatMap { $0 } == (0..<105).map { samples[$0 * 10] })
        let rest = topic.flush()
        #expect(rest.map(\.count) == [1])
        #expect(rest.first?.first == samples[1050])
    }

    @Test func meanFlushPublishesTheOpenWindow() throws {
        var topic = try sampler(TopicSamplingSettings(interval: 0.01, mode: .mean))
        #expect(topic.add(stream(from: 0, count: 15, period: 0.001)).count == 1)
        let rest = try #require(topic.flush().first?.first)
        #expect(abs(rest.timestamp - 0.012) < 1e-12, "mean of samples 10…14 ms")
        #expect(topic.add(stream(from: 0, count: 1, period: 0.001)).isEmpty, "flush resets: a new first window")
    }

    @Test func deadbandSuppressesSmallChangesAndHeartbeatForcesMessages() throws {
        var random = SeededGenerator(seed: 3)
        // 100 Hz for 5 s: noise of ±0.01 around 0, a step to 1 at 2.5 s.
        let samples = (0..<500).map { index in
            let time = Double(index) * 0.01
            let noise = SIMD3((0..<3).map { _ in Double.random(in: -0.005...0.005, using: &random) })
            return VectorSample(timestamp: time, value: (index >= 250 ? SIMD3(1, 0, 0) : .zero) + noise)
        }
        var quiet = try sampler(TopicSamplingSettings(interval: 0.1, deadband: 0.05))
        let quietTimes = quiet.add(samples).map { $0[0].timestamp }
        #expect(quietTimes.count == 2)
        #expect(abs(quietTimes[0]) < 1e-9 && abs(quietTimes[1] - 2.5) < 1e-9, "\(quietTimes)")

        var beating = try sampler(TopicSamplingSettings(interval: 0.1, deadband: 0.05, heartbeat: 1))
        let beatingTimes = beating.add(samples).map { $0[0].timestamp }
        let expected = [0, 1, 2, 2.5, 3.5, 4.5]
        #expect(beatingTimes.count == expected.count, "\(beatingTimes)")
        #expect(zip(beatingTimes, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(beatingTimes)")

        var everything = try sampler(TopicSamplingSettings(interval: 0.1))
        #expect(everything.add(samples).count == 50)
    }

    @Test func deviceMotionDeadbandIsTheAttitudeAngle() throws {
        // Turning at 0.1 rad/s about z for 10 s, sampled at 100 Hz (0.001 rad per sample), deadband 0.0505 rad.
        let samples = (0..<1000).map { index in
            let time = Double(index) * 0.01
            let half = 0.1 * time / 2
            return DeviceMotionSample(
                timestamp: time, attitude: Quaternion(w: cos(half), x: 0, y: 0, z: sin(half)),
                rotationRate: SIMD3(0, 0, 0.1), gravity: SIMD3(0, 0, -1), userAcceleration: .zero,
                magneticField: SIMD3(20, 0, -40), magneticAccuracy: .high, heading: 0)
        }
        var topic = try TopicSampler<DeviceMotionSample>(settings: TopicSamplingSettings(interval: 0.01, deadband: 0.0505))
        let times = topic.add(samples).map { $0[0].timestamp }
        // A change of more than 0.0505 rad takes 51 samples (0.051 rad).
        #expect(times.count == 20, "\(times)")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.51) < 1e-9 })
    }

    @Test func invalidSettingsAreRefusedNamingTheField() {
        func fieldPath(_ settings: TopicSamplingSettings) -> String? {
            do {
                try settings.validate(fieldPrefix: "services.gyro.")
                return nil
            } catch {
                return error.fieldPath
            }
        }
        #expect(fieldPath(TopicSamplingSettings(interval: 0.02, mode: .mean, batchSize: 10, deadband: 0.1, heartbeat: 5)) == nil)
        #expect(fieldPath(TopicSamplingSettings(interval: 0)) == "services.gyro.interval")
        #expect(fieldPath(TopicSamplingSettings(interval: .nan)) == "services.gyro.interval")
        #expect(fieldPath(TopicSamplingSettings(interval: -1)) == "services.gyro.interval")
        #expect(fieldPath(TopicSamplingSettings(interval: 0.1, batchSize: 0)) == "services.gyro.batch")
        #expect(fieldPath(TopicSamplingSettings(interval: 0.1, batchSize: 1001)) == "services.gyro.batch")
        #expect(fieldPath(TopicSamplingSettings(interval: 0.1, deadband: -0.1)) == "services.gyro.deadband")
        #expect(fieldPath(TopicSamplingSettings(interval: 0.1, deadband: .infinity)) == "services.gyro.deadband")
        #expect(fieldPath(TopicSamplingSettings(interval: 0.1, deadband: 1, heartbeat: 0)) == "services.gyro.heartbeat")
        #expect(fieldPath(TopicSamplingSettings(interval: 0.1, heartbeat: 1)) == "services.gyro.heartbeat")

        #expect(throws: ConfigurationError(fieldPath: "interval", reason: "must be a number of seconds greater than 0")) {
            try TopicSampler<VectorSample>(settings: TopicSamplingSettings(interval: 0))
        }
        #expect(throws: ConfigurationError(fieldPath: "mode", reason: "must be latest or mean, not \"median\"")) {
            try SamplingMode.named("median")
        }
        #expect((try? SamplingMode.named("mean")) == .mean)
    }
}
