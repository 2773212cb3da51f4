import MotionFusion
import MotionMath
import MotionTestSupport
import Testing

/// Gyroscope bias from a still period.
@Suite struct CalibrationGyroscopeTests {
    /// A board lying still for 2 s at 100 Hz: bias plus white noise of 0.003 rad/s and 0.02 m/s² per axis.
    private func stillReadings(bias: SIMD3<Double>, seed: UInt64, count: Int = 200)
        -> (rates: [SIMD3<Double>], forces: [SIMD3<Double>])
    {
        var random = SeededGenerator(seed: seed)
        let rates = (0..<count).map { _ in bias + random.gaussianVector(standardDeviation: 0.003) }
        let forces = (0..<count).map { _ in SIMD3(0, 0, 9.80665) + random.gaussianVector(standardDeviation: 0.02) }
        return (rates, forces)
    }

    @Test func recoversTheBiasOfAStillPeriod() throws {
        let bias = SIMD3(0.0123, -0.0456, 0.0078)
        let readings = stillReadings(bias: bias, seed: 7)
        let calibration = try GyroscopeBiasCalibration(rotationRates: readings.rates, specificForces: readings.forces)
        // The mean of 200 samples of 0.003 rad/s noise: σ = 0.0002 rad/s per axis; 4σ tolerance.
        #expect((calibration.bias - bias).length < 0.0008)
        #expect(calibration.sampleCount == 200)
        // Spread √3 · 0.003 ≈ 0.0052 rad/s.
        #expect(abs(calibration.rotationRateSpread - 0.0052) < 0.0008)
    }

    @Test func refusesAPeriodInWhichTheBoardTurned() {
        var readings = stillReadings(bias: .zero, seed: 8)
        // A turn of 0.2 rad/s for a quarter of the period.
        for index in 100..<150 { readings.rates[index].z += 0.2 }
        #expect(throws: CalibrationError.self) {
            try GyroscopeBiasCalibration(rotationRates: readings.rates, specificForces: readings.forces)
        }
        do {
            _ = try GyroscopeBiasCalibration(rotationRates: readings.rates, specificForces: readings.forces)
        } catch {
            guard case .notStill(let why) = error else { Issue.record("expected notStill, got \(error)"); return }
            #expect(why.contains("rotation rate") && why.contains("rad/s"))
        }
    }

    @Test func refusesAPeriodInWhichTheBoardWasPushed() {
        var readings = stillReadings(bias: .zero, seed: 9)
        for index in 0..<40 { readings.forces[index].x += 1.0 }
        #expect(throws: CalibrationError.self) {
            try GyroscopeBiasCalibration(rotationRates: readings.rates, specificForces: readings.forces)
        }
    }

    @Test func refusesTooFewSamples() {
        let readings = stillReadings(bias: .zero, seed: 10, count: 20)
        #expect(throws: CalibrationError.tooFewSamples("20 samples for the gyroscope bias, need at least 50")) {
            try GyroscopeBiasCalibration(rotationRates: readings.rates, specificForces: readings.forces)
        }
    }
}
