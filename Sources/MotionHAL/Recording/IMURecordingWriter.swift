#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// Writes samples in ``IMURecording``'s CSV format as they arrive, so that a field problem can be replayed
/// at a desk (`replay:PATH`): a `#` comment line, the header
/// `t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z[,mag_x,mag_y,mag_z][,quat_w,quat_x,quat_y,quat_z,movement]`, then
/// one line per sample with `t` in seconds from the first sample (to the nanosecond) and the values in SI
/// units (rad/s, m/s², µT) to 10 significant digits. The reference columns are a benchmark's (a recording
/// changed by ``IMURecordingVariant``, written by ``IMURecording/write(toFile:comment:)``).
public final class IMURecordingWriter {
    private let file: UnsafeMutablePointer<FILE>
    private let path: String
    private let includesMagnetometer: Bool
    private let includesReference: Bool
    private var firstTimestamp: UInt64?
    /// Samples written so far.
    public private(set) var count = 0

    /// Creates (or truncates) the file at `path` and writes the comment and header lines.
    /// - Parameters:
    ///   - path: the file to write.
    ///   - includesMagnetometer: whether the `mag_*` columns are written.
    ///   - includesReference: whether the `quat_*` and `movement` columns are written (then every sample
    ///     is appended with ``append(_:reference:moving:)``).
    ///   - comment: one line of provenance (device, rate, time) for the `#` line.
    /// - Throws: ``IMURecordingError/unreadable(path:reason:)`` if the file cannot be created.
    public init(path: String, includesMagnetometer: Bool, includesReference: Bool = false, comment: String) throws(IMURecordingError) {
        guard let file = fopen(path, "w") else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        self.file = file
        self.path = path
        self.includesMagnetometer = includesMagnetometer
        self.includesReference = includesReference
        let header = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z" + (includesMagnetometer ? ",mag_x,mag_y,mag_z" : "")
            + (includesReference ? ",quat_w,quat_x,quat_y,quat_z,movement" : "")
        fputs("# \(comment.split(separator: "\n").joined(separator: " "))\n\(header)\n", file)
    }

    deinit {
        fclose(file)
    }

    /// Appends samples. A sensor without a reading in a sample is written as `nan` (a magnetometer slower
    /// than the other sensors reads back as no reading, see ``IMURecording``).
    /// - Precondition: the writer was made without the reference columns.
    public func append(_ samples: [IMUSample]) {
        precondition(!includesReference, "IMURecordingWriter: append(_:reference:moving:) writes the reference columns")
        for sample in samples { fputs(line(sample) + "\n", file) }
        count += samples.count
    }

    /// Appends one sample of a benchmark recording with its reference attitude (sensor → East-North-Up,
    /// `nan` where nil) and motion flag.
    /// - Precondition: the writer was made with the reference columns.
    public func append(_ sample: IMUSample, reference: SIMD4<Double>?, moving: Bool) {
        precondition(includesReference, "IMURecordingWriter: made without the reference columns")
        let quaternion = reference ?? SIMD4(repeating: .nan)
        let columns = [quaternion[0], quaternion[1], quaternion[2], quaternion[3]].map(Self.number).joined(separator: ",")
        fputs(line(sample) + "," + columns + (moving ? ",1\n" : ",0\n"), file)
        count += 1
    }

    /// The time and sensor columns of `sample`.
    private func line(_ sample: IMUSample) -> String {
        let start = firstTimestamp ?? sample.timestamp
        firstTimestamp = start
        let time = Double(Int64(bitPattern: sample.timestamp &- start)) / 1e9
        var line = Self.formatted(time, "%.9f")  // ns resolution
        for vector in [sample.rotationRate, sample.acceleration] + (includesMagnetometer ? [sample.magneticField] : []) {
            let value = vector ?? SIMD3(repeating: .nan)
            line += "," + Self.number(value.x) + "," + Self.number(value.y) + "," + Self.number(value.z)
        }
        return line
    }

    /// Flushes what was written to the file.
    /// - Throws: ``IMURecordingError/unreadable(path:reason:)`` if the data cannot be written.
    public func flush() throws(IMURecordingError) {
        guard fflush(file) == 0, ferror(file) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private static func number(_ value: Double) -> String {
        value.isFinite ? formatted(value, "%.10g") : "nan"
    }

    private static func formatted(_ value: Double, _ format: String) -> String {
        var buffer = [UInt8](repeating: 0, count: 48)
        let length = buffer.withUnsafeMutableBufferPointer { bytes in
            withVaList([value]) { vsnprintf(UnsafeMutableRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), bytes.count, format, $0) }
        }
        return String(decoding: buffer.prefix(Int(max(0, min(length, Int32(buffer.count - 1))))), as: UTF8.self)
    }
}

extension IMURecording {
    /// Writes the whole recording in its CSV format, with the magnetometer columns when any sample has a
    /// field and the reference and movement columns when it has them (a sample without a movement flag
    /// counts as moving).
    /// - Parameters:
    ///   - path: the file, created or truncated.
    ///   - comment: one line of provenance for the `#` line.
    /// - Throws: ``IMURecordingError/unreadable(path:reason:)`` if the file cannot be created or written.
    public func write(toFile path: String, comment: String) throws(IMURecordingError) {
        let includesReference = !referenceAttitudes.isEmpty
        let writer = try IMURecordingWriter(
            path: path, includesMagnetometer: samples.contains { $0.magneticField != nil }, includesReference: includesReference,
            comment: comment)
        if includesReference {
            for (index, sample) in samples.enumerated() {
                writer.append(sample, reference: referenceAttitudes[index], moving: movement.isEmpty || movement[index])
            }
        } else {
            writer.append(samples)
        }
        try writer.flush()
    }
}
