import MotionMath
import Foundation
import MotionHAL
import Synchronization

/// `motionctl record`: reads an IMU and writes its raw samples in the recording format, so that a problem
/// seen in the field can be replayed at a desk with `replay:FILE`.
enum RecordCommand {
    static let usage = """
        usage: motionctl record --device SPEC --output RECORDING.csv [--seconds S]
               motionctl record --remote DEVICE_ID --output RECORDING.csv [--seconds S] \(BrokerCommandOptions.usage)
          --device   the IMU, as for motion-agent (sim, replay:PATH, ...)
          --remote   a board on the broker instead: its gyro, accelerometer and magnetometer topics as they
                     are published (at their rates; start them first), merged by time; lost messages counted
          --seconds  how long to record (default: until Ctrl-C)
        """

    /// Runs the command with the arguments after `record`; exits the process.
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: BrokerCommandOptions.valued.union(["--device", "--remote", "--output", "--seconds"]), usage: usage)
        guard options.positional.isEmpty else { options.fail("record takes no positional arguments") }
        guard let output = options["--output"] else { options.fail("--output is required") }
        let seconds = options["--seconds"].map { Double($0) ?? -1 }
        if let seconds, !(seconds > 0 && seconds.isFinite) { options.fail("--seconds must be a positive number") }
        if let remote = options["--remote"] {
            guard options["--device"] == nil else { options.fail("--device and --remote exclude each other") }
            recordRemote(remote, connection: BrokerCommandOptions(options), output: output, seconds: seconds)
        }
        guard let specification = options["--device"] else { options.fail("--device or --remote is required") }

        let device: any IMUDevice
        do {
            device = try IMUDeviceSpecification.open(specification)
        } catch {
            if case .invalidSpecification = error { options.fail("--device: \(error)") }
            CommandOptions.exit("--device \(specification): \(error)", status: 69)  // EX_UNAVAILABLE
        }
        let info = device.info
        let recorder: Recorder
        do {
            recorder = try Recorder(
                path: output, includesMagnetometer: info.sensors.contains(.magnetometer),
                comment: "MotionBridge recording; device \(specification) (\(info.driver), \(info.chip)); "
                    + "sampling_rate_hz=\(info.defaultSampleRate); gyr rad/s, acc m/s^2, mag uT; started \(Date())")
        } catch {
            CommandOptions.exit(error.description, status: 73)
        }
        do {
            try device.start(sampleRate: info.defaultSampleRate, handler: recorder.handle)
        } catch {
            CommandOptions.exit("cannot start \(specification): \(error)", status: 69)
        }
        CommandOptions.waitForStop(after: seconds)
        device.stop()
        let (count, failure) = recorder.finish()
        if let failure { CommandOptions.exit(failure, status: 74) }  // EX_IOERR
        FileHandle.standardError.write(Data("motionctl: recorded \(count) samples to \(output)\n".utf8))
        CommandOptions.exit(nil, status: 0)
    }

    /// Hands the device's batches to the writer (the device's queue delivers one batch at a time).
    private final class Recorder: Sendable {
        private let state: Mutex<(writer: IMURecordingWriter, faults: [String])>

        /// Creates the file (see ``IMURecordingWriter/init(path:includesMagnetometer:comment:)``).
        init(path: String, includesMagnetometer: Bool, comment: String) throws(IMURecordingError) {
            let writer = try IMURecordingWriter(path: path, includesMagnetometer: includesMagnetometer, comment: comment)
            state = Mutex((writer, []))
        }

        var handle: @Sendable (IMUDeviceEvent) -> Void {
            { event in
                self.state.withLock { state in
                    switch event {
                    case .samples(let samples): state.writer.append(samples)
                    case .fault(let fault): state.faults.append("\(fault)")
                    }
                }
            }
        }

        /// Flushes the file; returns the number of samples written and a write error, if any.
        func finish() -> (Int, String?) {
            state.withLock { state in
                for fault in state.faults { FileHandle.standardError.write(Data("motionctl: device fault: \(fault)\n".utf8)) }
                do {
                    try state.writer.flush()
                    return (state.writer.count, nil)
                } catch {
                    return (state.writer.count, "\(error)")
                }
            }
        }
    }
}
