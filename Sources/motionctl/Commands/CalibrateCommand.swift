import MotionMath
import MotionCalibration
import Foundation
import MotionFusion
import MotionHAL
import Synchronization

/// `motionctl calibrate`: guides a person through calibrating an IMU (gyroscope bias, accelerometer offset
/// and scale, magnetometer hard and soft iron), prints the results and writes the calibration file that
/// `motion-agent` (`calibration` in its configuration) and CoreMotion (`MOTION_CALIBRATION`) apply.
///
/// Every decision is taken on the samples themselves, so the same flow runs unattended on a recording
/// (`--device replay:FILE,fast`). Exit statuses: 0 written; 64 usage; 65 (EX_DATAERR) a step did not
/// finish or its fit failed; 69 (EX_UNAVAILABLE) the device cannot be opened or lacks a sensor; 73
/// (EX_CANTCREAT) the file cannot be written.
enum CalibrateCommand {
    static let usage = """
        usage: motionctl calibrate --device SPEC --output FILE.json [--steps gyro,accel,mag] [--seconds-per-step S]
          --device            the IMU, as for motion-agent (sim, i2c:/dev/i2c-1@0x68, replay:PATH[,fast], ...)
          --output            the calibration file to write (JSON; see Config/README.md)
          --steps             which parts to calibrate (default: gyro,accel, and mag if the device has one)
          --seconds-per-step  the longest each step may take (default 120)
        """

    /// Wall-clock time without any sample after which the device is taken to have stopped, s.
    static let silenceLimit = 3.0

    /// Runs the command with the arguments after `calibrate`; exits the process.
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: ["--device", "--output", "--steps", "--seconds-per-step"], usage: usage)
        guard options.positional.isEmpty else { options.fail("calibrate takes no positional arguments") }
        guard let specification = options["--device"] else { options.fail("--device is required") }
        guard let output = options["--output"] else { options.fail("--output is required") }
        let secondsPerStep = options["--seconds-per-step"].map { Double($0) ?? -1 } ?? 120
        guard secondsPerStep > 0, secondsPerStep.isFinite else {
            options.fail("--seconds-per-step must be a positive number of seconds")
        }
        var requestedSteps: [CalibrationStep]?
        if let list = options["--steps"] {
            guard let steps = CalibrationStep.parseList(list) else {
                options.fail("--steps must list some of gyro, accel, mag separated by commas")
            }
            requestedSteps = steps
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
                case .gyro: ([.gyroscope, .accelerometer], "a gyroscope and an accelerometer")
                case .accel: (.accelerometer, "an accelerometer")
                case .mag: (.magnetometer, "a magnetometer")
                }
            guard info.sensors.isSuperset(of: sensor.0) else {
                CommandOptions.exit("step \(step.rawValue) needs \(sensor.1); \(specification) has none", status: 69)
            }
        }

        say("Calibrating \(specification) (\(info.driver), \(info.chip)) at \(info.defaultSampleRate) Hz: \(steps.map(\.rawValue).joined(separator: ", "))")
        var procedure = CalibrationProcedure(steps: steps, secondsPerStep: secondsPerStep, say: say)
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
        say("Wrote \(output). Use it with motion-agent (\"calibration\": \"\(output)\") or MOTION_CALIBRATION=\(output).")
        CommandOptions.exit(nil, status: 0)
    }

    /// Prints the fitted values with their units.
    private static func report(_ procedure: CalibrationProcedure) {
        say("Results:")
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
