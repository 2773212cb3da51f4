/// Apple's limits of ``CMSensorRecorder``, as a pure value: what a recording request and a query may ask
/// for, and how long samples are kept. Times in seconds; dates as seconds since 1970.
struct SensorRecordingPolicy: Sendable, Equatable {
    /// The rate samples are recorded at, Hz (Apple's 50 Hz).
    var sampleRate = 50.0
    /// The longest recording one call asks for, s (Apple: "Data can be recorded for up to 12 hours").
    var longestRecording = 12 * 3600.0
    /// The longest span one query returns, s (Apple: "A total duration of 12 hours of data can be requested
    /// at any one time").
    var longestQuery = 12 * 3600.0
    /// How long samples are kept, s (Apple: "available for later access (up to 3 days)").
    var retention = 3 * 86400.0
    /// How often recorded samples are committed to the store as one batch, s.
    var batchInterval = 1.0

    /// The end of a recording asked for at `now` for `duration` seconds: at most ``longestRecording``
    /// later; nil for a duration that is not positive or not a number (nothing is recorded).
    func recordingEnd(now: Double, duration: Double) -> Double? {
        guard duration.isFinite, duration > 0 else { return nil }
        return now + min(duration, longestRecording)
    }

    /// Whether a query of the samples in (from, to] is allowed: `from` before `to`, at most
    /// ``longestQuery`` apart, both finite.
    func allowsQuery(from: Double, to: Double) -> Bool {
        from.isFinite && to.isFinite && from < to && to - from <= longestQuery
    }

    /// The oldest sample time still kept at `now`.
    func oldestKept(now: Double) -> Double { now - retention }
}
