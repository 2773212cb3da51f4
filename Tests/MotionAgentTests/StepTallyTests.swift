import MotionContract
import MotionFusion
import Testing

@testable import MotionAgent

/// The steps service's totals: ranges of the pedometer's ledger taken back to back count every step once,
/// however ticks and the detectors' batches interleave.
@Suite struct StepTallyTests {
    /// A ledger with a step every 0.5 s from 10 s to 19.5 s (20 steps of 0.7 m) and a floor up at 15 s.
    static let ledger: PedometerLedger = {
        var ledger = PedometerLedger()
        for index in 0..<20 { ledger.recordStep(at: 10 + 0.5 * Double(index), length: 0.7) }
        ledger.recordFloor(at: 15, up: true)
        return ledger
    }()

    @Test func theFirstTickStartsTheCountAndLaterTicksAddEachStepOnce() {
        var tally = StepTally()
        tally.advance(to: 12, seenThrough: 12, ledger: Self.ledger.totals)
        #expect(tally.steps == 0 && tally.countedUntil != nil, "steps before the service started are not its own")
        // Ticks at odd spacings, some falling exactly on a step.
        for time in [12.5, 13, 14.2, 15, 15.0, 17.75, 30] { tally.advance(to: time, seenThrough: time, ledger: Self.ledger.totals) }
        // Steps at 12.0 … 19.5: 16 of them (the step at 12.0 is the first tick's own time, counted from there).
        #expect(tally.steps == 16)
        #expect(abs(tally.distance - 16 * 0.7) < 1e-9)
        #expect(tally.floorsAscended == 1 && tally.floorsDescended == 0)
    }

    @Test func aStepTheDetectorsHaveNotSeenYetIsCountedByTheNextTickNotLost() {
        var tally = StepTally()
        tally.advance(to: 9, seenThrough: 9, ledger: Self.ledger.totals)
        // The tick says 14 s but the detectors analysed only up to 12 s: nothing after 12 s is counted yet…
        var partial = PedometerLedger()
        for index in 0..<5 { partial.recordStep(at: 10 + 0.5 * Double(index), length: 0.7) }  // 10 … 12
        tally.advance(to: 14, seenThrough: 12, ledger: partial.totals)
        #expect(tally.steps == 5)
        // …and the next tick, with the steps after 12 s now in the ledger, counts them once.
        tally.advance(to: 20, seenThrough: 20, ledger: Self.ledger.totals)
        #expect(tally.steps == 20)
    }

    @Test func aTimelineThatStartsAgainGoesOnFromItsNewStart() {
        var tally = StepTally()
        tally.advance(to: 10, seenThrough: 10, ledger: Self.ledger.totals)
        tally.advance(to: 20, seenThrough: 20, ledger: Self.ledger.totals)
        #expect(tally.steps == 20)
        // A replay started again at 11 s: no range is counted backwards, the totals stay.
        tally.advance(to: 11, seenThrough: 11, ledger: Self.ledger.totals)
        #expect(tally.steps == 20 && tally.countedUntil == 11)
        // Time standing still, or a tick behind the last one by less than 1 s, adds nothing.
        tally.advance(to: 10.5, seenThrough: 10.5, ledger: Self.ledger.totals)
        tally.advance(to: 11, seenThrough: 11, ledger: Self.ledger.totals)
        #expect(tally.steps == 20)
        tally.advance(to: 12, seenThrough: 12, ledger: Self.ledger.totals)
        #expect(tally.steps == 22, "the steps at 11.0 and 11.5 of the new run")
    }

    @Test func theServicesValuesDownsampleAsTheirMeaningAllows() {
        let early = PedometerSample(timestamp: 1, steps: 10, distance: 7, cadence: 1.8, floorsAscended: 1, floorsDescended: 0)
        let late = PedometerSample(timestamp: 2, steps: 13, distance: 9.1, cadence: 1.7, floorsAscended: 2, floorsDescended: 0)
        #expect(PedometerSample.mean(of: [early, late]) == late, "totals are not averaged")
        #expect(early.distance(to: late) == 4 && late.distance(to: early) == 4, "3 steps and a floor")
        #expect(early.distance(to: PedometerSample(timestamp: 5, steps: 10, distance: 7, cadence: 1.2, floorsAscended: 1, floorsDescended: 0)) == 0)

        let walking = ActivitySample(timestamp: 5, activity: "walking", confidence: "high", since: 3)
        #expect(walking.distance(to: ActivitySample(timestamp: 6, activity: "walking", confidence: "high", since: 3)) == 0)
        #expect(walking.distance(to: ActivitySample(timestamp: 6, activity: "walking", confidence: "medium", since: 3)) == 1)
        #expect(ActivitySample.mean(of: [walking, ActivitySample(timestamp: 6, activity: "running", confidence: "low", since: 5.5)]).activity == "running")

        let low = AltitudeSample(timestamp: 1, relativeAltitude: 1, pressure: 101.3, absoluteAltitude: 2)
        let high = AltitudeSample(timestamp: 3, relativeAltitude: 3, pressure: 101.28, absoluteAltitude: 4)
        let mean = AltitudeSample.mean(of: [low, high])
        #expect(mean.timestamp == 2 && mean.relativeAltitude == 2 && abs(mean.pressure - 101.29) < 1e-12 && mean.absoluteAltitude == 3)
        #expect(low.distance(to: high) == 2)
    }
}
