import MotionMath
import MotionCalibration
import Foundation
import MotionFusion
import MotionHAL
import Synchronization

/// `motionctl calibrate`: guides a person through calibrating an IMU (gyroscope bias, accelerometer offset
/// and scale, magnetometer hard and soft iron, and on request the sensors' noise), prints the results and writes the calibration file that
/// `motion-agent` (`calibration` in its configuration) and CoreMotion (`MOTION_CALIBRATION`) apply.
///
/// Every decision is taken on the samples themselves, so the same flow runs unattended on a recording
/// (`--device replay:FILE,fast`). Exit statuses: 0 written; 64 usage; 65 (EX_DATAERR) a step did not
/// finish or its fit failed; 69 (EX_UNAVAILABLE) the device cannot be opened or lacks a sensor; 73
/// (EX_CANTCREAT) the file cannot be written.
enum CalibrateCommand {
    static let usage = """
        usage: motionctl calibrate --device SPEC --output FILE.json [--steps noise,gyro,accel,mag] [--seconds-per-step S]
                                   [--noise-seconds S] [--plot FILE.svg]
          --device            the IMU, as for motion-agent (sim, i2c:/dev/i2c-1@0x68, replay:PATH[,fast], ...)
          --output            the calibration file to write (JSON; see Config/README.md)
          --steps             which parts to calibrate (default: gyro,accel, and mag if the device has one;
                              noise only when listed)
          --seconds-per-step  the longest each step may take (default 120, and at least the noise time + 60)
          --noise-seconds     how long the noise step records the board still (default 60, at least 10; the
                              bias instability needs minutes: a longer still recording reads it better)
          --plot              with the noise step: write the Allan deviation of every axis as SVG here
        """

    /// Wall-clock time without any sample after which the device is taken to have stopped, s.
    static let silenceLimit = 3.0

    /// Runs the command with the arguments after `calibrate`; exits the process.
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: ["--device", "--output", "--steps", "--seconds-per-step", "--noise-seconds", "--plot"], usage: usage)
        guard options.positional.isEmpty else { options.fail("calibrate takes no positional arguments") }
        guard let specification = options["--device"] else { options.fail("--device is required") }
        guard let output = options["--output"] else { options.fail("--output is required") }
        let noiseSeconds = options["--noise-seconds"].map { Double($0) ?? -1 } ?? 60
        guard noiseSeconds >= NoiseCharacterisation.minimumDuration, noiseSeconds.isFinite else {
            options.fail("--noise-seconds must be at least \(Int(NoiseCharacterisation.minimumDuration)) seconds")
        }
        let secondsPerStep = options["--seconds-per-step"].map { Double($0) ?? -1 } ?? max(120, noiseSeconds + 60)
        guard secondsPerStep > 0, secondsPerStep.isFinite else {
            options.fail("--seconds-per-step must be a positive number of seconds")
        }
        let plot = options["--plot"]
        var requestedSteps: [CalibrationStep]?
        if let list = options["--steps"] {
            guard let steps = CalibrationStep.parseList(list) else {
                options.fail("--steps must list some of noise, gyro, accel, mag separated by commas")
            }
            requestedSteps = steps
        }
        if plot != nil, requestedSteps?.contains(.noise) != true { options.fail("--plot needs the noise step (--steps noise,…)") }
        if requestedSteps?.contains(.noise) == true, noiseSeconds > secondsPerStep {
            options.fail("--noise-seconds \(noiseSeconds) does not fit in --seconds-per-step \(secondsPerStep)")
        }

        let device: any IMUDevice
        do {
            device = try IMUDeviceSpecification.open(specification)
        } catch {
            if case .invalidSpecification = error { options.fail("--device: \(error)") }
            CommandOptions.exit("--device \(specification): \(error)", status: 69)
        }
        let info = device.info
        let steps = requestedSteps ?? (info.sensors.contains(.magnetometer) ? [.gyro, .accel, .mag] : [.gyro, .accel])
        for step in steps {
            let sensor: (IMUSensors, String) =
                switch step {
                case .noise, .gyro: ([.gyroscope, .accelerometer], "a gyroscope and an accelerometer")
                case .accel: (.accelerometer, "an accelerometer")
                case .mag: (.magnetometer, "a magnetometer")
                }
            guard info.sensors.isSuperset(of: sensor.0) else {
                CommandOptions.exit("step \(step.rawValue) needs \(sensor.1); \(specification) has none", status: 69)
            }
        }

        say("Calibrating \(specification) (\(info.driver), \(info.chip)) at \(info.defaultSampleRate) Hz: \(steps.map(\.rawValue).joined(separator: ", "))")
        var procedure = CalibrationProcedure(steps: steps, secondsPerStep: secondsPerStep, noiseDuration: noiseSeconds, say: say)
        let inbox = SampleInbox()
        do {
            try device.start(sampleRate: info.defaultSampleRate, handler: inbox.receive)
        } catch {
            CommandOptions.exit("cannot start \(specification): \(error)", status: 69)
        }
        do {
            while !procedure.isFinished {
                guard let samples = inbox.next(timeout: silenceLimit) else {
                    throw CalibrationProcedure.Failure(
                        description: "the device delivered no samples for \(Int(silenceLimit)) s during step "
                            + "\(procedure.currentStep?.rawValue ?? ""): \(procedure.progress)")
                }
                for sample in samples where !procedure.isFinished { try procedure.add(sample) }
            }
        } catch {
            device.stop()
            CommandOptions.exit("calibration failed: \(error)", status: 65)  // EX_DATAERR
        }
        device.stop()
        for fault in inbox.faults { say("device fault during calibration: \(fault)") }

        let calibration = procedure.calibration(device: "\(specification) (\(info.driver), \(info.chip))", created: Date())
        report(procedure)
        do {
            try calibration.save(to: output)
        } catch {
            CommandOptions.exit(error.description, status: 73)  // EX_CANTCREAT
        }
        if let plot, let noise = procedure.noise {
            let title = "Allan deviation of \(info.chip) (\(info.driver)), \(Int(noise.duration.rounded())) s still"
            guard FileManager.default.createFile(atPath: plot, contents: Data(noise.svg(title: title).utf8)) else {
                CommandOptions.exit("cannot write \(plot)", status: 73)
            }
            say("Wrote the Allan deviation plot \(plot).")
        }
        say("Wrote \(output). Use it with motion-agent (\"calibration\": \"\(output)\") or MOTION_CALIBRATION=\(output).")
        CommandOptions.exit(nil, status: 0)
    }

    /// Prints the fitted values with their units.
    private static func report(_ procedure: CalibrationProcedure) {
        say("Results:")
        if let noise = procedure.noise?.noise {
            let degrees = 180 / Double.pi
            if let gyroscope = noise.gyroscope {
                say("  gyroscope noise density \(vector(gyroscope.noiseDensity * degrees, "%.4f")) °/s/√Hz (angle random walk), bias instability \(vector(gyroscope.biasInstability * degrees * 3600, "%.2f")) °/h")
            }
            if let accelerometer = noise.accelerometer {
                say("  accelerometer noise density \(vector(accelerometer.noiseDensity * 1e6 / 9.80665, "%.1f")) µg/√Hz (velocity random walk), bias instability \(vector(accelerometer.biasInstability * 1e6 / 9.80665, "%.1f")) µg")
            }
        }
        if let gyroscope = procedure.gyroscope {
            say("  gyroscope bias      \(vector(gyroscope.bias, "%.5f")) rad/s (noise \(String(format: "%.4f", gyroscope.rotationRateSpread)) rad/s RMS)")
        }
        if let accelerometer = procedure.accelerometer {
            say("  accelerometer offset \(vector(accelerometer.offset, "%.4f")) m/s²")
            say("  accelerometer scale  \(vector(accelerometer.scale.diagonal, "%.5f")) (residual \(String(format: "%.4f", accelerometer.residualRMS)) m/s²)")
        }
        if let magnetometer = procedure.magnetometer {
            let relative = magnetometer.residualRMS / magnetometer.fieldStrength * 100
            say("  magnetometer hard iron \(vector(magnetometer.hardIron, "%.2f")) µT")
            say("  magnetometer soft iron \(vector(magnetometer.softIron.row0, "%.4f")) \(vector(magnetometer.softIron.row1, "%.4f")) \(vector(magnetometer.softIron.row2, "%.4f"))")
            say("  magnetic field \(String(format: "%.2f", magnetometer.fieldStrength)) µT, residual \(String(format: "%.2f", magnetometer.residualRMS)) µT (\(String(format: "%.1f", relative)) %), coverage \(Int(magnetometer.coverage * 100)) %")
            say("  magnetometer calibration quality: \(magnetometer.quality)")
        }
    }

    private static func vector(_ value: SIMD3<Double>, _ format: String) -> String {
        "[" + [value.x, value.y, value.z].map { String(format: format, $0) }.joined(separator: ", ") + "]"
    }

    /// Prints a line for the person at once (standard output).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The device's batches, handed from its queue to the command's loop in order.
    private final class SampleInbox: Sendable {
        private let state = Mutex<(batches: [[IMUSample]], faults: [String])>(([], []))
        private let arrived = DispatchSemaphore(value: 0)

        var receive: @Sendable (IMUDeviceEvent) -> Void {
            { event in
                self.state.withLock { state in
                    switch event {
                    case .samples(let samples): state.batches.append(samples)
                    case .fault(let fault): state.faults.append("\(fault)")
                    }
                }
                self.arrived.signal()
            }
        }

        /// The samples delivered since the last call, waiting up to `timeout` seconds for some; nil if none came.
        func next(timeout: Double) -> [IMUSample]? {
            let deadline = DispatchTime.now() + timeout
            while true {
                let batches = state.withLock { state -> [[IMUSample]] in
                    defer { state.batches = [] }
                    return state.batches
                }
                if !batches.isEmpty { return batches.flatMap { $0 } }
                if arrived.wait(timeout: deadline) == .timedOut { return nil }
            }
        }

        /// The faults the device reported.
        var faults: [String] { state.withLock { $0.faults } }
    }
}
