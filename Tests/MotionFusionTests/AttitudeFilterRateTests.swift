import Foundation
import MotionFusion
import MotionMath
import Testing

/// Issue 32: the filter's rate-dependent parts (the per-step gains, the gain cache keyed by the interval,
/// the Butterworth low-passes, the rest detector's windows, the heading corrections at most every 10 ms)
/// are written in seconds, so the same motion gives the same estimate at any sample rate. Each test runs
/// one synthetic motion at 50 Hz to 1 kHz and checks a figure whose physics fixes its value in seconds.
@Suite("AttitudeFilter rate independence")
struct AttitudeFilterRateTests {
    static let rates: [Double] = [50, 100, 200, 400, 1000]

    @Test("rest is detected after 1.5 s still, within one sample period, and the bias is measured, at every rate")
    func restDetectionTakesTheSameTimeAtEveryRate() {
        let bias = SIMD3<Double>(0.012, -0.018, 0.009)
        for rate in Self.rates {
            // The same noise density at every rate: 0.01 °/s/√Hz and 100 µg/√Hz over the Nyquist band.
            let bandwidth = (rate / 2).squareRoot()
            let motion = SyntheticMotion(
                initialAttitude: Quaternion(axis: SIMD3(0.3, -1, 0.4), angle: 1.2), gyroscopeBias: bias,
                gyroscopeNoise: radians(0.01) * bandwidth, accelerometerNoise: 100e-6 * 9.81 * bandwidth)
            var filter = AttitudeFilter()
            var restAt: Double?
            motion.run(&filter, duration: 10, rate: rate, seed: 7) { time, _, filter in
                if restAt == nil, filter.isAtRest { restAt = time }
            }
            guard let detected = restAt else {
                Issue.record("\(rate) Hz: never at rest")
                continue
            }
            // Stillness adds up the intervals from the first reading: 1.5 s, or one period more where the
            // sum of the periods falls a rounding short of it.
            #expect(detected >= 1.5 - 1e-9 && detected <= 1.5 + 1 / rate + 1e-9, "\(rate) Hz: at rest at \(detected) s")
            let error = degrees((filter.gyroscopeBias - bias).length)
            #expect(error < 0.05, "\(rate) Hz: bias error \(error) °/s after 10 s")
        }
    }

    @Test("a 2 s push of 3 m/s² tilts the estimate by the same angle at every rate (the low-pass is in seconds)")
    func aLinearAccelerationTiltsTheSameAtEveryRate() {
        var largest: [Double] = []
        for rate in Self.rates {
            let motion = SyntheticMotion(
                initialAttitude: .identity,
                linearAcceleration: { time in (10..<12).contains(time) ? SIMD3(3, 0, 0) : .zero })
            var filter = AttitudeFilter()
            var worst = 0.0
            motion.run(&filter, duration: 20, rate: rate, useMagnetometerReadings: false) { _, truth, filter in
                worst = max(worst, inclinationError(filter.attitude, truth))
            }
            largest.append(worst)
        }
        // Seen through the 3 s low-pass, 2 s of 3 m/s² (17° of apparent tilt) moves "up" by about 7.8°.
        let mean = largest.reduce(0, +) / Double(largest.count)
        #expect(mean > 6 && mean < 9, "largest tilt \(largest) °")
        for (rate, worst) in zip(Self.rates, largest) {
            #expect(abs(worst - mean) < 0.02 * mean, "\(rate) Hz: largest tilt \(worst)° against \(mean)° on average")
        }
    }

    @Test("a gyroscope bias about the vertical holds the heading off by bias × the magnetometer's time constant, at every rate")
    func theHeadingLagsByTheSameAngleAtEveryRate() {
        // With the bias left unestimated, the gyroscope turns the heading at b and the magnetometer pulls it
        // back at error / τ: they balance at error = b·τ (0.0005 rad/s × 15 s = 0.43°).
        let bias = 0.0005
        let settings = AttitudeFilter.Settings(
            useMagnetometer: true, estimatesGyroscopeBias: false, motionBiasTimeConstant: 0, gyroscopeScaleTimeConstant: 0)
        let expected = degrees(bias * settings.magnetometerTimeConstant)
        for rate in Self.rates {
            let motion = SyntheticMotion(initialAttitude: .identity, gyroscopeBias: SIMD3(0, 0, bias))
            var filter = AttitudeFilter(settings: settings)
            var heading = 0.0
            motion.run(&filter, duration: 120, rate: rate) { _, truth, filter in
                heading = headingError(filter.attitude, truth)
            }
            #expect(abs(heading - expected) < 0.02 * expected, "\(rate) Hz: heading off by \(heading)°, expected \(expected)°")
        }
    }
}
