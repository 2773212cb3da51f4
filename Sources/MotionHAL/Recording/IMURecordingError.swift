/// Why a recording could not be read.
public enum IMURecordingError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The header lacks a column the format requires (for example `gyr_x`).
    case missingColumn(source: String, column: String)
    /// The header line is longer than ``IMURecording/maximumHeaderLength`` bytes or names more than
    /// ``IMURecording/maximumColumnCount`` columns.
    case headerTooLarge(source: String)
    /// A line has a value that is not a number, or too few values.
    case badValue(source: String, line: Int, column: String)
    /// The file has a header but fewer than two samples.
    case empty(source: String)
    /// A timestamp is not later than the one on the line before (after rounding to nanoseconds).
    case timeDoesNotIncrease(source: String, line: Int)
    /// A timestamp lies more than ``IMURecording/maximumDuration`` seconds after the first one.
    case timeOutOfRange(source: String, line: Int)
    /// The median sample interval gives a rate outside ``IMURecording/sampleRateRange`` (Hz).
    case sampleRateOutOfRange(source: String, rate: Double)

    /// A sentence naming the file, and the line and column where it applies.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .missingColumn(let source, let column): "\(source): the header has no \(column) column"
        case .headerTooLarge(let source):
            "\(source): the header line is longer than \(IMURecording.maximumHeaderLength) bytes "
                + "or has more than \(IMURecording.maximumColumnCount) columns"
        case .badValue(let source, let line, let column): "\(source):\(line): \(column) is not a number"
        case .empty(let source): "\(source): fewer than two samples"
        case .timeDoesNotIncrease(let source, let line): "\(source):\(line): t is not later than on the line before"
        case .timeOutOfRange(let source, let line):
            "\(source):\(line): t lies more than \(Int(IMURecording.maximumDuration)) s after the first sample"
        case .sampleRateOutOfRange(let source, let rate):
            "\(source): the sample rate \(rate) Hz (from the median interval) is outside "
                + "\(IMURecording.sampleRateRange.lowerBound)…\(Int(IMURecording.sampleRateRange.upperBound)) Hz"
        }
    }
}
