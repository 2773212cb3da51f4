import Foundation
import MotionHAL
import Testing

/// A calibration corrects each reading by the documented formula (the engine applies it to every sample
/// before fusion).
@Suite struct IMUCalibrationTests {
    static let calibration = IMUCalibration(
        created: Date(timeIntervalSince1970: 0), device: "test",
        // The simulator's gyroscope bias at rest (see BuiltInDeviceConformanceTests).
        gyroscope: .init(bias: SIMD3(0.005, -0.008, 0.003)),
        accelerometer: .init(offset: SIMD3(0.2, -0.1, 0.1), scale: .init(row0: SIMD3(1.01, 0, 0), row1: SIMD3(0, 0.99, 0), row2: SIMD3(0, 0, 1.01)), residual: 0),
        magnetometer: .init(
            hardIron: SIMD3(5, 10, -20), softIron: .init(row0: SIMD3(1, 0, 0), row1: SIMD3(0, 2, 0), row2: SIMD3(0, 0, 1)),
            fieldStrength: 48, residual: 0.3, coverage: 0.9, quality: .high))

    @Test func applyCorrectsEachPartByTheDocumentedFormula() {
        let sample = IMUSample(
            timestamp: 42, acceleration: SIMD3(1, 2, 10), rotationRate: SIMD3(0.1, 0.2, 0.3), magneticField: SIMD3(30, 40, -50))
        let corrected = Self.calibration.apply(to: sample)
        #expect(corrected.timestamp == 42)
        #expect(corrected.rotationRate == SIMD3(0.1 - 0.005, 0.2 + 0.008, 0.3 - 0.003))
        #expect(corrected.acceleration == SIMD3(1.01 * (1 - 0.2), 0.99 * (2 + 0.1), 1.01 * (10 - 0.1)))
        #expect(corrected.magneticField == SIMD3<Double>(30 - 5, 2 * (40 - 10), -50 + 20))
        // Absent parts and absent readings are left as they are.
        let gyroscopeOnly = IMUCalibration(created: Date(), device: "x", gyroscope: Self.calibration.gyroscope)
        let partly = gyroscopeOnly.apply(to: sample)
        #expect(partly.acceleration == sample.acceleration && partly.magneticField == sample.magneticField)
        let bare = Self.calibration.apply(to: IMUSample(timestamp: 1, acceleration: SIMD3(0, 0, 9.8)))
        #expect(bare.rotationRate == nil && bare.magneticField == nil)
    }
}
