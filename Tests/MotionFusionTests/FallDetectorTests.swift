#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionFusion
import MotionHAL
import MotionModel
import Testing

/// ``FallDetector``'s edges: samples that are not numbers or out of order, gaps, dips that are too short or
/// too long, and rates from 25 to 400 Hz.
@Suite struct FallDetectorTests {
    typealias Scenario = FallScenarioTests

    /// A synthetic trace: `force` (g, along z) and `rate` (rad/s, about x) as functions of time, fed at
    /// `sampleRate` for `seconds`.
    static func feed(
        _ detector: inout FallDetector, seconds: Double, sampleRate: Double = 100, from start: Double = 0,
        force: (Double) -> SIMD3<Double>, rate: (Double) -> SIMD3<Double> = { _ in .zero }
    ) -> [FallDetector.Event] {
        var events: [FallDetector.Event] = []
        for index in 0..<Int(seconds * sampleRate) {
            let time = start + Double(index) / sampleRate
            if let event = detector.update(specificForce: force(time), rotationRate: rate(time), timestamp: time) { events.append(event) }
        }
        return events
    }

    @Test func samplesThatAreNotNumbersAreIgnored() {
        let scenario = SimulatedFall()
        // Every seventh sample's accelerometer, and every eleventh's gyroscope, is not a number.
        let device = SimulatedIMU(configuration: .init(sampleRate: 100, motion: .fall(scenario)))
        var detector = FallDetector()
        var events: [FallDetector.Event] = []
        for index in 0..<Int(scenario.cycleDuration * 100) {
            let sample = device.sample(index: index, sampleRate: 100)
            var force = sample.acceleration! / Scenario.standardGravity, rate = sample.rotationRate!
            if index % 7 == 0 { force.y = .nan }
            if index % 11 == 0 { rate = SIMD3(repeating: .infinity) }
            if let event = detector.update(specificForce: force, rotationRate: rate, timestamp: Double(sample.timestamp) / 1e9) { events.append(event) }
        }
        let falls = Scenario.falls(events)
        #expect(falls.count == 1 && Scenario.recoveries(events).count == 1, "\(events)")
        #expect(abs((falls.first?.impactTime ?? 0) - scenario.impactTime(ofCycle: 0)) <= 0.5)
        // A stream of nothing but non-numbers changes nothing, and a NaN time is no sample.
        var idle = FallDetector()
        #expect(Self.feed(&idle, seconds: 5, force: { _ in SIMD3(repeating: .nan) }).isEmpty)
        #expect(idle.update(specificForce: SIMD3(0, 0, 0), rotationRate: .zero, timestamp: .nan) == nil && !idle.isJudging)
    }

    @Test func samplesOutOfOrderOrRepeatedAreIgnored() {
        var detector = FallDetector()
        _ = Self.feed(&detector, seconds: 2, force: { _ in SIMD3(0, 0, 1) })
        // A late sample in free fall, stamped before the last one, starts nothing.
        #expect(detector.update(specificForce: .zero, rotationRate: .zero, timestamp: 1.0) == nil)
        #expect(detector.update(specificForce: .zero, rotationRate: .zero, timestamp: 1.99) == nil)
        #expect(!detector.isJudging)
        #expect(detector.update(specificForce: .zero, rotationRate: .zero, timestamp: 2.01) == nil && detector.isJudging)
    }

    @Test func aGapAbandonsAFallInProgressButNotOneReported() {
        let scenario = SimulatedFall()
        let impact = scenario.impactTime(ofCycle: 0)
        // A second of samples lost during the observation: the evidence is incomplete, no verdict.
        let lost = Scenario.events(.fall(scenario), seconds: scenario.cycleDuration, rate: 100) { $0 > impact + 2 && $0 < impact + 3 }
        #expect(lost.events.isEmpty, "\(lost.events)")
        // Lost while the wearer lies after the fall was reported: still fallen, recovered once up.
        let later = Scenario.events(.fall(scenario), seconds: scenario.cycleDuration, rate: 100) { $0 > impact + 6 && $0 < impact + 7 }
        #expect(Scenario.falls(later.events).count == 1 && Scenario.recoveries(later.events).count == 1, "\(later.events)")
        // A gap shorter than the limit (0.4 s) inside the observation changes nothing.
        let short = Scenario.events(.fall(scenario), seconds: scenario.cycleDuration, rate: 100) { $0 > impact + 2 && $0 < impact + 2.4 }
        #expect(Scenario.falls(short.events).count == 1)
    }

    /// Standing (1 g up along z) until 2 s, then `dip` s at `dipForce` g, a 50 ms blow of `blow` g, and
    /// `after` (g, device axes, as a function of time) from then on; fed to a new detector at 100 Hz for
    /// `seconds`.
    static func judge(
        dip: Double, dipForce: Double, blow: Double, seconds: Double = 10, after: @escaping (Double) -> SIMD3<Double>
    ) -> (events: [FallDetector.Event], detector: FallDetector) {
        var detector = FallDetector()
        let events = feed(&detector, seconds: seconds) { time in
            switch time {
            case ..<2: SIMD3(0, 0, 1)
            case ..<(2 + dip): SIMD3(0, 0, dipForce)
            case ..<(2 + dip + 0.05): SIMD3(0, 0, blow)
            default: after(time)
            }
        }
        return (events, detector)
    }

    /// Lying on the side (gravity along x), breathing (±0.01 g at 0.25 Hz).
    static func lyingBreathing(_ time: Double) -> SIMD3<Double> { SIMD3(1, 0, 0.01 * sin(2 * .pi * 0.25 * time)) }

    /// A device dropped from very high: it falls freely (2 s, 20 m) for longer than a person's fall can
    /// last, and its landing on another face is no fall to judge.
    @Test func aDipLongerThanAFallIsNoCandidate() {
        let (events, detector) = Self.judge(dip: 2, dipForce: 0.01, blow: 20, seconds: 12) { _ in SIMD3(1, 0, 0) }
        #expect(events.isEmpty && !detector.isJudging, "\(events)")
    }

    @Test func aJoltAfterTooShortADipIsNoCandidate() {
        // 50 ms below 0.6 g (a stumble caught), then a 4 g blow and lying on the side, breathing.
        let caught = Self.judge(dip: 0.05, dipForce: 0.4, blow: 4, after: Self.lyingBreathing).events
        #expect(caught.isEmpty, "\(caught)")
        // The same with a 0.3 s dip is a fall.
        let fall = Self.judge(dip: 0.3, dipForce: 0.4, blow: 4, after: Self.lyingBreathing).events
        #expect(Scenario.falls(fall).count == 1, "\(fall)")
    }

    /// A person who falls freely (from a ladder) and then lies without a trace of motion at the sensor
    /// is taken for a dropped device: the documented limit of telling the two apart.
    @Test func aMotionlessBodyAfterAFreeFallIsTakenForADevice() {
        let events = Self.judge(dip: 0.5, dipForce: 0.05, blow: 5) { _ in SIMD3(1, 0, 0) }.events
        #expect(Scenario.rejections(events) == [.droppedDevice], "\(events)")
    }

    @Test func walkingOnAfterTheImpactIsMoving() {
        // A jump: flight, a hard landing, then walking on (±0.3 g at 1.8 Hz) with the trunk tilted.
        let events = Self.judge(dip: 0.3, dipForce: 0.1, blow: 4) { time in SIMD3(0.9, 0, 0.4 + 0.3 * sin(2 * .pi * 1.8 * time)) }.events
        #expect(Scenario.rejections(events) == [.moving], "\(events)")
    }

    @Test(arguments: [25.0, 400])
    func theExtremeRatesFindTheFallAtTheImpact(rate: Double) {
        let scenario = SimulatedFall()
        let falls = Scenario.falls(Scenario.events(.fall(scenario), seconds: 2 * scenario.cycleDuration, rate: rate, seed: 7).events)
        #expect(falls.count == 2)
        for (cycle, fall) in falls.enumerated() { #expect(abs(fall.impactTime - scenario.impactTime(ofCycle: cycle)) <= 0.5) }
    }
}
