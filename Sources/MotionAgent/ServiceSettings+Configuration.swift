import MotionContract
import MotionFusion

// Reading and checking a service's settings: the `services.<name>` entries of the configuration file and of
// remote documents.
extension ServiceSettings {
    /// The shortest interval of the vibration service's summaries, s.
    static let shortestVibrationInterval = 1.0

    /// What an interval out of ``intervalRange`` is told.
    static let intervalRangeText = "must be 0.001…86400 seconds"

    /// The settings a `services.<name>` entry gives on top of `base` (only what it names changes).
    /// - Throws: ``ConfigurationError`` naming the field: an unknown key, a value of the wrong type or out
    ///   of range, `rate_hz` and `interval` both given.
    static func parse(
        _ service: MotionService, from entry: ConfigurationReader, base: ServiceSettings
    ) throws(ConfigurationError) -> ServiceSettings {
        var known: Set<String> = ["enabled", "rate_hz", "interval", "qos", "message_expiry", "format"]
        // The vibration service summarises an interval: it has no sampling mode, batches or deadband.
        if service == .vibration {
            known.formUnion(VibrationServiceSettings.keys)
        } else {
            known.formUnion(["mode", "batch", "deadband", "heartbeat"])
        }
        if service == .deviceMotion { known.insert("frame") }
        try entry.rejectUnknownKeys(known)
        var settings = base
        settings.enabled = try entry.bool("enabled") ?? settings.enabled
        let rate = try entry.number("rate_hz")
        let interval = try entry.number("interval")
        if rate != nil && interval != nil {
            throw ConfigurationError(fieldPath: entry.fieldPath("interval"), reason: "give rate_hz or interval, not both")
        }
        // One range for both spellings: a rate is held to the intervals' range (1/86400 Hz is a day).
        let range = ServiceSettings.intervalRange
        if let rate {
            guard rate >= 1 / range.upperBound, rate <= 1 / range.lowerBound else {
                throw ConfigurationError(fieldPath: entry.fieldPath("rate_hz"), reason: "must be 1/86400…1000 Hz (an interval of 0.001…86400 seconds)")
            }
            // 1/rate may round a hair outside the range at its ends.
            settings.sampling.interval = min(max(1 / rate, range.lowerBound), range.upperBound)
        }
        if let interval {
            guard range.contains(interval) else {
                throw ConfigurationError(fieldPath: entry.fieldPath("interval"), reason: intervalRangeText)
            }
            settings.sampling.interval = interval
        }
        if let mode = try entry.string("mode") {
            settings.sampling.mode = try SamplingMode.named(mode, fieldPath: entry.fieldPath("mode"))
        }
        settings.sampling.batchSize = try entry.integer("batch") ?? settings.sampling.batchSize
        settings.sampling.deadband = try entry.number("deadband") ?? settings.sampling.deadband
        settings.sampling.heartbeat = try entry.number("heartbeat") ?? settings.sampling.heartbeat
        settings.qos = try entry.integer("qos") ?? settings.qos
        if let frame = try entry.string("frame") {
            guard let known = AttitudeReferenceFrame(rawValue: frame) else {
                throw ConfigurationError(
                    fieldPath: entry.fieldPath("frame"),
                    reason: "unknown frame \"\(frame)\" (one of \(ReferenceFrameName.all.joined(separator: ", ")))")
            }
            settings.referenceFrame = known
        }
        if let format = try entry.string("format") {
            guard let known = PayloadFormat(rawValue: format) else {
                throw ConfigurationError(
                    fieldPath: entry.fieldPath("format"), reason: "must be \"json\", \"cbor\", \"senml+json\" or \"senml+cbor\"")
            }
            guard !known.isSenML || service != .vibration else {
                throw ConfigurationError(
                    fieldPath: entry.fieldPath("format"),
                    reason: "must be \"json\" or \"cbor\": the vibration service's summaries and spectra have no SenML form")
            }
            settings.format = known
        }
        if service == .vibration {
            settings.vibration = try VibrationServiceSettings.parse(from: entry, base: settings.vibration ?? VibrationServiceSettings())
        }
        if let expiry = try entry.integer("message_expiry") {
            guard (0...4_294_967_295).contains(expiry) else {
                throw ConfigurationError(fieldPath: entry.fieldPath("message_expiry"), reason: "must be 0…4294967295 seconds")
            }
            settings.messageExpiry = expiry == 0 ? nil : UInt32(expiry)
        }
        return settings
    }

    /// Checks the ranges a parsed entry could not (the interval, the sampling's, the QoS).
    /// - Parameter fieldPath: the entry's path, `services.<name>`.
    /// - Throws: ``ConfigurationError`` naming the field.
    func validate(fieldPath path: String) throws(ConfigurationError) {
        if !Self.intervalRange.contains(sampling.interval) {
            throw ConfigurationError(fieldPath: "\(path).interval", reason: Self.intervalRangeText)
        }
        if vibration != nil, sampling.interval < Self.shortestVibrationInterval {
            throw ConfigurationError(fieldPath: "\(path).interval", reason: "must be 1…86400 seconds (a summary of the vibration)")
        }
        try sampling.validate(fieldPrefix: "\(path).")
        if !(0...2).contains(qos) {
            throw ConfigurationError(fieldPath: "\(path).qos", reason: "must be 0, 1 or 2")
        }
    }
}
