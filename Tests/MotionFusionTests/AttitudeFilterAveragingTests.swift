import Foundation
import MotionFusion
import MotionMath
import Testing

/// What the filter measures of a constant (the gyroscope's bias at rest, the heading from the first
/// magnetometer readings) it averages, so its error falls with the square root of the time measured, as
/// the noise's physics allows, instead of following the latest readings at a fixed rate.
@Suite("AttitudeFilter averaging")
struct AttitudeFilterAveragingTests {
    /// A gyroscope noise density, rad/s/√Hz (0.01 °/s/√Hz, a consumer MEMS gyroscope's).
    private let density = radians(0.01)
    private let rate = 100.0

    @Test("the bias at rest is the mean of the whole rest: after 60 s within 4 σ of N / √(2T)", arguments: [1, 2, 3] as [UInt64])
    func theBiasAtRestIsTheRestsMean(seed: UInt64) {
        let bias = SIMD3<Double>(0.012, -0.018, 0.009)
        let motion = SyntheticMotion(
            initialAttitude: Quaternion(axis: SIMD3(1, 0.5, 0), angle: 0.4), gyroscopeBias: bias,
            gyroscopeNoise: density * (rate / 2).squareRoot(), accelerometerNoise: 0.02)
        var filter = AttitudeFilter()
        motion.run(&filter, duration: 60, rate: rate, seed: seed)
        // 1.5 s to detect the rest, then the mean of 58.5 s of readings.
        let deviation = density / (2 * 58.5).squareRoot()
        let error = filter.gyroscopeBias - bias
        for axis in 0..<3 {
            #expect(abs(error[axis]) < 4 * deviation, "axis \(axis): \(degrees(error[axis])) °/s, σ \(degrees(deviation)) °/s")
        }
    }

    @Test("a bias that changes between two rests is measured afresh in the second")
    func eachRestMeasuresTheBiasAfresh() {
        let first = SIMD3<Double>(0.012, -0.018, 0.009), second = SIMD3<Double>(-0.01, 0.004, 0.02)
        var filter = AttitudeFilter()
        SyntheticMotion(initialAttitude: .identity, gyroscopeBias: first).run(&filter, duration: 20, rate: rate)
        #expect(filter.isAtRest && degrees((filter.gyroscopeBias - first).length) < 0.005)
        // Turned (a pulse of 20 °/s for 1 s ends the rest), then still again with the new bias.
        let turn = SyntheticMotion(initialAttitude: .identity, bodyRate: SIMD3(0, 0, radians(20)), gyroscopeBias: second)
        turn.run(&filter, from: 20, duration: 1, rate: rate)
        #expect(!filter.isAtRest)
        let still = SyntheticMotion(initialAttitude: turn.attitude(at: 1), gyroscopeBias: second)
        still.run(&filter, from: 21, duration: 10, rate: rate)
        #expect(filter.isAtRest && degrees((filter.gyroscopeBias - second).length) < 0.005, "\(filter.gyroscopeBias)")
    }

    @Test("the first heading is the mean of the first readings: 5 s after the start, within 0.4° with 1 µT of noise",
          arguments: [1, 2, 3, 4] as [UInt64])
    func theFirstHeadingAveragesTheReadings(seed: UInt64) {
        // 1 µT on a 19.5 µT horizontal field: each reading's heading is off by about 3°; the mean of 500 by
        // 0.13°, where following them at 15 s would leave 72 % of the first reading's error after 5 s.
        let motion = SyntheticMotion(
            initialAttitude: Quaternion(axis: SIMD3(0, 0, 1), angle: 1), gyroscopeNoise: 0.002, accelerometerNoise: 0.01,
            magnetometerNoise: 1)
        var filter = AttitudeFilter(settings: .init(useMagnetometer: true))
        var error = 0.0
        motion.run(&filter, duration: 5, rate: rate, seed: seed) { _, truth, filter in
            error = headingError(filter.attitude, truth)
        }
        #expect(abs(error) < 0.4, "heading off by \(error)° after 5 s")
    }
}
