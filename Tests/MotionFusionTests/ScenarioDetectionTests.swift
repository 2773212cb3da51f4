import MotionFusion
import MotionHAL
import MotionMath
import Testing

/// The whole on-board chain against the simulator's scenarios of known truth: noisy 9-axis samples, the
/// attitude filter's gravity and user acceleration, and every detector of a default ``MotionDetectorBank``.
@Suite(.serialized) struct ScenarioDetectionTests {
    struct Run {
        var events: [MotionEvent] = []
        var states: [(time: Double, state: MotionState)] = []
        var bank = MotionDetectorBank()

        func events(_ kind: MotionEvent.Kind) -> [MotionEvent] { events.filter { $0.kind == kind } }
        func changes(_ kind: MotionState.Kind) -> [(time: Double, state: MotionState)] { states.filter { $0.state.kind == kind } }
    }

    static func run(_ motion: SimulatedMotion, seconds: Double, rate: Double = 200, seed: UInt64 = 1) -> Run {
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: motion, seed: seed))
        var filter = AttitudeFilter()
        var run = Run()
        let standardGravity = 9.80665
        for index in 0..<Int(seconds * rate) {
            let sample = device.sample(index: index, sampleRate: rate)
            filter.update(
                gyroscope: sample.rotationRate!, accelerometer: sample.acceleration, magnetometer: sample.magneticField,
                deltaTime: index == 0 ? 0 : 1 / rate)
            let time = Double(sample.timestamp) / 1e9
            let output = run.bank.update(MotionDetectorBank.Sample(
                // CoreMotion's sign: the accelerometer's reading (the negated specific force) minus gravity.
                timestamp: time, userAcceleration: -filter.userAcceleration / standardGravity, gravity: filter.gravity / standardGravity,
                rotationRate: filter.rotationRate))
            run.events += output.events
            run.states += output.states.map { (time, $0) }
        }
        return run
    }

    @Test(arguments: [100.0, 200.0])
    func aDropFromOneMetreIsOneFreeFallOfAboutHalfASecondAndOneImpact(rate: Double) throws {
        let run = Self.run(.drop(SimulatedDrop()), seconds: 30, rate: rate)
        #expect(run.events.map(\.kind) == [.freeFall, .impact, .freeFall, .impact, .freeFall, .impact], "\(run.events)")
        for fall in run.events(.freeFall) {
            #expect(abs(fall.duration - 0.4515) <= 1.5 / rate, "fall of \(fall.duration) s")
            #expect(abs(fall.magnitude - 1) < 0.05, "implied height \(fall.magnitude) m")
        }
        for blow in run.events(.impact) { #expect(blow.magnitude > 10, "impact of \(blow.magnitude) g") }
        // A landing is a blow, not a running machine (an exponential average once held its energy above
        // the threshold for the 2 s confirmation).
        let running = run.changes(.vibration).filter { if case .vibrating(true, _) = $0.state { true } else { false } }
        #expect(running.isEmpty, "\(running)")
    }

    @Test(arguments: [100.0, 200.0])
    func tapsAreFoundAsOneSingleAndOneDoubleTapAPeriodAndNothingElse(rate: Double) {
        let run = Self.run(.taps(SimulatedTaps()), seconds: 12, rate: rate)
        #expect(run.events.map(\.kind) == [.tap, .doubleTap, .tap, .doubleTap], "\(run.events)")
        for (event, time) in zip(run.events, [1.5, 4.0, 7.5, 10.0]) { #expect(abs(event.timestamp - time) < 0.02, "\(event)") }
    }

    @Test func eachShakingBurstIsOneShakeAndNoTapOrFall() {
        let run = Self.run(.shake(SimulatedShake()), seconds: 12)
        #expect(run.events.map(\.kind) == [.shake, .shake], "\(run.events)")
        #expect(run.events.allSatisfy { $0.magnitude > 1.5 })
    }

    @Test func aTiltOf60DegreesTurnsTheTiltAndThePortraitOrientationOnAndOff() throws {
        let run = Self.run(.tilt(SimulatedTilt()), seconds: 24)
        let tilts = run.changes(.tilt).compactMap { change -> (time: Double, on: Bool)? in
            if case .tilted(let on, _) = change.state { (change.time, on) } else { nil }
        }
        #expect(tilts.map(\.on) == [true, false, true, false], "\(run.changes(.tilt))")
        // 30° is reached halfway up the 1 s ramp (2.5 s), and 25° on the way back after 7.5 s.
        for (change, time) in zip(tilts, [2.5, 7.55, 14.5, 19.55]) { #expect(abs(change.time - time) < 0.1, "\(change)") }
        let orientations = run.changes(.orientation).map(\.state)
        #expect(orientations == [.orientation(.faceUp), .orientation(.portrait), .orientation(.faceUp), .orientation(.portrait), .orientation(.faceUp)])
        #expect(run.events.isEmpty)
    }

    @Test(arguments: [("walk", SimulatedGait.walking), ("run", SimulatedGait.running), ("stairs", SimulatedGait.stairs())])
    func aGaitOfKnownStepsIsCountedWithin2PercentAndClassified(name: String, gait: SimulatedGait) throws {
        let run = Self.run(.gait(gait), seconds: gait.cycleDuration + gait.pause)
        let truth = gait.steps(at: gait.cycleDuration)
        let counted = try #require(run.bank.steps).steps
        #expect(abs(counted - truth) <= Int((0.02 * Double(truth)).rounded(.down)), "\(name): \(counted) steps of \(truth)")
        let activities = run.changes(.activity).compactMap { if case .activity(let estimate) = $0.state { estimate.activity } else { nil } }
        let moving: MotionActivityEstimate.Activity = gait.cadence >= 2.4 ? .running : .walking
        // Each bout is one stretch of the gait's activity; the pauses (and the one after the cycle) are stationary.
        var stretches: [MotionActivityEstimate.Activity] = []
        for activity in activities where stretches.last != activity { stretches.append(activity) }
        #expect(stretches == [.stationary, moving, .stationary, moving, .stationary], "\(name): \(stretches)")
        #expect(run.events.isEmpty, "\(name): \(run.events)")
    }

    @Test func aVibratingMachineRunsAndStopsWithNoShakeOrTap() {
        let run = Self.run(.vibration(SimulatedVibration()), seconds: 50)
        let changes = run.changes(.vibration)
        let running = changes.compactMap { if case .vibrating(let on, _) = $0.state { (time: $0.time, on: on) } else { nil } }
        #expect(running.map(\.on) == [true, false, true, false], "\(changes)")
        // On 2 s (the confirmation) after the start at 2 s; off 5 s after the RMS over the last second fell
        // below half the threshold, 0.7 s after the stop at 12 s.
        for (change, time) in zip(running, [4.3, 17.7, 29.3, 42.7]) { #expect(abs(change.time - time) < 0.5, "\(change)") }
        if case .vibrating(_, let level) = changes.first?.state { #expect(abs(level - 0.5 / 2.squareRoot()) < 0.05, "RMS \(level) g") }
        #expect(run.events.isEmpty, "\(run.events)")
    }

    @Test func aClimbOfTwoFloorsReadsSixMetresAndTwoFloorsUpAndDown() throws {
        let spec = try BarometerSpecification(parsing: "sim:motion=stairs")
        guard case .simulated(let configuration) = spec else { throw BarometerSpecificationError("not the simulator") }
        let barometer = SimulatedBarometer(configuration: configuration)
        let gait = SimulatedGait.stairs()
        var estimator = RelativeAltitudeEstimator()
        var floors = FloorCounter()
        var changes: [Int] = []
        var top = 0.0
        let rate = configuration.sampleRate
        // One cycle and 3 s of the next one's pause at the bottom.
        for index in 0..<Int((gait.cycleDuration + 3) * rate) {
            let reading = barometer.reading(index: index, sampleRate: rate)
            let altitude = estimator.update(pressure: reading.pressure, timestamp: Double(reading.timestamp) / 1e9) ?? .nan
            let change = floors.update(altitude: altitude)
            if change != 0 { changes.append(change) }
            // At the top: the pause after the climb, once the smoothing has settled.
            if Double(index) / rate > gait.pause + gait.boutDuration + 2, Double(index) / rate < 2 * gait.pause + gait.boutDuration {
                top = max(top, altitude)
            }
        }
        #expect(abs(top - 6) < 0.5, "top \(top) m")
        #expect(abs(estimator.relativeAltitude) < 0.5, "back down: \(estimator.relativeAltitude) m")
        #expect(changes == [1, 1, -1, -1], "\(changes)")
    }
}
