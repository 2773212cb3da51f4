import Foundation
import MotionFusion
import MotionMath
import MotionTestSupport
import Testing

/// The thresholds that follow from the sensors' noise: rest detection from the gyroscope's and the
/// accelerometer's noise densities, magnetic disturbance rejection from the magnetometer's noise measured
/// at rest (docs/FUSION.md, "Thresholds from the noise").
@Suite("AttitudeFilter thresholds from the noise")
struct AttitudeFilterNoiseTests {
    /// (gyroscope rad/s, accelerometer m/s²) per reading at 1 kHz for a sensor with the given densities.
    private static func perReading(gyroscopeDensity: Double, accelerometerDensity: Double) -> (Double, Double) {
        let bandwidth = (1000.0 / 2).squareRoot()
        return (gyroscopeDensity * bandwidth, accelerometerDensity * bandwidth)
    }

    @Test("at 1 kHz a noisy gyroscope or accelerometer is found at rest once its density is known, and not with the default",
          arguments: [(0.03 * Double.pi / 180, 0.0015), (0.01 * Double.pi / 180, 0.008)])
    func restWithANoisySensor(gyroscopeDensity: Double, accelerometerDensity: Double) {
        // 0.03 °/s/√Hz is 0.67 °/s per reading at 1 kHz (three times the default's); 0.008 m/s²/√Hz
        // (820 µg/√Hz) is 0.18 m/s². Either breaks a 2 °/s or 0.5 m/s² threshold every few hundred readings.
        let (gyroscopeNoise, accelerometerNoise) = Self.perReading(
            gyroscopeDensity: gyroscopeDensity, accelerometerDensity: accelerometerDensity)
        let bias = SIMD3<Double>(0.01, -0.015, 0.008)
        let motion = SyntheticMotion(
            initialAttitude: Quaternion(axis: SIMD3(1, 0.5, 0), angle: 0.4), gyroscopeBias: bias,
            gyroscopeNoise: gyroscopeNoise, accelerometerNoise: accelerometerNoise)
        var assumed = AttitudeFilter()
        var restedAssuming = false
        motion.run(&assumed, duration: 12, rate: 1000, seed: 5, useMagnetometerReadings: false) { _, _, filter in
            restedAssuming = restedAssuming || filter.isAtRest
        }
        #expect(!restedAssuming, "with the default densities the noise breaks every rest")

        var known = AttitudeFilter(
            settings: .init(gyroscopeNoiseDensity: gyroscopeDensity, accelerometerNoiseDensity: accelerometerDensity))
        var restedAfter: Double?
        motion.run(&known, duration: 12, rate: 1000, seed: 5, useMagnetometerReadings: false) { time, _, filter in
            if restedAfter == nil, filter.isAtRest { restedAfter = time }
        }
        let after = restedAfter ?? .infinity
        #expect(after < 1.6, "at rest after \(after) s (the minimum is 1.5 s)")
        #expect(known.isAtRest)
        // 10 s of readings with 0.67 °/s noise average to 0.67/√10,000 = 0.007 °/s.
        let error = (known.gyroscopeBias - bias).length * 180 / .pi
        #expect(error < 0.05, "bias error \(error) °/s")
    }

    @Test("the rest thresholds keep their configured values where the noise is far below them")
    func restThresholdsOfAQuietSensor() {
        let defaults = AttitudeFilter.Settings()
        for rate in [50.0, 286, 1000] {
            let thresholds = defaults.restThresholds(deltaTime: 1 / rate)
            #expect(thresholds.gyroscope == defaults.restGyroscopeThreshold)
            #expect(thresholds.accelerometer == defaults.restAccelerometerThreshold)
        }
        // At 6.66 kHz (the LSM6DSOX's fastest rate) a 0.01 °/s/√Hz gyroscope needs 6 × 0.58 °/s = 3.5 °/s,
        // and a 150 µg/√Hz accelerometer 6 × 0.087 m/s² = 0.52 m/s².
        let fast = defaults.restThresholds(deltaTime: 1 / 6660)
        let bandwidth = (6660.0 / 2).squareRoot()
        #expect(abs(fast.gyroscope * 180 / .pi - 6 * 0.01 * bandwidth) < 1e-9)
        #expect(abs(fast.accelerometer - 6 * 0.0015 * bandwidth) < 1e-9 && fast.accelerometer > 0.5)
    }

    @Test("the magnetometer's noise is measured at rest: from differences of successive readings, not during motion, not from held readings")
    func magnetometerNoiseIsMeasuredAtRest() {
        var generator = SeededGenerator(seed: 3)
        var filter = AttitudeFilter(settings: .init(useMagnetometer: true, magnetometerNoise: 0.5))
        let field = SIMD3<Double>(19.5, 3, -44.5), up = SIMD3<Double>(0, 0, 9.81)
        // Turning first (0.3 rad/s, readings changing by far more than the noise): nothing is measured.
        for step in 0..<500 {
            let turned = Quaternion(axis: SIMD3(0, 0, 1), angle: -0.003 * Double(step)).rotate(field)
            filter.update(gyroscope: SIMD3(0, 0, 0.3), accelerometer: up, magnetometer: turned, deltaTime: 0.01)
        }
        #expect(filter.magnetometerNoise == 0.5)
        // At rest, 1.2 µT of noise, each reading held for a second update (a magnetometer at half the rate).
        var held = field
        var beforeFifty = Double.nan
        for step in 0..<4000 {
            if step % 2 == 0 { held = field + generator.gaussianVector(standardDeviation: 1.2) }
            filter.update(gyroscope: .zero, accelerometer: up, magnetometer: held, deltaTime: 0.01)
            // Rest is found after 1.5 s (150 updates); 50 differences take 100 more.
            if step == 240 { beforeFifty = filter.magnetometerNoise }
        }
        #expect(filter.isAtRest)
        #expect(beforeFifty == 0.5, "the prior until 50 differences: \(beforeFifty)")
        #expect(abs(filter.magnetometerNoise - 1.2) < 0.06, "\(filter.magnetometerNoise) µT")
    }

    /// A face-up device at rest for 10 s, then turning about the vertical at 0.1 rad/s for 60 s, with a
    /// magnetometer of `noise` µT per reading; `prior` is what the settings say.
    private static func turnWithANoisyMagnetometer(
        noise: Double, prior: Double, disturbance: SIMD3<Double> = .zero
    ) -> (disturbedShare: Double, worstHeading: Double, detected: Bool) {
        let rest = SyntheticMotion(initialAttitude: .identity, magnetometerNoise: noise)
        var filter = AttitudeFilter(settings: .init(useMagnetometer: true, magnetometerNoise: prior))
        rest.run(&filter, duration: 10, seed: 11)
        // Its attitude at 10 s is the rest's: q0 ⊗ exp(ω · 10 s) = identity.
        let turn = SyntheticMotion(
            initialAttitude: Quaternion(axis: SIMD3(0, 0, 1), angle: -1), bodyRate: SIMD3(0, 0, 0.1),
            magneticDisturbance: { time in (40..<50).contains(time) ? disturbance : .zero }, magnetometerNoise: noise)
        var disturbed = 0, readings = 0, worst = 0.0, detected = false
        turn.run(&filter, from: 10, duration: 60, seed: 12) { time, truth, filter in
            if (40..<50).contains(time) {
                detected = detected || filter.isMagneticallyDisturbed
                return
            }
            readings += 1
            if filter.isMagneticallyDisturbed { disturbed += 1 }
            if time > 15 { worst = max(worst, abs(headingError(filter.attitude, truth))) }
        }
        return (Double(disturbed) / Double(readings), worst, detected)
    }

    @Test("a magnetometer with 2.5 µT of noise (5 % of the field per reading) is measured at rest and its readings are not taken for disturbances")
    func noisyMagnetometerIsNotDisturbed() {
        // 5 % of the synthetic 48.6 µT field is one standard deviation: with fixed thresholds a third of the
        // readings would fail the norm test. The prior (0.1 µT) is wrong by 25 ×; the rest measures 2.5.
        let noisy = Self.turnWithANoisyMagnetometer(noise: 2.5, prior: 0.1)
        #expect(noisy.disturbedShare < 0.02, "\(noisy.disturbedShare * 100) % of the readings flagged disturbed")
        #expect(noisy.worstHeading < 2, "heading off by up to \(noisy.worstHeading)°")
    }

    @Test("widened by the noise, the thresholds still catch a disturbance well beyond it; a quiet magnetometer keeps 10 %")
    func disturbancesAreStillCaught() {
        // 3 × 2.5 µT = 7.5 µT (15 % of the field): a 20 µT disturbance along north is well beyond it.
        let noisy = Self.turnWithANoisyMagnetometer(noise: 2.5, prior: 0.5, disturbance: SIMD3(20, 0, 0))
        #expect(noisy.detected)
        // A quiet magnetometer (0.2 µT): 3 σ is 0.6 µT, the 10 % thresholds hold, and an 8 µT disturbance
        // along the vertical (the norm 15 % longer) is caught.
        let quiet = Self.turnWithANoisyMagnetometer(noise: 0.2, prior: 0.5, disturbance: SIMD3(0, 0, -8))
        #expect(quiet.detected)
        // 1 %: the half second after the disturbance, before the field corrects again, counts as disturbed.
        #expect(quiet.disturbedShare < 0.015)
    }
}
