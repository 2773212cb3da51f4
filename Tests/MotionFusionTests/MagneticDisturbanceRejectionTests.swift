import MotionFusion
import MotionMath
import Testing

/// The magnetic disturbance rejection as VQF has it (docs/FUSION.md): 10 % / 10° thresholds on the field
/// low-passed over 0.05 s, and 0.5 s undisturbed before the field corrects the heading again.
@Suite struct MagneticDisturbanceRejectionTests {
    /// A device tilted 20° about x, resting for 20 s (the inclination and the magnetic reference settle),
    /// then turning about the vertical at 0.2 rad/s.
    private static let tilted = Quaternion(axis: SIMD3(1, 0, 0), angle: radians(20))

    private static func turning(disturbance: @escaping @Sendable (Double) -> SIMD3<Double> = { _ in .zero })
        -> (rest: SyntheticMotion, turn: SyntheticMotion)
    {
        let rest = SyntheticMotion(initialAttitude: tilted, magnetometerNoise: 0.3)
        // The turn's attitude at 20 s is the rest's: q0 ⊗ exp(ω · 20 s) = the tilted pose.
        let rate = SIMD3<Double>(0, 0, 0.2)
        let start = tilted * Quaternion(rotationVector: tilted.conjugate.rotate(rate) * -20)
        let turn = SyntheticMotion(
            initialAttitude: start, bodyRate: tilted.conjugate.rotate(rate), magneticDisturbance: disturbance,
            magnetometerNoise: 0.3)
        return (rest, turn)
    }

    @Test("one stray reading 15 µT off (a third of the field) is averaged away: not flagged, no correction skipped")
    func aStrayReadingIsAveragedAway() {
        // One reading at 30 s, 15 µT along north: the 0.05 s low-pass passes 18 % of it, 6 % of the field.
        // Compared reading by reading it would be rejected (31 % off in norm).
        let (rest, turn) = Self.turning { time in abs(time - 30) < 0.001 ? SIMD3(15, 0, 0) : .zero }
        var filter = AttitudeFilter(settings: .init(useMagnetometer: true))
        rest.run(&filter, duration: 20, seed: 3)
        var flagged = false, skipped = false
        turn.run(&filter, from: 20, duration: 20, seed: 4) { time, _, filter in
            flagged = flagged || filter.isMagneticallyDisturbed
            if (29.9...30.1).contains(time) { skipped = skipped || !filter.magnetometerUsed }
        }
        #expect(!flagged)
        #expect(!skipped)
    }

    @Test("after a disturbance the field corrects the heading again only once it has been back for 0.5 s")
    func theFieldMustBeBackForHalfASecond() {
        // 20 µT along the vertical from 30 to 32 s: the norm 40 % longer.
        let (rest, turn) = Self.turning { time in (30..<32).contains(time) ? SIMD3(0, 0, -20) : .zero }
        var filter = AttitudeFilter(settings: .init(useMagnetometer: true))
        rest.run(&filter, duration: 20, seed: 5)
        var usedDuring = false, usedTooEarly = false, usedAgain: Double?
        var worst = 0.0
        turn.run(&filter, from: 20, duration: 20, seed: 6) { time, truth, filter in
            if (30.05..<32).contains(time) { usedDuring = usedDuring || filter.magnetometerUsed }
            // The low-pass takes about 0.1 s to fall back within 10 %; then 0.5 s must pass.
            if (32..<32.55).contains(time) { usedTooEarly = usedTooEarly || filter.magnetometerUsed }
            if time >= 32, usedAgain == nil, filter.magnetometerUsed { usedAgain = time }
            if time > 25 { worst = max(worst, abs(headingError(filter.attitude, truth))) }
        }
        #expect(!usedDuring)
        #expect(!usedTooEarly)
        #expect(usedAgain.map { $0 < 32.8 } == true, "used again at \(String(describing: usedAgain)) s")
        #expect(worst < 0.3, "heading off by \(worst)°")
    }

    @Test("a 4 µT hard-iron residual (8 % of the field) is not taken for a disturbance; the 5 % / 5° of before took it")
    func aCalibrationResidualIsNoDisturbance() {
        // The residual turns with the device: added in the sensor's frame, along its x axis, which stays
        // horizontal. As the device turns the field's dip swings between 62° and 71° and its norm by 7 %.
        func flaggedShare(_ settings: AttitudeFilter.Settings) -> Double {
            var (rest, turn) = Self.turning()
            rest.magnetometerOffset = SIMD3(4, 0, 0)
            turn.magnetometerOffset = SIMD3(4, 0, 0)
            var filter = AttitudeFilter(settings: settings)
            rest.run(&filter, duration: 20, seed: 7)
            var flagged = 0, readings = 0
            turn.run(&filter, from: 20, duration: 60, seed: 8) { _, _, filter in
                readings += 1
                if filter.isMagneticallyDisturbed { flagged += 1 }
            }
            return Double(flagged) / Double(readings)
        }
        let now = flaggedShare(.init(useMagnetometer: true))
        #expect(now == 0, "\(now * 100) % of the readings flagged disturbed")
        let before = flaggedShare(.init(useMagnetometer: true, magneticNormThreshold: 0.05, magneticDipThreshold: radians(5)))
        #expect(before > 0.05, "\(before * 100) % flagged with 5 % / 5°")
    }
}
