import MotionHAL
import Synchronization

/// Writes the device's raw samples (SI units, the driver's axes, before any calibration) to a recording
/// file in `IMURecording`'s CSV format (CoreMotion's `CMLinuxMotionDevice.startRecording`, the agent's `record`): what
/// the board measured in the field, replayable at a desk with `MOTION_DEVICE=replay:FILE`.
///
/// The file is flushed once per second of samples and when the recording ends (at `duration`, or when
/// stopped); a write error ends it too, and is reported by ``finish()``.
public final class MotionRecorder: Sendable {
    /// The file written.
    let path: String
    private let limit: UInt64?
    private let state: Mutex<State>

    private struct State {
        /// Open until the recording ends.
        var writer: IMURecordingWriter?
        var count = 0
        var firstTimestamp: UInt64?
        var lastFlush: UInt64 = 0
        var failure: IMURecordingError?
    }

    /// Creates the file and writes its header.
    /// - Parameters:
    ///   - path: the file (created or truncated).
    ///   - includesMagnetometer: whether the device has a magnetometer (the `mag_*` columns).
    ///   - comment: the provenance line.
    ///   - duration: seconds of samples after which the recording ends by itself; `nil`: until finished.
    /// - Throws: `IMURecordingError` when the file cannot be created.
    public init(path: String, includesMagnetometer: Bool, comment: String, duration: Double?) throws(IMURecordingError) {
        self.path = path
        limit = duration.map(MonotonicClock.nanoseconds)
        let writer = try IMURecordingWriter(path: path, includesMagnetometer: includesMagnetometer, comment: comment)
        state = Mutex(State(writer: writer))
    }

    /// Creates the file of a recording of the device `info` describes, its provenance in the header.
    /// - Throws: `IMURecordingError` when the file cannot be created.
    public convenience init(path: String, device info: IMUDeviceInfo, duration: Double?) throws(IMURecordingError) {
        try self.init(
            path: path, includesMagnetometer: info.sensors.contains(.magnetometer),
            comment: "MotionBridge recording; device \(info.driver): \(info.chip); \(info.defaultSampleRate) Hz", duration: duration)
    }

    /// Whether samples are still being written (not finished, not past the duration, no write error).
    var isRecording: Bool { state.withLock { $0.writer != nil } }

    /// Appends a delivery's samples (those within the duration).
    func append(_ samples: [IMUSample]) {
        state.withLock { state in
            guard let writer = state.writer, let first = samples.first else { return }
            let start = state.firstTimestamp ?? first.timestamp
            state.firstTimestamp = start
            let kept = limit.map { limit in samples.filter { $0.timestamp - min($0.timestamp, start) < limit } } ?? samples
            writer.append(kept)
            state.count += kept.count
            let last = samples[samples.count - 1].timestamp
            if kept.count < samples.count {
                Self.close(&state)
            } else if last - min(last, state.lastFlush) >= 1_000_000_000 {
                state.lastFlush = last
                do throws(IMURecordingError) { try writer.flush() } catch { state.failure = error; state.writer = nil }
            }
        }
    }

    /// Ends the recording: flushes and closes the file.
    /// - Returns: the number of samples written.
    /// - Throws: `IMURecordingError` if writing failed at any point.
    public func finish() throws(IMURecordingError) -> Int {
        let (count, failure) = state.withLock { state in
            Self.close(&state)
            return (state.count, state.failure)
        }
        if let failure { throw failure }
        return count
    }

    private static func close(_ state: inout State) {
        guard let writer = state.writer else { return }
        do throws(IMURecordingError) { try writer.flush() } catch { state.failure = error }
        state.writer = nil
    }
}
