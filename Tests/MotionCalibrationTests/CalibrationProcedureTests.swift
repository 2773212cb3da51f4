import Foundation
import MotionCalibration
import MotionHAL
import MotionMath
import Testing

/// The guided calibration's state machine fed synthetic samples with a known answer: no device, no
/// binary, no clock but the samples' own.
@Suite struct CalibrationProcedureTests {
    static let rate = 100.0
    static let bias = SIMD3(0.012, -0.02, 0.004)
    static let hardIron = SIMD3(15.0, -30.0, 8.0)

    /// Samples of a board at rest with its `up` axis (device coordinates, a unit vector) pointing up,
    /// for `seconds`, from `start` ns.
    static func resting(up: SIMD3<Double>, seconds: Double, from start: inout UInt64) -> [IMUSample] {
        (0..<Int(seconds * rate)).map { _ in
            defer { start += UInt64(1e9 / rate) }
            return IMUSample(timestamp: start, acceleration: 9.81 * up, rotationRate: bias, magneticField: nil)
        }
    }

    /// Samples of a board being turned (between two rests): changing force and a large rotation rate.
    static func turning(seconds: Double, from start: inout UInt64) -> [IMUSample] {
        (0..<Int(seconds * rate)).map { index in
            defer { start += UInt64(1e9 / rate) }
            let angle = Double(index) / 10
            return IMUSample(
                timestamp: start, acceleration: SIMD3(3 * sin(angle), 3 * cos(angle), 9), rotationRate: SIMD3(1.5, -1, 0.5),
                magneticField: nil)
        }
    }

    private func run(_ steps: [CalibrationStep], _ samples: [IMUSample], secondsPerStep: Double = 30) throws
        -> (CalibrationProcedure, [String])
    {
        final class Transcript { var lines: [String] = [] }
        let transcript = Transcript()
        var procedure = CalibrationProcedure(steps: steps, secondsPerStep: secondsPerStep) { transcript.lines.append($0) }
        for sample in samples where !procedure.isFinished { try procedure.add(sample) }
        return (procedure, transcript.lines)
    }

    @Test func aStillPeriodGivesTheGyroscopeBias() throws {
        var time: UInt64 = 1_000_000_000
        let samples = Self.turning(seconds: 1, from: &time) + Self.resting(up: SIMD3(0, 0, 1), seconds: 4, from: &time)
        let (procedure, said) = try run([.gyro], samples)
        #expect(procedure.isFinished)
        let bias = try #require(procedure.gyroscope?.bias)
        #expect((bias - Self.bias).length < 1e-9)
        #expect(said.first?.hasPrefix("Gyroscope: keep the board still") == true)
        #expect(said.contains { $0.contains("gyroscope bias measured") })
        let file = procedure.calibration(device: "synthetic", created: Date(timeIntervalSince1970: 0))
        #expect(file.gyroscope?.bias == bias && file.accelerometer == nil && file.magnetometer == nil)
    }

    @Test func sixFacesGiveTheAccelerometerAndRepeatedFacesAreNamed() throws {
        var time: UInt64 = 0
        var samples: [IMUSample] = []
        let faces: [SIMD3<Double>] = [SIMD3(0, 0, 1), SIMD3(0, 0, -1), SIMD3(0, 0, 1), SIMD3(1, 0, 0), SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -1, 0)]
        for up in faces {
            samples += Self.resting(up: up, seconds: 2, from: &time)
            samples += Self.turning(seconds: 0.6, from: &time)
        }
        let (procedure, said) = try run([.accel], samples)
        #expect(procedure.isFinished)
        let accelerometer = try #require(procedure.accelerometer)
        #expect(accelerometer.offset.length < 1e-6 && accelerometer.residualRMS < 1e-6)
        #expect(said.contains { $0.contains("is done already") }, "the repeated face: \(said)")
    }

    @Test func turningThroughEveryOrientationGivesTheMagnetometer() throws {
        var readings: [IMUSample] = []
        let earth = SIMD3(20.0, 0, -44)
        // Directions spread over the sphere (a Fibonacci spiral), as a person turning the board gives.
        let count = 1500
        for index in 0..<count {
            let z = 1 - 2 * (Double(index) + 0.5) / Double(count)
            let azimuth = Double(index) * Double.pi * (3 - 5.0.squareRoot())
            let axis = SIMD3(sqrt(1 - z * z) * cos(azimuth), sqrt(1 - z * z) * sin(azimuth), z)
            let turn = Quaternion(axis: axis.cross(SIMD3(0, 0, 1)).length > 1e-9 ? axis.cross(SIMD3(0, 0, 1)) : SIMD3(1, 0, 0),
                                  angle: acos(max(-1, min(1, z))))
            readings.append(IMUSample(
                timestamp: UInt64(index) * 10_000_000, acceleration: SIMD3(0, 0, 9.81), rotationRate: .zero,
                magneticField: turn.conjugate.rotate(earth) + Self.hardIron))
        }
        let (procedure, said) = try run([.mag], readings)
        #expect(procedure.isFinished, "\(procedure.progress)")
        let magnetometer = try #require(procedure.magnetometer)
        #expect((magnetometer.hardIron - Self.hardIron).length < 0.5, "hard iron \(magnetometer.hardIron)")
        #expect(abs(magnetometer.fieldStrength - earth.length) < 0.5)
        #expect(said.contains { $0.hasPrefix("  coverage") })
    }

    @Test func aStepThatRunsOutOfTimeFailsSayingWhatIsMissing() throws {
        var time: UInt64 = 0
        let moving = Self.turning(seconds: 12, from: &time)
        #expect(throws: CalibrationProcedure.Failure.self) { try run([.gyro], moving, secondsPerStep: 10) }
        do {
            _ = try run([.gyro], moving, secondsPerStep: 10)
        } catch {
            #expect("\(error)" == "step gyro did not finish within 10 s: the board was never still for 3 s")
        }
        // Steps run in the standard order whatever the list says.
        #expect(CalibrationStep.parseList("mag, gyro") == [.gyro, .mag])
        #expect(CalibrationStep.parseList("gyro,compass") == nil)
    }
}
