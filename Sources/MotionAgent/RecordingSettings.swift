/// The agent's field recording (`record` in the configuration, `--record FILE`): every raw sample of the
/// IMU written to a file in the recording format while the agent runs, to be replayed at a desk with
/// `--device replay:FILE`.
public struct RecordingSettings: Sendable, Equatable {
    /// The longest recording that may be asked for, s (a week).
    public static let maximumSeconds = 604_800.0

    /// The file written (created or truncated at start).
    public var file: String
    /// Seconds of samples after which the recording ends by itself, so that a forgotten recording cannot
    /// fill the disk (about 8 MB a minute at 1 kHz). Default 600 s.
    public var seconds: Double

    /// Creates settings.
    /// - Parameters:
    ///   - file: the file to write.
    ///   - seconds: the longest recording, s.
    public init(file: String, seconds: Double = 600) {
        self.file = file
        self.seconds = seconds
    }

    /// Reads the configuration's `record` object: `{"file": PATH, "seconds": S}`.
    /// - Throws: ``ConfigurationError`` naming the field.
    static func parse(from root: ConfigurationReader) throws(ConfigurationError) -> RecordingSettings? {
        guard let record = try root.object("record") else { return nil }
        try record.rejectUnknownKeys(["file", "seconds"])
        guard let file = try record.string("file") else {
            throw ConfigurationError(fieldPath: "record.file", reason: "is required (the recording file to write)")
        }
        return RecordingSettings(file: file, seconds: try record.number("seconds") ?? 600)
    }

    /// Checks the values, and that the file could be created (its directory exists and is writable; a
    /// file already there is a writable regular file) without creating it.
    /// - Throws: ``ConfigurationError`` naming the field.
    func validate() throws(ConfigurationError) {
        guard !file.isEmpty else { throw ConfigurationError(fieldPath: "record.file", reason: "must name a file") }
        guard seconds > 0, seconds <= Self.maximumSeconds else {
            throw ConfigurationError(
                fieldPath: "record.seconds", reason: "must be a number of seconds above 0 and at most \(Int(Self.maximumSeconds)) (a week)")
        }
        if let problem = WritableFile.problem(file) {
            throw ConfigurationError(fieldPath: "record.file", reason: "cannot record to \(file): \(problem)")
        }
    }
}
