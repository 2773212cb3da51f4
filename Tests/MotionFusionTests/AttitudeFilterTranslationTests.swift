import Foundation
import MotionFusion
import MotionMath
import Testing

/// The gyroscope error estimators under translation, whose inclination corrections swing about zero.
@Suite("AttitudeFilter translation")
struct AttitudeFilterTranslationTests {
    @Test("a translation at 7 m/s² rms teaches no false bias: the inclination error is what the low-pass leaves",
          arguments: [0.5, 1.0])
    func translationTeachesNoBias(frequency: Double) {
        // Along x, 9.9 m/s² amplitude. The accelerometer's low-pass (second order, cut-off √2/(2π·3 s) =
        // 0.075 Hz) keeps (fc/f)² of it, a tilt swinging by atan(that / g): 0.91° rms at 0.5 Hz, 0.23° at
        // 1 Hz. The corrections swing by about ±0.08 and ±0.04 rad/s, across and near the bias limit of
        // 0.05 rad/s: skipping the ones past it one by one taught the 0.5 Hz swing a bias of 0.009 rad/s and
        // 1.41° rms.
        let amplitude = 7 * 2.0.squareRoot()
        let cutoff = 2.0.squareRoot() / (2 * .pi * AttitudeFilter.Settings().accelerometerTimeConstant)
        let kept = amplitude / (1 + pow(frequency / cutoff, 4)).squareRoot()
        let floor = atan(kept / 9.81) * 180 / .pi / 2.0.squareRoot()
        let bias = SIMD3<Double>(0.004, -0.003, 0.005)
        let motion = SyntheticMotion(
            initialAttitude: Quaternion(axis: SIMD3(0, 0, 1), angle: 0.3), bodyRate: .zero, gyroscopeBias: bias,
            linearAcceleration: { time in SIMD3(amplitude * sin(2 * .pi * frequency * time), 0, 0) },
            gyroscopeNoise: 0.003, accelerometerNoise: 0.03)
        var filter = AttitudeFilter()
        var squares = 0.0, count = 0
        motion.run(&filter, duration: 80, seed: 21, useMagnetometerReadings: false) { time, truth, filter in
            guard time > 10 else { return }
            squares += pow(inclinationError(filter.attitude, truth), 2)
            count += 1
        }
        let rms = (squares / Double(count)).squareRoot()
        #expect(rms < floor * 1.1 + 0.05, "inclination RMS \(rms)° at \(frequency) Hz, the low-pass leaves \(floor)°")
        let error = filter.gyroscopeBias - bias
        let horizontal = (error.x * error.x + error.y * error.y).squareRoot()
        #expect(horizontal < 0.001, "bias error about the horizontal axes \(horizontal) rad/s")
    }
}
