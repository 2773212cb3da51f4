/// Why a recording could not be read.
public enum IMURecordingError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The header lacks a column the format requires (for example `gyr_x`).
    case missingColumn(source: String, column: String)
    /// A line has a value that is not a number, or too few values.
    case badValue(source: String, line: Int, column: String)
    /// The file has a header but no samples.
    case empty(source: String)
    /// Timestamps go backwards.
    case timeGoesBackwards(source: String, line: Int)

    /// A sentence naming the file, and the line and column where it applies.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .missingColumn(let source, let column): "\(source): the header has no \(column) column"
        case .badValue(let source, let line, let column): "\(source):\(line): \(column) is not a number"
        case .empty(let source): "\(source): no samples"
        case .timeGoesBackwards(let source, let line): "\(source):\(line): t is earlier than on the line before"
        }
    }
}
