#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionHAL
import MotionMath
import Testing

/// The truth of the fall-detection scenarios, read from their noise-free trajectories: a person's fall
/// dips to about 0.5 g for half a second and lands at 3–6 g, then lies 80° from upright; sitting down hard
/// jolts at 1.5–2.5 g and stays upright; a phone dropped on a table falls freely, turns 90° and lies flat.
@Suite struct SimulatedFallScenarioTests {
    static let rate = 1000.0

    /// Time (s), specific force (g) and the trunk's angle from upright (rad) of `motion`'s noise-free
    /// trajectory over `seconds`, at 1 kHz.
    static func trace(_ motion: SimulatedMotion, seconds: Double) -> [(time: Double, force: Double, tilt: Double)] {
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: motion).withoutSensorErrors)
        return (0..<Int(seconds * rate)).map { index in
            let time = Double(index) / rate
            let truth = device.groundTruth(at: time)
            let up = truth.attitude.rotate(SIMD3(0, 0, 1))
            return (time, truth.specificForce.length / 9.81, acos(min(max(up.z, -1), 1)))
        }
    }

    @Test func aPersonFallsForHalfASecondLandsAt5GAndLies80DegreesFromUpright() throws {
        let fall = SimulatedFall()
        let trace = Self.trace(.fall(fall), seconds: fall.cycleDuration)
        let dip = trace.filter { $0.force < 0.6 }
        #expect(Double(dip.count) / Self.rate > 0.4 && Double(dip.count) / Self.rate < 0.8, "\(dip.count) ms below 0.6 g")
        let lowest = try #require(trace.min { $0.force < $1.force })
        #expect(lowest.force > 0.45 && lowest.force < 0.6, "the body never falls freely: \(lowest)")
        let peak = try #require(trace.max { $0.force < $1.force })
        #expect(abs(peak.time - fall.impactTime(ofCycle: 0)) < 0.002 && peak.force > 3 && peak.force < 6, "\(peak)")
        #expect(abs(peak.force - (fall.peakDeceleration + 9.81) / 9.81) < 0.05, "the blow is vertical, on top of gravity")
        // Lying: the trunk 80° from upright, breathing by ±0.5°; upright again after getting up.
        let lying = trace.filter { $0.time > peak.time + 2 && $0.time < peak.time + 10 }
        #expect(lying.allSatisfy { abs($0.tilt - fall.lyingAngle) < 0.6 * .pi / 180 })
        #expect(lying.contains { abs($0.tilt - fall.lyingAngle) > 0.4 * .pi / 180 }, "breathing moves the trunk")
        let standing = trace.filter { $0.time > fall.uprightTime(ofCycle: 0) }
        #expect(!standing.isEmpty && standing.allSatisfy { $0.tilt < 0.6 * .pi / 180 && abs($0.force - 1) < 0.01 })
    }

    @Test func sittingDownHardJoltsAt2GAndStaysUpright() throws {
        let sit = SimulatedSitDown()
        let trace = Self.trace(.sitDown(sit), seconds: sit.cycleDuration)
        let peak = try #require(trace.max { $0.force < $1.force })
        #expect(abs(peak.time - sit.joltTime(ofCycle: 0)) < 0.002 && peak.force > 1.5 && peak.force < 2.5, "\(peak)")
        #expect((trace.min { $0.force < $1.force }?.force ?? 0) > 0.5)
        // Seated the trunk leans back by 10° (± the sway); it never tilts beyond the 25° lean.
        let seated = trace.filter { $0.time > peak.time + 2 && $0.time < peak.time + 8 }
        #expect(seated.allSatisfy { abs($0.tilt - 10 * .pi / 180) < 0.6 * .pi / 180 })
        #expect(trace.allSatisfy { $0.tilt < 26 * .pi / 180 })
    }

    @Test func aPhoneDroppedOnATableFallsFreelyTurnsAndLiesFlat() throws {
        let drop = SimulatedDrop.ontoTable
        let trace = Self.trace(.drop(drop), seconds: 10)
        let falling = trace.filter { $0.force < 0.01 }
        #expect(abs(Double(falling.count) / Self.rate - drop.fallDuration(gravity: 9.81)) < 0.002, "\(falling.count) ms")
        #expect(abs(drop.fallDuration(gravity: 9.81) - 0.2856) < 1e-4)
        // Held upright before the release, flat after the landing; a blow of about 23 g.
        let held = try #require(trace.first { $0.time >= drop.releaseTime - 0.001 })
        #expect(abs(held.tilt - .pi / 2) < 1e-6)
        #expect(trace.filter { $0.time > 7 }.allSatisfy { $0.tilt < 1e-9 && abs($0.force - 1) < 1e-9 })
        let peak = try #require(trace.max { $0.force < $1.force })
        #expect(abs(peak.force - (drop.peakDeceleration(gravity: 9.81) + 9.81) / 9.81) < 0.1 && peak.force > 20, "\(peak)")
    }
}
