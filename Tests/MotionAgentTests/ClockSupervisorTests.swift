import MotionContract
import MotionHAL
import MotionModel
import Synchronization
import Testing

@testable import MotionAgent

/// The agent's watch on the wall clock, on fake clocks: the anchor every `ts` comes from follows a clock
/// that is set, sample payloads say `tsUncertain` while the kernel calls the clock unsynchronized, and
/// `health.clock` reports both.
@Suite struct ClockSupervisorTests {
    /// Clocks a test sets.
    final class FakeClocks: Sendable {
        let monotonic = Mutex<UInt64>(50_000_000_000)
        let unix = Mutex<Double>(1_800_000_050)
        let status = Mutex<KernelClockStatus?>(KernelClockStatus(synchronized: true, estimatedError: 0.000_2, maximumError: 0.015))

        func pass(_ seconds: Double, unixJump: Double = 0) {
            monotonic.withLock { $0 += UInt64(seconds * 1e9) }
            unix.withLock { $0 += seconds + unixJump }
        }

        func supervisor() -> ClockSupervisor {
            ClockSupervisor(
                monotonicNanoseconds: { self.monotonic.withLock { $0 } }, unixTime: { self.unix.withLock { $0 } },
                kernelStatus: { self.status.withLock { $0 } }, source: { .chrony })
        }
    }

    @Test func theAnchorFollowsAClockThatIsSetAndHealthCountsTheStep() {
        let clocks = FakeClocks()
        let supervisor = clocks.supervisor()
        #expect(supervisor.anchor.offset == 1_800_000_000)
        clocks.pass(1)
        supervisor.check()
        #expect(supervisor.health() == HealthPayload.Clock(
            synchronized: true, estimatedError: 0.000_2, maximumError: 0.015, source: "chrony", steps: 0))
        // Set back by an hour: later Unix times follow, sample times do not move.
        clocks.pass(1, unixJump: -3600)
        supervisor.check()
        #expect(supervisor.anchor.offset == 1_800_000_000 - 3600)
        let health = supervisor.health()
        #expect(health.steps == 1 && health.lastStep == -3600)
        let encoder = SamplePayloadEncoder(wallClock: supervisor.anchor)
        let payload = String(decoding: encoder.encode([VectorSample(timestamp: 52, value: .zero)], service: .gyro, seq: 1), as: UTF8.self)
        #expect(payload.contains(#""timestamp":52.0,"ts":1799996452.0"#), "\(payload)")
    }

    @Test func samplesSayTheirUnixTimeIsUncertainWhileTheClockIsUnsynchronized() throws {
        let clocks = FakeClocks()
        clocks.status.withLock { $0 = KernelClockStatus(synchronized: false, estimatedError: 16, maximumError: 16) }
        let supervisor = clocks.supervisor()
        #expect(!supervisor.anchor.isSynchronized)
        let encoder = SamplePayloadEncoder(wallClock: supervisor.anchor)
        let sample = VectorSample(timestamp: 50, value: SIMD3(0, 0, -1))
        let json = String(decoding: encoder.encode([sample], service: .accelerometer, seq: 3), as: UTF8.self)
        #expect(json.hasPrefix(#"{"seq":3,"tsUncertain":true,"timestamp":50.0,"#), "\(json)")
        let batch = String(decoding: encoder.encode([sample, sample], service: .accelerometer, seq: 4), as: UTF8.self)
        #expect(batch.hasPrefix(#"{"seq":4,"tsUncertain":true,"samples":["#), "\(batch)")
        // CBOR says the same: the key, then true (0xF5).
        let cbor = encoder.encode([sample], service: .accelerometer, seq: 3, format: .cbor)
        let key = Array("tsUncertain".utf8)
        let found = try #require((0...(cbor.count - key.count)).first { Array(cbor[$0..<$0 + key.count]) == key })
        #expect(cbor[found + key.count] == 0xF5)
        // Synchronized again: no mark.
        clocks.status.withLock { $0 = KernelClockStatus(synchronized: true, estimatedError: 0.001, maximumError: 0.02) }
        clocks.pass(1)
        supervisor.check()
        let after = String(decoding: encoder.encode([sample], service: .accelerometer, seq: 5), as: UTF8.self)
        #expect(!after.contains("tsUncertain"))
        #expect(try SamplePayloadDecoder.vectors(Array(json.utf8), service: .accelerometer).samples.count == 1)
    }

    @Test func withoutAKernelAnswerTheClockCountsAsSynchronized() {
        let clocks = FakeClocks()
        clocks.status.withLock { $0 = nil }
        let supervisor = clocks.supervisor()
        #expect(supervisor.anchor.isSynchronized)
        #expect(supervisor.health() == HealthPayload.Clock(synchronized: true, source: "chrony"))
    }
}
