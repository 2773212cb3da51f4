@testable import CoreMotion
import Foundation
import MotionEngine
import MotionHAL
import MotionMath
import MotionModel
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// CoreMotion with a calibration: device motion's field is corrected and its accuracy is the grade; raw
/// gyroscope and magnetometer data stay raw; without a calibration nothing changes. On private engines, fed
/// synchronously by a scripted device.
@Suite(.serialized) struct CalibratedMotionTests {
    /// The board's true field at rest (north and down), µT.
    static let trueField = SIMD3(0.0, 19.5, -44.5)
    /// The magnetometer's distortion: raw = A · true + hard iron.
    static let distortion = Matrix3(row0: SIMD3(1.1, 0.05, 0), row1: SIMD3(0.05, 0.9, 0), row2: SIMD3(0, 0, 1.05))
    static let hardIron = SIMD3(12.0, -25.0, 30.0)
    static let gyroscopeBias = SIMD3(0.01, -0.02, 0.005)

    /// A⁻¹ of ``distortion`` (its 2×2 block inverted by hand; z is diagonal).
    static var correction: Matrix3 {
        let determinant = 1.1 * 0.9 - 0.05 * 0.05
        return Matrix3(
            row0: SIMD3(0.9 / determinant, -0.05 / determinant, 0), row1: SIMD3(-0.05 / determinant, 1.1 / determinant, 0),
            row2: SIMD3(0, 0, 1 / 1.05))
    }

    static func calibration(quality: IMUCalibration.Quality) -> IMUCalibration {
        IMUCalibration(
            created: Date(timeIntervalSince1970: 0), device: "scripted",
            gyroscope: .init(bias: gyroscopeBias),
            accelerometer: .init(offset: SIMD3(0, 0, 0.2), scale: .identity, residual: 0),
            magnetometer: .init(hardIron: hardIron, softIron: correction, fieldStrength: 48.6, residual: 0.4, coverage: 0.9, quality: quality))
    }

    /// Resting samples as the distorted sensors read them: accelerometer offset 0.2 m/s² on z, gyroscope
    /// bias, hard and soft iron.
    static func rawSamples(_ device: ScriptedIMU, count: Int = 40) -> [IMUSample] {
        device.restingSamples(count: count).map { sample in
            var raw = sample
            raw.acceleration = sample.acceleration! + SIMD3(0, 0, 0.2)
            raw.rotationRate = gyroscopeBias
            raw.magneticField = distortion * trueField + hardIron
            return raw
        }
    }

    /// What a delivered item showed: device motion's field, accuracy and rotation rate, or a raw vector.
    struct Observation: Sendable {
        var vector: SIMD3<Double>
        var accuracy: MagneticFieldAccuracy?
        var rotationRate: SIMD3<Double>?

        init?(_ item: MotionSample?) {
            switch item {
            case .deviceMotion(let motion):
                vector = motion.magneticField
                accuracy = motion.magneticAccuracy
                rotationRate = motion.rotationRate
            case .vector(let reading):
                vector = reading.value
            case .fused, nil:
                return nil
            }
        }
    }

    /// Runs `services` on a private engine fed the raw samples; returns the last item of each.
    private func run(_ services: [MotionStream], calibration: IMUCalibration?) -> [Observation?] {
        let hub = MotionEngine(environment: MotionEngineEnvironment())
        let device = ScriptedIMU()
        hub.setDevice(device)
        hub.setCalibration(calibration)
        let recorders = services.map { _ in Recorder<Observation>() }
        let subscriptions = zip(services, recorders).map { service, recorder in
            MotionSubscription(service: service, interval: 0) { _, item, _ in
                if let observation = Observation(item) { recorder.append(observation) }
            }
        }
        for subscription in subscriptions { #expect(hub.subscribe(subscription)) }
        device.emit(.samples(Self.rawSamples(device)))
        for subscription in subscriptions { hub.unsubscribe(subscription) }
        return recorders.map(\.all.last)
    }

    @Test(arguments: [(IMUCalibration.Quality.low, MagneticFieldAccuracy.low), (.medium, .medium), (.high, .high)])
    func deviceMotionReportsTheGradeAndTheCorrectedField(quality: IMUCalibration.Quality, accuracy: MagneticFieldAccuracy) throws {
        let items = run([.deviceMotion(.xMagneticNorthZVertical)], calibration: Self.calibration(quality: quality))
        let motion = try #require(items[0])
        #expect(motion.accuracy == accuracy)
        #expect(((motion.vector - Self.trueField) * (motion.vector - Self.trueField)).max() < 1e-18, "field \(motion.vector)")
        // The gyroscope bias is removed before fusion: at rest the rotation rate is zero.
        let rate = try #require(motion.rotationRate)
        #expect((rate * rate).max() < 1e-18, "rotation rate \(rate)")
    }

    @Test func withoutACalibrationTheFieldIsRawAsBefore() throws {
        let items = run([.deviceMotion(.xMagneticNorthZVertical), .deviceMotion(.xArbitraryZVertical)], calibration: nil)
        let motion = try #require(items[0])
        #expect(motion.vector == Self.distortion * Self.trueField + Self.hardIron)
        #expect(motion.accuracy == .low || motion.accuracy == .uncalibrated)
        // The 6-axis frame reports no field, calibrated or not.
        #expect(try #require(items[1]).accuracy == .uncalibrated)
        let calibratedSixAxis = try #require(run([.deviceMotion(.xArbitraryZVertical)], calibration: Self.calibration(quality: .high))[0])
        #expect(calibratedSixAxis.accuracy == .uncalibrated && calibratedSixAxis.vector == .zero)
    }

    @Test func rawDataStaysRawAndTheAccelerometerIsCorrected() throws {
        let items = run([.gyroscope, .magnetometer, .accelerometer], calibration: Self.calibration(quality: .high))
        #expect(try #require(items[0]).vector == Self.gyroscopeBias)
        #expect(try #require(items[1]).vector == Self.distortion * Self.trueField + Self.hardIron)
        // The accelerometer's 0.2 m/s² offset is removed: 9.81 m/s² up reads -9.81 / 9.80665 g.
        let acceleration = try #require(items[2]).vector
        #expect(acceleration.x == 0 && acceleration.y == 0 && abs(acceleration.z - -9.81 / 9.80665) < 1e-12)
    }

    @Test func motionCalibrationVariableIsReadOnFirstUse() throws {
        // An identity calibration of grade medium.
        let identity = IMUCalibration(
            created: Date(timeIntervalSince1970: 0), device: "identity",
            magnetometer: .init(hardIron: .zero, softIron: .identity, fieldStrength: 48.6, residual: 1, coverage: 0.6, quality: .medium))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID().uuidString).json").path
        try identity.save(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        func engine(_ variables: [String: String]) -> MotionEngine {
            MotionEngine(environment: MotionEngineEnvironment(variables: variables))
        }
        #expect(engine(["MOTION_CALIBRATION": path]).calibration == identity)
        #expect(engine(["MOTION_CALIBRATION": "/nonexistent/calibration.json"]).calibration == nil)
        #expect(engine([:]).calibration == nil)
        // A calibration set through the API wins over the variable.
        let chosen = engine(["MOTION_CALIBRATION": path])
        chosen.setCalibration(nil)
        #expect(chosen.calibration == nil)
    }
}

extension CMMotionManagerDeviceTests {
    /// The public Linux API, on the process-wide hub (nested to run apart from the other device tests).
    @Suite struct LinuxCalibrationTests {
        @Test func useCalibrationLoadsTheFileOrNamesTheProblem() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID().uuidString).json").path
            defer {
                try? FileManager.default.removeItem(atPath: path)
                CMLinuxMotionDevice.useCalibration(nil)
            }
            let calibration = CalibratedMotionTests.calibration(quality: .medium)
            try calibration.save(to: path)
            try CMLinuxMotionDevice.useCalibration(contentsOf: path)
            #expect(CMLinuxMotionDevice.calibration == calibration)
            try Data("{\"format_version\": 1}".utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: IMUCalibrationError.invalid(path: path, field: "created", reason: "is missing")) {
                try CMLinuxMotionDevice.useCalibration(contentsOf: path)
            }
            #expect(CMLinuxMotionDevice.calibration == calibration)
        }
    }
}
