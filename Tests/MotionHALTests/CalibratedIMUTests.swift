import Foundation
import MotionHAL
import Synchronization
import Testing

/// A device wrapped with a calibration delivers exactly the calibrated samples and otherwise behaves as
/// the device it wraps.
@Suite struct CalibratedIMUTests {
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

    @Test func deliversExactlyTheCalibratedSamplesOfTheWrappedDevice() throws {
        let samples = (0..<100).map { index in
            let t = Double(index) * 0.01
            return IMUSample(
                timestamp: UInt64(index) * 10_000_000, acceleration: SIMD3(sin(t), cos(t), 9.8),
                rotationRate: SIMD3(t, -t, 0.5 * t), magneticField: SIMD3(20 + t, -30, 40 - t))
        }
        let replay = ReplayIMU(recording: IMURecording(samples: samples, sampleRate: 100), name: "synthetic", asFastAsPossible: true)
        let device = CalibratedIMU(replay, calibration: Self.calibration)
        #expect(device.info.chip == "synthetic (calibrated)")
        #expect(device.info.driver == "replay" && device.info.sensors == .all && device.info.defaultSampleRate == 100)
        let collector = ReplayIMUTests.Collector()
        try device.start(sampleRate: 100, handler: collector.handler)
        Thread.sleep(forTimeInterval: 0.3)
        device.stop()
        let delivered = collector.all
        #expect(delivered.count == 100)
        for (calibrated, raw) in zip(delivered, samples) {
            var expected = Self.calibration.apply(to: raw)
            expected.timestamp = calibrated.timestamp  // replay moves timestamps to the run
            #expect(calibrated == expected)
        }
    }

    @Test func keepsTheDeviceContract() throws {
        // The stationary simulator reads (0, 0, 9.81) m/s², its bias in rad/s, (0, 19.5, -44.5) µT.
        try IMUDeviceConformance.check(
            { try IMUDeviceSpecification.open("sim:motion=stationary", calibration: Self.calibration) },
            expecting: .init(
                acceleration: SIMD3(1.01 * -0.2, 0.99 * 0.1, 1.01 * (9.80665 - 0.1)), rotationRate: .zero,
                magneticField: SIMD3(-5, 2 * (19.5 - 10), -44.5 + 20), magneticFieldTolerance: 1))
    }

    @Test func faultsPassThroughAndNoCalibrationMeansTheDeviceItself() throws {
        let device = try IMUDeviceSpecification.open("sim:motion=stationary,fault_after=0.05", calibration: Self.calibration)
        let faults = Mutex<[IMUDeviceError]>([])
        try device.start(sampleRate: 200) { event in
            if case .fault(let fault) = event { faults.withLock { $0.append(fault) } }
        }
        Thread.sleep(forTimeInterval: 0.2)
        device.stop()
        #expect(faults.withLock { $0 } == [.readFailed("simulated fault")])
        let plain = try IMUDeviceSpecification.open("sim", calibration: nil)
        #expect(!(plain is CalibratedIMU) && plain.info.chip == "simulated 9-axis IMU")
    }
}
