import MotionFusion
import MotionMath
import Testing

/// The pedometer's and the altimeter's pure cores: the history of steps and floors, step lengths, floors
/// from altitude, relative altitude from pressure, and the activity from motion and cadence.
@Suite struct PedometerCoreTests {
    @Test func theLedgerTotalsAnyRangeAndCountsOnlyStepsAsActiveTime() {
        var ledger = PedometerLedger()
        // 10 steps at 2 a second from t = 100 s, a 30 s pause, 10 more.
        for index in 0..<10 { ledger.recordStep(at: 100 + Double(index) * 0.5, length: 0.7) }
        for index in 0..<10 { ledger.recordStep(at: 134.5 + Double(index) * 0.5, length: 0.8) }
        ledger.recordFloor(at: 120, up: true)
        ledger.recordFloor(at: 140, up: false)
        let all = ledger.totals(from: 0, to: 1000)
        #expect(all.steps == 20 && abs(all.distance - 15) < 1e-9 && all.floorsAscended == 1 && all.floorsDescended == 1)
        // The pause is not active time: 9 + 9 intervals of 0.5 s.
        #expect(abs(all.activeTime - 9) < 1e-9 && abs((all.averageActivePace ?? 0) - 9 / 15.0) < 1e-9)
        let first = ledger.totals(from: 100, to: 104.6)
        #expect(ledger.totals(from: 100, to: 104.5).steps == 9, "half-open: the step at 104.5 s is the next range's")
        #expect(first.steps == 10 && first.floorsAscended == 0)
        #expect(ledger.totals(from: 104.6, to: 134.4).steps == 0)
        #expect(ledger.oldestTime == 100)
    }

    @Test func theLedgerForgetsWhatIsOlderThanItsRetentionAndKeepsStepsInOrder() {
        var ledger = PedometerLedger(retention: 60, capacity: 5)
        for time in [0.0, 10, 20] { ledger.recordStep(at: time, length: 1) }
        ledger.recordStep(at: 15, length: 1)  // a replaced device's older stamp
        #expect(ledger.totals(from: 12, to: 18).steps == 1)
        ledger.recordStep(at: 75, length: 1)
        #expect(ledger.oldestTime == 15 && ledger.totals(from: 0, to: 100).steps == 3)
        for time in stride(from: 76.0, to: 86, by: 1) { ledger.recordStep(at: time, length: 1) }
        #expect(ledger.totals(from: 0, to: 100).steps == 5, "capacity")
    }

    @Test func stepLengthGrowsWithCadenceWithinBounds() {
        #expect(abs(StrideLength.estimate(cadence: 1.8) - 0.7) < 1e-9)
        #expect(abs(StrideLength.estimate(cadence: 2.8) - 1.2) < 1e-9)
        #expect(StrideLength.estimate(cadence: 0.2) == 0.3 && StrideLength.estimate(cadence: 9) == 2)
        #expect(StrideLength.estimate(cadence: nil) == StrideLength.estimate(cadence: 1.8))
    }

    @Test func floorsAreCountedOncePerThreeMetresWithHysteresis() {
        // Two floors, read 10 cm short, are two floors.
        var short = FloorCounter()
        let shortChanges = [0.0, 2.8, 5.9].map { short.update(altitude: $0) }
        #expect(shortChanges == [0, 1, 1])
        var counter = FloorCounter()
        var floors: [Int] = []
        // Up 7 m in 10 cm steps with ±20 cm of wobble, down 1 m and up 1 m, then down 7 m.
        let up: [Double] = (0...70).map { Double($0) * 0.1 }
        let wobble: [Double] = [6.5, 6.0, 6.5, 7.0]
        let profile = up + wobble + up.reversed()
        for (index, altitude) in profile.enumerated() {
            let change = counter.update(altitude: altitude + (index % 2 == 0 ? 0.2 : -0.2))
            if change != 0 { floors.append(change) }
        }
        #expect(floors == [1, 1, -1, -1], "\(floors)")
        let notANumber = counter.update(altitude: .nan)
        #expect(notANumber == 0)
    }

    @Test func relativeAltitudeFollowsThePressureOfTheStandardAtmosphere() {
        var estimator = RelativeAltitudeEstimator()
        let reference = 100_000.0
        let first = estimator.update(pressure: reference, timestamp: 0)
        #expect(first == 0)
        // A steady climb of 6 m over 10 s, read at 25 Hz, then held for 5 s.
        var last = 0.0
        for index in 1...375 {
            let time = Double(index) / 25
            let altitude = min(time, 10) * 0.6
            let pressure = BarometricFormula.pressure(altitude: altitude, referencePressure: reference)
            last = estimator.update(pressure: pressure, timestamp: time) ?? .nan
        }
        #expect(abs(last - 6) < 0.01, "\(last) m")
        let negative = estimator.update(pressure: -1, timestamp: 16)
        let infinite = estimator.update(pressure: .infinity, timestamp: 16)
        #expect(negative == nil && infinite == nil)
        // About 12 Pa a metre near sea level.
        #expect(abs((reference - estimator.pressure) / 6 - 11.8) < 0.3)
    }

    @Test func theActivityKeepsTheGaitThroughShortStopsAndTellsWalkingFromRunning() {
        var classifier = MotionActivityClassifier()
        var changes: [MotionActivityEstimate.Activity] = []
        func feed(_ moving: Bool, _ cadence: Double?, _ lastStep: Double, at time: Double) {
            if let estimate = classifier.update(isMoving: moving, cadence: cadence, lastStep: lastStep, timestamp: time),
                changes.last != estimate.activity
            {
                changes.append(estimate.activity)
            }
        }
        feed(false, nil, -.infinity, at: 0)
        feed(true, nil, 1, at: 1)  // a first step: no cadence yet, nothing changes
        feed(true, 1.8, 1.5, at: 1.5)
        feed(true, 1.8, 1.5, at: 4)  // 2.5 s without a step but still moving: still walking
        feed(true, 1.8, 1.5, at: 7)  // 5.5 s: unknown
        feed(true, 2.9, 8, at: 8)
        feed(false, 2.9, 8, at: 11)
        #expect(changes == [.stationary, .walking, .unknown, .running, .stationary], "\(changes)")
        let estimate = classifier.update(isMoving: false, cadence: nil, lastStep: 8, timestamp: 27)
        #expect(estimate?.confidence == .high && estimate?.since == 11)
    }
}
