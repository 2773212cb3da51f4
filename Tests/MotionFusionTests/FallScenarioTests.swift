import MotionFusion
import MotionHAL
import MotionModel
import Testing

/// ``FallDetector`` against the simulator's scenarios of known truth, through the real ``SimulatedIMU``
/// (its noise and gyroscope bias): a person falling is one fall a cycle at the impact and recovers after
/// getting up; a phone dropped on a table, sitting down hard, walking, running, stairs, shaking, taps and
/// the 1 m drop are none, at 25–200 Hz and over several noise seeds.
@Suite(.serialized) struct FallScenarioTests {
    static let standardGravity = 9.80665

    /// The detector's events over `seconds` of `motion`, fed the raw accelerometer (in g) and gyroscope.
    static func events(
        _ motion: SimulatedMotion, seconds: Double, rate: Double, seed: UInt64 = 1, settings: FallSettings = FallSettings(),
        skipping skipped: (Double) -> Bool = { _ in false }
    ) -> (events: [FallDetector.Event], detector: FallDetector) {
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: motion, seed: seed))
        var detector = FallDetector(settings: settings)
        var events: [FallDetector.Event] = []
        for index in 0..<Int(seconds * rate) {
            let sample = device.sample(index: index, sampleRate: rate)
            let time = Double(sample.timestamp) / 1e9
            guard !skipped(time), let acceleration = sample.acceleration, let rotationRate = sample.rotationRate else { continue }
            if let event = detector.update(specificForce: acceleration / standardGravity, rotationRate: rotationRate, timestamp: time) {
                events.append(event)
            }
        }
        return (events, detector)
    }

    static func falls(_ events: [FallDetector.Event]) -> [FallCandidate] {
        events.compactMap { if case .fall(let fall) = $0 { fall } else { nil } }
    }

    static func rejections(_ events: [FallDetector.Event]) -> [FallDetector.Rejection] {
        events.compactMap { if case .rejected(_, let why) = $0 { why } else { nil } }
    }

    static func recoveries(_ events: [FallDetector.Event]) -> [(since: Double, timestamp: Double)] {
        events.compactMap { if case .recovered(_, let since, let timestamp) = $0 { (since, timestamp) } else { nil } }
    }

    @Test func withoutAPostureTestEveryFallIsStillFoundThoughNoneIsRecoveredFrom() {
        // orientation_change 0 (a wrist): the wearer can never be told upright again, and must not stop
        // the next falls from being found.
        var settings = FallSettings()
        settings.orientationChange = 0
        let scenario = SimulatedFall()
        let (events, _) = Self.events(.fall(scenario), seconds: 3 * scenario.cycleDuration, rate: 100, settings: settings)
        #expect(Self.falls(events).count == 3, "\(events)")
        #expect(Self.recoveries(events).isEmpty)
    }

    @Test(arguments: [25.0, 50, 100, 200])
    func aPersonFallingIsOneFallACycleAtTheImpactAndRecoversAfterGettingUp(rate: Double) {
        let scenario = SimulatedFall()
        for seed: UInt64 in [1, 2, 3] {
            let (events, detector) = Self.events(.fall(scenario), seconds: 3 * scenario.cycleDuration, rate: rate, seed: seed)
            let falls = Self.falls(events)
            #expect(falls.count == 3, "\(rate) Hz seed \(seed): \(events)")
            for (cycle, fall) in falls.enumerated() {
                #expect(abs(fall.impactTime - scenario.impactTime(ofCycle: cycle)) <= 0.5, "\(fall)")
                #expect(abs(fall.orientationChange - scenario.lyingAngle) < 5 * Double.pi / 180, "\(fall)")
                #expect(fall.peakForce > 3.5 && fall.peakForce < 6, "\(fall)")
                #expect(fall.fallDuration > 0.4 && fall.fallDuration < 0.8 && fall.freeFallDuration == 0, "\(fall)")
                // Judged after the settling and the observation.
                #expect(abs(fall.decisionTime - fall.impactTime - 4) < 0.1, "\(fall)")
            }
            let recoveries = Self.recoveries(events)
            #expect(recoveries.count == 3, "\(rate) Hz seed \(seed): \(events)")
            for (cycle, recovery) in recoveries.enumerated() {
                // Upright within 30° part of the way up; reported 3 s later.
                let upright = scenario.uprightTime(ofCycle: cycle)
                #expect(recovery.since > upright - SimulatedFall.getUpDuration && recovery.since < upright + 1, "\(recovery)")
                #expect(abs(recovery.timestamp - recovery.since - FallSettings().recovery) < 0.05, "\(recovery)")
            }
            #expect(Self.rejections(events).isEmpty && !detector.hasFallen)
        }
    }

    @Test func aSidewaysFallIsAFallToo() {
        let scenario = SimulatedFall(heading: .pi / 2)
        let falls = Self.falls(Self.events(.fall(scenario), seconds: 2 * scenario.cycleDuration, rate: 100).events)
        #expect(falls.count == 2)
        for (cycle, fall) in falls.enumerated() { #expect(abs(fall.impactTime - scenario.impactTime(ofCycle: cycle)) <= 0.5) }
    }

    @Test func aPersonWhoStaysDownStaysFallenWithoutRecovery() {
        let scenario = SimulatedFall(lyingDuration: 600)
        let (events, detector) = Self.events(.fall(scenario), seconds: 60, rate: 50)
        #expect(Self.falls(events).count == 1 && Self.recoveries(events).isEmpty, "\(events)")
        #expect(detector.hasFallen)
    }

    /// The phone falls freely, turns by 90° and lands hard: everything a fall shows but the living body
    /// afterwards. At 25 Hz its 20 ms blow falls between two samples and there is no impact at all.
    @Test(arguments: [25.0, 50, 100, 200, 400])
    func aPhoneDroppedOnATableIsNoFallButADroppedDevice(rate: Double) {
        for seed: UInt64 in [1, 2, 3] {
            let events = Self.events(.drop(.ontoTable), seconds: 34, rate: rate, seed: seed).events
            #expect(Self.falls(events).isEmpty, "\(rate) Hz seed \(seed): \(events)")
            #expect(Self.rejections(events).allSatisfy { $0 == .droppedDevice }, "\(events)")
            if rate >= 50 { #expect(Self.rejections(events).count == 3, "\(rate) Hz seed \(seed): \(events)") }
        }
        // The rejection is the micro-motion test's doing: without it, every drop passes for a fall (the
        // "wearer", lying flat ever after, never recovers, and each new dip starts a new fall).
        guard rate == 100 else { return }
        var blind = FallSettings()
        blind.microMotionAcceleration = 0
        let unjudged = Self.events(.drop(.ontoTable), seconds: 34, rate: rate, settings: blind)
        #expect(Self.falls(unjudged.events).count == 3 && unjudged.detector.hasFallen, "\(unjudged.events)")
    }

    @Test(arguments: [25.0, 50, 100, 200, 400])
    func sittingDownHardIsNoFall(rate: Double) {
        let scenario = SimulatedSitDown()
        for seed: UInt64 in [1, 2, 3] {
            // The 2.3 g jolt is no impact: nothing to judge.
            #expect(Self.events(.sitDown(scenario), seconds: 2 * scenario.cycleDuration, rate: rate, seed: seed).events.isEmpty)
        }
        // Dropped onto a hard seat (4.4 g): an impact, but the trunk is upright after it.
        let hard = SimulatedSitDown(stopTime: 0.06)
        let events = Self.events(.sitDown(hard), seconds: 2 * hard.cycleDuration, rate: rate).events
        #expect(Self.rejections(events) == [.upright, .upright], "\(events)")
        // That is the posture test's doing: a wrist's settings (posture test off) take it for a fall.
        var wrist = FallSettings()
        wrist.orientationChange = 0
        #expect(Self.falls(Self.events(.sitDown(hard), seconds: hard.cycleDuration, rate: rate, settings: wrist).events).count == 1)
    }

    /// Detections per scenario at each rate over three seeds: the truth table of the report.
    @Test func theTruthTable() {
        let fall = SimulatedFall(), sit = SimulatedSitDown()
        let scenarios: [(name: String, motion: SimulatedMotion, seconds: Double, cycles: Int, falls: Int)] = [
            ("fall", .fall(fall), 3 * fall.cycleDuration, 3, 3), ("table_drop", .drop(.ontoTable), 34, 3, 0),
            ("sit", .sitDown(sit), 3 * sit.cycleDuration, 3, 0), ("drop", .drop(SimulatedDrop()), 34, 3, 0),
            ("walk", .gait(.walking), SimulatedGait.walking.cycleDuration, 2, 0), ("run", .gait(.running), SimulatedGait.running.cycleDuration, 2, 0),
            ("stairs", .gait(.stairs()), SimulatedGait.stairs().cycleDuration, 2, 0), ("shake", .shake(SimulatedShake()), 12, 2, 0),
            ("tap", .taps(SimulatedTaps()), 12, 2, 0), ("tilt", .tilt(SimulatedTilt()), 24, 2, 0),
        ]
        var table = ["scenario | cycles | 25 Hz | 50 Hz | 100 Hz | 200 Hz (falls over seeds 1, 2, 3; rejections)"]
        for scenario in scenarios {
            var row = "\(scenario.name) | \(scenario.cycles)"
            for rate in [25.0, 50, 100, 200] {
                var counts: [Int] = [], rejected: [FallDetector.Rejection: Int] = [:], judged: [FallCandidate] = []
                for seed: UInt64 in [1, 2, 3] {
                    let events = Self.events(scenario.motion, seconds: scenario.seconds, rate: rate, seed: seed).events
                    counts.append(Self.falls(events).count)
                    for why in Self.rejections(events) { rejected[why, default: 0] += 1 }
                    judged += events.compactMap { if case .fall(let c) = $0 { c } else if case .rejected(let c, _) = $0 { c } else { nil } }
                    #expect(Self.falls(events).count == scenario.falls, "\(scenario.name) \(rate) Hz seed \(seed): \(events)")
                }
                let why = rejected.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value)× \($0.key.rawValue)" }
                row += " | \(counts.map(String.init).joined(separator: "/"))" + (why.isEmpty ? "" : " (\(why.joined(separator: ", ")))")
                // The micro-motion of what was judged: its range in mg and mrad/s.
                if let low = judged.map(\.microMotion).min(), let high = judged.map(\.microMotion).max(),
                    let slow = judged.map(\.microRotation).min(), let fast = judged.map(\.microRotation).max()
                {
                    row += " [\(Int(1000 * low))–\(Int(1000 * high)) mg, \(Int(1000 * slow))–\(Int(1000 * fast)) mrad/s]"
                }
            }
            table.append(row)
        }
        print(table.map { "FALL-TRUTH \($0)" }.joined(separator: "\n"))
    }
}
