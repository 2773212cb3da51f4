import AgentTestSupport
import MotionMath
import Foundation
import MotionEngine
import MotionFusion
import MotionHAL
import MotionTestSupport
import Testing

/// `motionctl calibrate` end to end, unattended on recordings the test writes: a board with a known
/// gyroscope bias, accelerometer offset and gains, and magnetometer hard and soft iron, kept still, put on
/// its six faces and turned through every orientation; the file it writes must hold those errors.
@Suite struct MotionctlCalibrateTests {
    static let rate = 100.0
    static let g = 9.80665
    /// The true Earth field in the room (north, down), µT.
    static let earthField = SIMD3(0.0, 19.5, -44.5)

    static let gyroscopeBias = SIMD3(0.012, -0.021, 0.015)
    /// Accelerometer: raw = gains · true + offset.
    static let accelerometerGains = SIMD3(1.02, 0.98, 1.01)
    static let accelerometerOffset = SIMD3(0.3, -0.2, 0.5)
    /// Magnetometer: raw = softIron · true + hardIron.
    static let softIron = Matrix3(row0: SIMD3(1.12, 0.06, -0.03), row1: SIMD3(0.06, 0.91, 0.04), row2: SIMD3(-0.03, 0.04, 1.02))
    static let hardIron = SIMD3(21.5, -14.2, 36.8)

    /// Writes the motions in order as the distorted sensors read them, with noise of 0.003 rad/s, 0.02
    /// m/s² and 0.3 µT per axis.
    /// - Parameter motion: the attitude (body → room) at each sample, in order.
    static func writeRecording(_ attitudes: [Quaternion]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-\(UUID().uuidString).csv").path
        let writer = try IMURecordingWriter(path: path, includesMagnetometer: true, comment: "calibration test board")
        var random = SeededGenerator(seed: 2026)
        /// Independent normal deviates of standard deviation `sigma` (Box–Muller).
        func noise(_ sigma: Double) -> SIMD3<Double> {
            func gaussian() -> Double {
                let u1 = Double.random(in: Double.ulpOfOne..<1, using: &random), u2 = Double.random(in: 0..<1, using: &random)
                return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            }
            return SIMD3(gaussian(), gaussian(), gaussian()) * sigma
        }
        var samples: [IMUSample] = []
        for (index, attitude) in attitudes.enumerated() {
            let next = index + 1 < attitudes.count ? attitudes[index + 1] : attitude
            // Body rate from the step to the next attitude: q_next = q ⊗ exp(ω Δt / 2).
            let step = attitude.conjugate * next
            let rate = 2 * (step.w < 0 ? -step.vector : step.vector) * Self.rate
            let gravity = attitude.conjugate.rotate(SIMD3(0, 0, g))
            let field = attitude.conjugate.rotate(earthField)
            samples.append(IMUSample(
                timestamp: UInt64((Double(index) / Self.rate * 1e9).rounded()),
                acceleration: accelerometerGains * gravity + accelerometerOffset + noise(0.02),
                rotationRate: rate + gyroscopeBias + noise(0.003),
                magneticField: softIron * field + hardIron + noise(0.3)))
        }
        writer.append(samples)
        try writer.flush()
        return path
    }

    /// The attitude with body axis `up` pointing up.
    static func attitude(up: SIMD3<Double>) -> Quaternion {
        let axis = up.cross(SIMD3(0, 0, 1))
        if axis.length < 1e-9 { return up.z > 0 ? .identity : Quaternion(axis: SIMD3(1, 0, 0), angle: .pi) }
        return Quaternion(axis: axis, angle: acos(up.z))
    }

    /// `seconds` of stillness at `attitude`.
    static func still(_ attitude: Quaternion, seconds: Double) -> [Quaternion] {
        Array(repeating: attitude, count: Int(seconds * rate))
    }

    /// A smooth turn from `start` to `end` over `seconds`.
    static func turn(from start: Quaternion, to end: Quaternion, seconds: Double) -> [Quaternion] {
        var delta = start.conjugate * end
        if delta.w < 0 { delta = Quaternion(w: -delta.w, x: -delta.x, y: -delta.y, z: -delta.z) }
        let angle = 2 * acos(min(1, delta.w))
        let count = Int(seconds * rate)
        return (1...count).map { index in
            let s = Double(index) / Double(count)
            let eased = s * s * (3 - 2 * s)
            return start * Quaternion(axis: delta.vector, angle: eased * angle)
        }
    }

    /// Still for the gyroscope, then the given faces (2.5 s each, 1.5 s turns between them).
    static func faceSequence(_ faces: [AccelerometerFace]) -> [Quaternion] {
        var attitudes = still(.identity, seconds: 6)
        var current = Quaternion.identity
        for face in faces {
            let target = attitude(up: face.axis)
            attitudes += turn(from: current, to: target, seconds: 1.5) + still(target, seconds: 2.5)
            current = target
        }
        return attitudes
    }

    /// 30 s of turning through every orientation (three rotations of 9, 5 and 13 s periods), starting at
    /// `start`.
    static func tumble(from start: Quaternion) -> [Quaternion] {
        (0..<Int(30 * rate)).map { index in
            let t = Double(index) / rate
            return start * Quaternion(axis: SIMD3(0, 0, 1), angle: 2 * .pi * t / 9)
                * Quaternion(axis: SIMD3(1, 0, 0), angle: 2 * .pi * t / 5) * Quaternion(axis: SIMD3(0, 1, 0), angle: 2 * .pi * t / 13)
        }
    }

    private func temporaryOutput() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID().uuidString).json").path
    }

    @Test func calibratesAReplayedSessionAndWritesTheKnownErrors() throws {
        let faces: [AccelerometerFace] = [.positiveX, .negativeX, .positiveY, .negativeY, .negativeZ]
        let attitudes = Self.faceSequence(faces)
        let recording = try Self.writeRecording(attitudes + Self.tumble(from: attitudes.last!))
        let output = temporaryOutput()
        defer {
            try? FileManager.default.removeItem(atPath: recording)
            try? FileManager.default.removeItem(atPath: output)
        }
        let run = try AgentProcess.run(
            "motionctl", arguments: ["calibrate", "--device", "replay:\(recording),fast", "--output", output])
        #expect(run.status == 0, "\(run.output)\n\(run.log)")
        #expect(run.output.contains("keep the board still"))
        #expect(run.output.contains("still missing: +x up, -x up, +y up, -y up, +z up, -z up"))
        #expect(run.output.contains("+z up: ") && run.output.contains("still missing: -z up"))
        #expect(run.output.contains("turn the board slowly through every orientation"))
        #expect(run.output.contains("coverage ") && run.output.contains("quality: high"))
        #expect(run.output.contains("rad/s") && run.output.contains("m/s²") && run.output.contains("µT"))

        let calibration = try IMUCalibration.load(contentsOf: output)
        #expect(calibration.device.hasPrefix("replay:\(recording),fast (replay, "))
        // Gyroscope: the mean of ≥ 300 samples of 0.003 rad/s noise (σ 0.0002 rad/s).
        let bias = try #require(calibration.gyroscope).bias
        #expect(maxDifference(bias, Self.gyroscopeBias) < 0.001, "bias \(bias)")
        // Accelerometer: each face is the mean of ≥ 150 samples of 0.02 m/s² noise (σ ≈ 0.0016 m/s²).
        let accelerometer = try #require(calibration.accelerometer)
        #expect(maxDifference(accelerometer.offset, Self.accelerometerOffset) < 0.01, "offset \(accelerometer.offset)")
        let scale = SIMD3(accelerometer.scale.row0.x, accelerometer.scale.row1.y, accelerometer.scale.row2.z)
        #expect(maxDifference(scale, 1 / Self.accelerometerGains) < 1e-3, "scale \(scale)")
        #expect(accelerometer.scale.row0.y == 0 && accelerometer.scale.row1.z == 0 && accelerometer.scale.row2.x == 0)
        // Magnetometer: W · A = det(A)^⅓ · I, the field det(A)^⅓ · |B|, the hard iron within 0.3 µT.
        let magnetometer = try #require(calibration.magnetometer)
        let size = cbrt(Self.softIron.determinant)
        #expect(maxDifference(magnetometer.hardIron, Self.hardIron) < 0.3, "hard iron \(magnetometer.hardIron)")
        #expect(abs(magnetometer.fieldStrength - size * Self.earthField.length) < 0.3, "field \(magnetometer.fieldStrength)")
        let correction = Matrix3(row0: magnetometer.softIron.row0, row1: magnetometer.softIron.row1, row2: magnetometer.softIron.row2)
        let product = correction * Self.softIron
        for (row, axis) in zip([product.row0, product.row1, product.row2], [SIMD3(1.0, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]) {
            #expect(maxDifference(row, size * axis) < 5e-3, "W·A row \(row)")
        }
        #expect(abs(magnetometer.residual - 0.3) < 0.1 && magnetometer.coverage >= 0.75 && magnetometer.quality == .high)
    }

    @Test func theNoiseStepMeasuresEachAxisAllanDeviationWritesItAndPlotsIt() throws {
        // 30 s still: the noise step takes the first 20 s, the gyroscope bias the next 3 s.
        let recording = try Self.writeRecording(Self.still(Self.attitude(up: SIMD3(0, 0, 1)), seconds: 30))
        let output = temporaryOutput()
        let plot = output + ".svg"
        defer {
            for path in [recording, output, plot] { try? FileManager.default.removeItem(atPath: path) }
        }
        let run = try AgentProcess.run(
            "motionctl",
            arguments: [
                "calibrate", "--device", "replay:\(recording),fast", "--output", output, "--steps", "gyro,noise",
                "--noise-seconds", "20", "--plot", plot,
            ])
        #expect(run.status == 0, "\(run.output)\n\(run.log)")
        #expect(run.output.contains("Noise: keep the board still") && run.output.contains("°/s/√Hz") && run.output.contains("µg/√Hz"))
        let noise = try #require(try IMUCalibration.load(contentsOf: output).noise)
        // White noise of 0.003 rad/s and 0.02 m/s² per sample at 100 Hz: densities of 3e-4 rad/s/√Hz and
        // 2e-3 m/s²/√Hz.
        let gyroscope = try #require(noise.gyroscope), accelerometer = try #require(noise.accelerometer)
        #expect(maxDifference(gyroscope.noiseDensity, SIMD3(repeating: 3e-4)) < 3e-5, "\(gyroscope.noiseDensity)")
        #expect(maxDifference(accelerometer.noiseDensity, SIMD3(repeating: 2e-3)) < 2e-4, "\(accelerometer.noiseDensity)")
        // White noise only: no floor within 20 s, so the bias instability is the last point's upper bound,
        // about N / √(20 s / 9) / 0.664 = 3e-4 rad/s (that point rests on nine clusters: ±25 % or so).
        #expect(gyroscope.biasInstability.min() > 1.5e-4 && gyroscope.biasInstability.max() < 6e-4, "\(gyroscope.biasInstability)")
        let written = try IMUCalibration.load(contentsOf: output)
        #expect(abs(noise.duration - 20) < 1 && written.gyroscope != nil)
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.components(separatedBy: "<polyline").count == 7, "three axes of two sensors")
        // The attitude filter takes its noise settings from it (the uncertainty, rest detection).
        var settings = AttitudeFilter.Settings()
        settings.apply(noise)
        #expect(abs(settings.gyroscopeNoiseDensity - 3e-4) < 3e-5)
        #expect(abs(settings.accelerometerNoiseDensity - 2e-3) < 2e-4)
    }

    @Test func theNoiseStepRefusesAPlotWithoutItAndTooShortARecording() throws {
        let run = try AgentProcess.run("motionctl", arguments: ["calibrate", "--device", "sim", "--output", "/dev/null", "--plot", "x.svg"])
        #expect(run.status == 64 && run.log.contains("--plot needs the noise step"))
        let short = try AgentProcess.run(
            "motionctl", arguments: ["calibrate", "--device", "sim", "--output", "/dev/null", "--steps", "noise", "--noise-seconds", "5"])
        #expect(short.status == 64 && short.log.contains("--noise-seconds must be at least 10"))
    }

    @Test func aSessionWithoutEveryFaceFailsNamingTheMissingOne() throws {
        // No -z face, and the recording ends there.
        let recording = try Self.writeRecording(Self.faceSequence([.positiveX, .negativeX, .positiveY, .negativeY]))
        let output = temporaryOutput()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let run = try AgentProcess.run(
            "motionctl", arguments: ["calibrate", "--device", "replay:\(recording),fast", "--output", output, "--steps", "gyro,accel"])
        #expect(run.status == 65, "\(run.output)\n\(run.log)")
        #expect(run.log.contains("still missing: -z up"), "\(run.log)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aStepThatRunsOutOfTimeFails() throws {
        // 6 s of stillness, then only turning: the accelerometer step cannot finish within 5 s.
        let recording = try Self.writeRecording(Self.faceSequence([]) + Self.tumble(from: .identity))
        let output = temporaryOutput()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let run = try AgentProcess.run(
            "motionctl",
            arguments: ["calibrate", "--device", "replay:\(recording),fast", "--output", output, "--steps", "accel,gyro", "--seconds-per-step", "5"])
        #expect(run.status == 65, "\(run.output)\n\(run.log)")
        #expect(run.log.contains("step accel did not finish within 5 s"), "\(run.log)")
    }

    @Test func usageErrorsAreRefused() throws {
        let output = temporaryOutput()
        let steps = try AgentProcess.run("motionctl", arguments: ["calibrate", "--device", "sim", "--output", output, "--steps", "gyro,compass"])
        #expect(steps.status == 64 && steps.log.contains("--steps"))
        let seconds = try AgentProcess.run("motionctl", arguments: ["calibrate", "--device", "sim", "--output", output, "--seconds-per-step", "0"])
        #expect(seconds.status == 64 && seconds.log.contains("--seconds-per-step"))
        let device = try AgentProcess.run("motionctl", arguments: ["calibrate", "--device", "replay:/nonexistent.csv", "--output", output])
        #expect(device.status == 69 && device.log.contains("/nonexistent.csv"))
    }

    private func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let difference = a - b
        return max(abs(difference.x), abs(difference.y), abs(difference.z))
    }
}
