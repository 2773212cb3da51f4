#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recorded IMU run: its samples in the sensor frame (SI units), and, where the recording has them, a
/// reference attitude and a motion flag per sample.
///
/// Read from CSV with a header line naming the columns, as in the BROAD benchmark's trials (Laidig et al.,
/// "BROAD — A Benchmark for Robust Inertial Orientation Estimation", Data 6(7), 2021, CC-BY-4.0):
/// `t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z[,mag_x,mag_y,mag_z][,quat_w,quat_x,quat_y,quat_z][,movement]` with
/// `t` in seconds (counted from the first sample, which may have any value; strictly increasing,
/// spanning at most ``maximumDuration``), `gyr_*` rad/s, `acc_*` m/s² of specific force (+9.81 on the axis
/// pointing up at rest), `mag_*` µT (`nan` in all three: no magnetometer reading in that sample), `quat_*`
/// the reference rotation sensor → East-North-Up (`nan` where unknown), `movement` 1 while the sensor moves. Lines starting with `#` are comments; columns may come in
/// any order and unknown columns are ignored.
public struct IMURecording: Sendable {
    /// The samples, oldest first; timestamps are nanoseconds from the first sample.
    public var samples: [IMUSample]
    /// Reference attitude per sample as (w, x, y, z), rotating sensor → East-North-Up; `nil` where the
    /// recording has none. Empty when the recording has no reference columns.
    public var referenceAttitudes: [SIMD4<Double>?]
    /// Per sample, whether the sensor moves (the samples a benchmark scores). Empty when the recording has
    /// no `movement` column.
    public var movement: [Bool]
    /// Samples per second: the inverse of the median sample interval, Hz.
    public var sampleRate: Double

    /// The longest header line read, bytes (BROAD's is under 200).
    public static let maximumHeaderLength = 16_384
    /// The most columns a header may name.
    public static let maximumColumnCount = 256
    /// The longest span from the first to the last sample, s (about 11.6 days).
    public static let maximumDuration = 1_000_000.0
    /// The sample rates a recording may have, Hz (from the median interval between samples).
    public static let sampleRateRange: ClosedRange<Double> = 0.1...100_000

    /// Creates a recording from its parts.
    /// - Parameters:
    ///   - samples: the samples, oldest first.
    ///   - referenceAttitudes: one entry per sample, or empty.
    ///   - movement: one entry per sample, or empty.
    ///   - sampleRate: Hz.
    public init(samples: [IMUSample], referenceAttitudes: [SIMD4<Double>?] = [], movement: [Bool] = [], sampleRate: Double) {
        self.samples = samples
        self.referenceAttitudes = referenceAttitudes
        self.movement = movement
        self.sampleRate = sampleRate
    }

    /// Duration from the first to the last sample, s.
    public var duration: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        return Double(last.timestamp - first.timestamp) / 1e9
    }

    /// Reads the CSV file at `path`.
    /// - Throws: ``IMURecordingError`` naming the file, and the line and column of a bad value.
    ///   Memory stays proportional to the file: the header is bounded (``maximumHeaderLength``,
    ///   ``maximumColumnCount``) and every sample needs a line of its own.
    public static func load(contentsOf path: String) throws(IMURecordingError) -> IMURecording {
        guard let file = fopen(path, "r") else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        if ferror(file) != 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return try parse(csv: bytes, source: path)
    }

    /// Parses CSV text (see the type's description).
    /// - Parameters:
    ///   - csv: the file's bytes (UTF-8).
    ///   - source: the name errors report (a path).
    /// - Throws: ``IMURecordingError``.
    public static func parse(csv: [UInt8], source: String) throws(IMURecordingError) -> IMURecording {
        var text = csv
        text.append(0)  // strtod needs a terminated buffer
        // A Result, not a typed throw through the closure: Swift 6.0's withUnsafeBufferPointer rethrows
        // untyped errors.
        let parsed = text.withUnsafeBufferPointer { buffer -> Result<IMURecording, IMURecordingError> in
            var parser = IMURecordingParser(buffer: buffer, source: source)
            do throws(IMURecordingError) { return .success(try parser.parse()) } catch { return .failure(error) }
        }
        switch parsed {
        case .success(let recording): return recording
        case .failure(let error): throw error
        }
    }
}
