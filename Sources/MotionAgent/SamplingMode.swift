/// How a topic turns the sensor's samples into the (fewer) samples it publishes.
public enum SamplingMode: String, Sendable, CaseIterable {
    /// At each interval, the newest sample as it is: the lowest latency, but frequencies above half the
    /// publishing rate alias into the published signal.
    case latest
    /// The average of the samples of each interval's window (an anti-aliasing decimator): vectors averaged
    /// component-wise, attitudes as quaternions (Markley's mean), headings on the circle.
    case mean

    /// The mode called `name` (`latest` or `mean`).
    /// - Parameters:
    ///   - name: the mode's name as written in a configuration or command.
    ///   - fieldPath: the field's path used in the error, `mode` unless given.
    /// - Throws: ``ConfigurationError`` naming `fieldPath` when `name` is not a mode.
    public static func named(_ name: String, fieldPath: String = "mode") throws(ConfigurationError) -> SamplingMode {
        guard let mode = SamplingMode(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: " or ")
            throw ConfigurationError(fieldPath: fieldPath, reason: "must be \(names), not \"\(name)\"")
        }
        return mode
    }
}
