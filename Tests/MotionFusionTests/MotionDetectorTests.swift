import Foundation
import MotionFusion
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

/// The motion detectors against signals of known truth, and against BROAD's tapping and vibration trials
/// when the data set is present.
@Suite struct MotionDetectorTests {
    static let rate = 200.0

    /// Specific force (g) of a device dropped from `height` metres onto a hard floor: 1 s at rest, the fall,
    /// a 10 ms blow of 8 g, two bounces of 2 g, rest again; with 0.02 g of noise.
    static func drop(height: Double) -> [(time: Double, force: Double)] {
        var generator = SeededGenerator(seed: 11)
        let fall = (2 * height / 9.80665).squareRoot()
        var samples: [(Double, Double)] = []
        for index in 0..<Int(3 * rate) {
            let time = Double(index) / rate
            let force: Double
            switch time {
            case ..<1: force = 1
            case ..<(1 + fall): force = 0
            case ..<(1 + fall + 0.01): force = 8
            case ..<(1 + fall + 0.05): force = 2
            case ..<(1 + fall + 0.08): force = 0.6
            case ..<(1 + fall + 0.1): force = 2
            default: force = 1
            }
            samples.append((time, abs(force + 0.02 * generator.gaussian())))
        }
        return samples
    }

    /// A detector made from its model settings at their defaults is the detector's own default, to the
    /// bit (CoreMotion builds defaults, the agent builds from settings: both must detect alike).
    @Test func detectorsFromDefaultSettingsAreTheDefaultDetectors() {
        let fall = FreeFallDetector(settings: FreeFallSettings())
        #expect(fall.threshold == 0.3 && fall.endThreshold == 0.5 && fall.minimumDuration == 0.2)
        let impact = ImpactDetector(settings: ImpactSettings())
        #expect(impact.threshold == ImpactDetector().threshold && impact.rearmThreshold == ImpactDetector().rearmThreshold)
        #expect(impact.rearmThreshold == 1.5 && impact.quietTime == ImpactDetector().quietTime)
        let tap = TapDetector(settings: TapSettings())
        #expect(tap.threshold == 1 && tap.doubleTapWindow == 0.4 && tap.maximumDuration == TapDetector().maximumDuration)
        let shake = ShakeDetector(settings: ShakeSettings())
        #expect(shake.threshold == 1.2 && shake.minimumReversals == 3 && shake.window == ShakeDetector().window)
        #expect(DeviceOrientationDetector(settings: OrientationSettings()).hysteresis == 0.2)
        let tilt = TiltDetector(settings: TiltSettings())
        // The literal degrees the detector documents, converted as the settings are.
        #expect(tilt.threshold == 30 * .pi / 180 && tilt.hysteresis == 5 * .pi / 180 && tilt.reference == nil)
        let moving = MotionActivityStateDetector(settings: MovingSettings())
        #expect(moving.accelerationThreshold == 0.05 && moving.rotationThreshold == 0.2 && moving.confirmTime == 0.5 && moving.settleTime == 2)
        let vibration = VibrationMeter(settings: VibrationSettings(), bands: VibrationSettings.defaultBands)
        #expect(vibration.bands == [20...100] && vibration.runningThreshold == 0.1 && vibration.confirmTime == 2 && vibration.stopTime == 5)
        #expect(vibration.averagingTime == VibrationMeter().averagingTime)
        #expect(MotionActivityClassifier(settings: ActivitySettings()).runningCadence == 2.4)
        // The bank: every detector on; the vibration meter only with a band.
        let bank = MotionDetectorBank(settings: MotionDetectorSettings(), vibrationBands: [])
        #expect(bank.freeFall != nil && bank.steps != nil && bank.activity != nil && bank.vibration == nil)
        var settings = MotionDetectorSettings()
        settings.switchedOff = [.activity, .tap]
        let partial = MotionDetectorBank(settings: settings, vibrationBands: [20...100])
        #expect(partial.tap == nil && partial.steps == nil && partial.activity == nil && partial.vibration != nil && partial.shake != nil)
    }

    @Test func bandsAreKeptBelowTheRatesLimit() {
        #expect(VibrationMeter.usableBands([20...100, 5...15], sampleRate: 200) == [20...90, 5...15])
        #expect(VibrationMeter.usableBands([60...100], sampleRate: 100).isEmpty)
        #expect(VibrationMeter.usableBands([60...100], sampleRate: nil) == [60...100])
    }

    @Test func aDropFromOneMetreIsOneFreeFallOfAboutHalfASecondAndOneImpact() throws {
        var freeFall = FreeFallDetector(), impact = ImpactDetector()
        var events: [MotionEvent] = []
        for (time, force) in Self.drop(height: 1) {
            if let event = freeFall.update(specificForce: force, timestamp: time) { events.append(event) }
            if let event = impact.update(specificForce: force, timestamp: time) { events.append(event) }
        }
        #expect(events.map(\.kind) == [.freeFall, .impact])
        let fall = try #require(events.first)
        #expect(abs(fall.duration - 0.4515) <= 1 / Self.rate + 1e-9, "fall of \(fall.duration) s")
        #expect(abs(fall.magnitude - 1) < 0.05, "implied height \(fall.magnitude) m")
        #expect(abs(fall.timestamp - 1) <= 1 / Self.rate)
        let blow = events[1]
        #expect(abs(blow.magnitude - 8) < 0.1 && blow.duration < 0.15, "impact \(blow)")
    }

    @Test func resting_walking_and_a_short_hop_are_no_free_fall() {
        var detector = FreeFallDetector()
        // A 30 ms dip to 0.2 g (a stumble), then 0.6 g for a second (an elevator starting down).
        var found = 0
        for index in 0..<400 {
            let time = Double(index) / Self.rate
            let force = (0.5..<0.53).contains(time) ? 0.2 : (1..<2).contains(time) ? 0.6 : 1
            if detector.update(specificForce: force, timestamp: time) != nil { found += 1 }
        }
        #expect(found == 0)
    }

    /// User acceleration (g): spikes of 2 g for 20 ms at the given times, a shake-like 1.5 g for 300 ms at 6 s.
    static func taps(at starts: [Double]) -> [(Double, Double)] {
        (0..<Int(8 * rate)).map { index in
            let time = Double(index) / rate
            if starts.contains(where: { (0..<0.02).contains(time - $0) }) { return (time, 2.0) }
            if (6..<6.3).contains(time) { return (time, 1.5) }
            return (time, 0.01)
        }
    }

    @Test func aSingleTapADoubleTapAndAShakeThatIsNoTap() {
        var detector = TapDetector()
        var events: [MotionEvent] = []
        for (time, acceleration) in Self.taps(at: [1, 3, 3.25]) {
            if let event = detector.update(userAcceleration: acceleration, timestamp: time) { events.append(event) }
        }
        #expect(events.map(\.kind) == [.tap, .doubleTap])
        #expect(abs(events[0].timestamp - 1) < 0.01 && abs(events[1].timestamp - 3) < 0.01)
        #expect(events.allSatisfy { abs($0.magnitude - 2) < 1e-9 })
        // Taps further apart than the window are two single taps.
        var apart = TapDetector()
        let kinds = Self.taps(at: [1, 2]).compactMap { apart.update(userAcceleration: $0.1, timestamp: $0.0)?.kind }
        #expect(kinds == [.tap, .tap])
    }

    @Test func theOrientationChangesOnceAnotherAxisIsClearlyCloserToVertical() {
        var detector = DeviceOrientationDetector()
        #expect(detector.update(gravity: SIMD3(0, 0, -1)) == .faceUp)
        // Tipping towards portrait: at 40°, 50° and back at 44° nothing changes (hysteresis around 45°).
        var changes: [DeviceOrientationDetector.Orientation] = []
        for degrees in [10.0, 40, 50, 44, 52, 65, 80, 50, 40, 20] {
            let angle = degrees * .pi / 180
            if let change = detector.update(gravity: SIMD3(0, -sin(angle), -cos(angle))) { changes.append(change) }
        }
        #expect(changes == [.portrait, .faceUp], "portrait past about 57°, face up again below about 33°")
        #expect(detector.update(gravity: SIMD3(-0.98, 0, 0.2)) == .landscapeLeft)
        #expect(detector.update(gravity: SIMD3(0.1, 0.99, 0)) == .portraitUpsideDown)
        #expect(detector.update(gravity: .zero) == nil)
    }

    @Test func tiltTurnsOnPastTheThresholdAndOffBelowItsHysteresis() {
        var detector = TiltDetector()
        func tilt(_ degrees: Double) -> Bool? {
            let angle = degrees * .pi / 180
            return detector.update(gravity: SIMD3(sin(angle), 0, -cos(angle)))
        }
        #expect(tilt(0) == nil, "the first sample is the reference")
        #expect(tilt(20) == nil && tilt(31) == true && tilt(27) == nil && tilt(24) == false)
        #expect(abs(detector.angle - 24 * .pi / 180) < 1e-9)
    }

    @Test func shakingBackAndForthIsOneShakeAndATapOrAPushIsNone() {
        var detector = ShakeDetector()
        var shakes: [MotionEvent] = []
        // 2 s of shaking along x at 3 Hz with 2.5 g peaks, then a quiet second, then one push of 2 g for 0.2 s.
        for index in 0..<Int(5 * Self.rate) {
            let time = Double(index) / Self.rate
            let x = time < 2 ? 2.5 * sin(2 * .pi * 3 * time) : (3.5..<3.7).contains(time) ? 2 : 0
            if let event = detector.update(userAcceleration: SIMD3(x, 0.05, 0), timestamp: time) { shakes.append(event) }
        }
        #expect(shakes.count == 1, "\(shakes)")
        #expect(shakes.first.map { $0.timestamp < 0.6 && abs($0.magnitude - 2.5) < 0.01 } == true)
        var taps = ShakeDetector()
        let fromTaps = Self.taps(at: [1, 1.2, 1.4, 1.6]).compactMap { taps.update(userAcceleration: SIMD3($0.1, 0, 0), timestamp: $0.0) }
        #expect(fromTaps.isEmpty, "taps all push the same way")
    }

    @Test func restAndMotionWithConfirmationAndSettling() throws {
        var detector = MotionActivityStateDetector()
        var changes: [(Double, Bool)] = []
        // Still, then turning at 0.5 rad/s from 2 s to 6 s, then still again.
        for index in 0..<Int(12 * Self.rate) {
            let time = Double(index) / Self.rate
            let rate = (2..<6).contains(time) ? 0.5 : 0.003
            if let change = detector.update(acceleration: 0.002, rotationRate: rate, timestamp: time) { changes.append((time, change)) }
        }
        try #require(changes.map(\.1) == [true, false], "\(changes)")
        #expect((2.5...3).contains(changes[0].0) && (8...9).contains(changes[1].0), "\(changes)")
    }

    @Test func aMachineVibratingAt50HzRunsWithItsLevelInTheRightBand() throws {
        var meter = VibrationMeter(bands: [20...100, 1...5])
        var changes: [(Double, Bool)] = []
        var levelWhileRunning: [Double] = []
        // 400 Hz sampling; 0.2 g at 50 Hz along z from 2 s to 12 s on top of gravity.
        let rate = 400.0
        for index in 0..<Int(25 * rate) {
            let time = Double(index) / rate
            let vibration = (2..<12).contains(time) ? 0.2 * sin(2 * .pi * 50 * time) : 0
            if let change = meter.update(specificForce: SIMD3(0, 0, -1 + vibration), timestamp: time) { changes.append((time, change)) }
            if (8..<12).contains(time) { levelWhileRunning.append(meter.levels[0]) }
            if abs(time - 10) < 1e-9 { #expect(meter.levels[1] < 0.01, "1–5 Hz band: \(meter.levels[1]) g") }
        }
        try #require(changes.map(\.1) == [true, false], "\(changes)")
        // Running 2 s after the level passed 0.1 g; stopped 5 s after its 1 s average fell below 0.05 g.
        #expect((4...5).contains(changes[0].0) && (17...22).contains(changes[1].0), "\(changes)")
        let mean = levelWhileRunning.reduce(0, +) / Double(levelWhileRunning.count)
        #expect(abs(mean - 0.2 / 2.squareRoot()) < 0.02, "RMS \(mean) g, 0.141 g expected")
    }

    // MARK: - BROAD

    @Test(.enabled(if: BroadAccuracyTests.hasData, "needs ../shared/data/broad"))
    func onBroadsTappingTrialTapsAreFoundAndNoFreeFallInEitherDisturbedTrialNorAShakeInTheVibrationTrial() throws {
        func events(_ trial: String) throws -> [MotionEvent] {
            let recording = try IMURecording.load(contentsOf: BroadAccuracyTests.dataDirectory + "/" + trial)
            var filter = AttitudeFilter()
            var freeFall = FreeFallDetector(), impact = ImpactDetector(), taps = TapDetector(), shake = ShakeDetector()
            var found: [MotionEvent] = []
            var previous: UInt64?
            for sample in recording.samples {
                let deltaTime = previous.map { Double(sample.timestamp - $0) / 1e9 } ?? 0
                previous = sample.timestamp
                filter.update(gyroscope: sample.rotationRate!, accelerometer: sample.acceleration, magnetometer: nil, deltaTime: deltaTime)
                let time = Double(sample.timestamp) / 1e9
                let force = (sample.acceleration!.lengthSquared).squareRoot() / 9.80665
                let user = filter.userAcceleration.length / 9.80665
                found += [freeFall.update(specificForce: force, timestamp: time), impact.update(specificForce: force, timestamp: time),
                          taps.update(userAcceleration: user, timestamp: time),
                          shake.update(userAcceleration: filter.userAcceleration / 9.80665, timestamp: time)].compactMap { $0 }
            }
            return found
        }
        let tapping = try events("24_disturbed_tapping_A.csv")
        let taps = tapping.filter { $0.kind == .tap || $0.kind == .doubleTap }
        // Measured: 10 taps, 60 double taps and 22 impacts (the harder taps) on 24; on 26 two taps, nothing else.
        #expect(taps.count >= 5, "taps found: \(taps.count)")
        #expect(!tapping.contains { $0.kind == .freeFall })
        let vibration = try events("26_disturbed_phone_vibration_A.csv")
        #expect(!vibration.contains { $0.kind == .freeFall || $0.kind == .shake })
    }
}

extension MotionDetectorTests {
    @Test(.enabled(if: BroadAccuracyTests.hasData, "needs ../shared/data/broad"))
    func broadsVibrationTrialRunsWhileThePhoneVibratesAndHandMovedTrialsDoNot() throws {
        func running(_ trial: String) throws -> [(Double, Bool)] {
            let recording = try IMURecording.load(contentsOf: BroadAccuracyTests.dataDirectory + "/" + trial)
            var meter = VibrationMeter()
            return recording.samples.compactMap { sample in
                let time = Double(sample.timestamp) / 1e9
                return meter.update(specificForce: sample.acceleration! / 9.80665, timestamp: time).map { (time, $0) }
            }
        }
        // The phone vibrates from about 50 s to 165 s (docs/FUSION.md).
        let vibration = try running("26_disturbed_phone_vibration_A.csv")
        #expect(vibration.count == 2, "\(vibration)")
        #expect(vibration.first.map { $0.1 && (45...56).contains($0.0) } == true, "\(vibration)")
        #expect(vibration.last.map { !$0.1 && (163...180).contains($0.0) } == true, "\(vibration)")
        // A device moved by hand, slowly or fast, is no running machine.
        for trial in ["01_undisturbed_slow_rotation_A.csv", "06_undisturbed_fast_rotation_A.csv", "15_undisturbed_fast_translation_A.csv"] {
            let changes = try running(trial)
            #expect(changes.isEmpty, "\(trial): \(changes)")
        }
    }
}

extension MotionDetectorTests {
    /// Vertical user acceleration of a walk (or run): one sinusoidal lift per step, with a harmonic and
    /// noise, on a device tilted 30° (so the detector must take the component along gravity).
    static func gait(stepsPerSecond: Double, amplitude: Double, seconds: Double, seed: UInt64) -> [(Double, SIMD3<Double>, SIMD3<Double>)] {
        var generator = SeededGenerator(seed: seed)
        let tilt = 30 * Double.pi / 180
        let gravity = SIMD3(0, -sin(tilt), -cos(tilt))
        return (0..<Int(seconds * rate)).map { index in
            let time = Double(index) / rate
            let phase = 2 * .pi * stepsPerSecond * time
            let vertical = amplitude * (sin(phase) + 0.3 * sin(2 * phase + 0.5)) + 0.02 * generator.gaussian()
            let sideways = SIMD3(0.1 * amplitude * sin(phase / 2), 0, 0) + generator.gaussianVector(standardDeviation: 0.02)
            return (time, -gravity * vertical + sideways, gravity)
        }
    }

    @Test(arguments: [(1.8, 0.25, 60.0), (2.8, 0.9, 30.0), (1.2, 0.15, 60.0)])
    func aWalkOrARunOfKnownStepsIsCountedWithin2Percent(stepsPerSecond: Double, amplitude: Double, seconds: Double) throws {
        var detector = StepDetector()
        for (time, user, gravity) in Self.gait(stepsPerSecond: stepsPerSecond, amplitude: amplitude, seconds: seconds, seed: 5) {
            detector.update(userAcceleration: user, gravity: gravity, timestamp: time)
        }
        let truth = stepsPerSecond * seconds
        #expect(abs(Double(detector.steps) - truth) <= 0.02 * truth, "\(detector.steps) steps of \(truth)")
        let cadence = try #require(detector.cadence)
        #expect(abs(cadence - stepsPerSecond) < 0.05 * stepsPerSecond, "cadence \(cadence)")
    }

    @Test func standingStillOrTurningInTheHandIsNoStep() {
        var detector = StepDetector()
        var generator = SeededGenerator(seed: 9)
        for index in 0..<Int(30 * Self.rate) {
            let time = Double(index) / Self.rate
            // Noise, and a slow sway of 0.05 g at 0.5 Hz.
            let user = SIMD3(0, 0, 0.05 * sin(.pi * time)) + generator.gaussianVector(standardDeviation: 0.02)
            detector.update(userAcceleration: user, gravity: SIMD3(0, 0, -1), timestamp: time)
        }
        #expect(detector.steps == 0)
    }
}
