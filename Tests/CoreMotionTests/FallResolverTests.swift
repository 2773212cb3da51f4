@testable import CoreMotion
import MotionFusion
import Testing

/// How a board resolves a fall without an alert: by whether the wearer gets up within the response window.
@Suite struct FallResolverTests {
    static func fall(at impact: Double) -> FallCandidate {
        FallCandidate(
            fallStart: impact - 0.8, fallDuration: 0.7, freeFallDuration: 0, impactTime: impact, peakForce: 4.8,
            peakRotationRate: 3, orientationChange: 1.4, activity: 0.01, microMotion: 0.01, microRotation: 0.02, decisionTime: impact + 4)
    }

    @Test func gettingUpInTimeIsDismissedLyingOnIsUnresponsive() {
        var resolver = FallResolver(responseWindow: 60, recoveryHold: 3)
        let first = Self.fall(at: 10)
        #expect(resolver.note(.fall(first), at: 14) == nil)
        #expect(resolver.note(nil, at: 40) == nil)
        #expect(resolver.note(.recovered(fall: first, since: 42, timestamp: 45), at: 45) == .init(impactTime: 10, resolution: .dismissed))
        #expect(resolver.pending == nil)

        // Up at 69 s, 59 s after the impact: reported at 72 s, after the window, and still in time.
        let late = Self.fall(at: 10)
        _ = resolver.note(.fall(late), at: 14)
        #expect(resolver.note(nil, at: 72) == nil, "a recovery from within the window may still come")
        #expect(resolver.note(.recovered(fall: late, since: 69, timestamp: 72), at: 72) == .init(impactTime: 10, resolution: .dismissed))

        let second = Self.fall(at: 100)
        _ = resolver.note(.fall(second), at: 104)
        #expect(resolver.note(nil, at: 163) == nil, "the window is 60 s from the impact, and the recovery reported 3 s after")
        #expect(resolver.note(nil, at: 163.01) == .init(impactTime: 100, resolution: .unresponsive))
        #expect(resolver.note(.recovered(fall: second, since: 170, timestamp: 173), at: 173) == nil, "resolved already")
    }

    @Test func aSecondFallBeforeTheFirstIsResolvedLeavesTheFirstUnresponsive() {
        var resolver = FallResolver(responseWindow: 60, recoveryHold: 3)
        _ = resolver.note(.fall(Self.fall(at: 10)), at: 14)
        #expect(resolver.note(.fall(Self.fall(at: 30)), at: 34) == .init(impactTime: 10, resolution: .unresponsive))
        #expect(resolver.pending?.impactTime == 30)
        #expect(resolver.note(.rejected(Self.fall(at: 50), .upright), at: 54) == nil, "a rejected candidate changes nothing")
    }
}
