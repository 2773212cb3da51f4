import MotionMath

/// How one data topic down-samples the sensor's samples: its interval, mode, batching and deadband.
///
/// Check values read from a configuration or a command with ``validate(fieldPrefix:)`` before use;
/// ``TopicSampler`` refuses invalid settings.
public struct TopicSamplingSettings: Sendable, Equatable {
    /// The largest accepted ``batchSize``: bounds the size of one message and the memory held for it.
    public static let maximumBatchSize = 1000

    /// The time between published samples, s (the publishing rate is `1 / interval` Hz, capped by the
    /// sensor's rate). Must be finite and greater than 0.
    public var interval: Double
    /// Whether each interval publishes its newest sample or the mean of its window.
    public var mode: SamplingMode
    /// The number of down-sampled values per message, 1…``maximumBatchSize``; above 1 the payload is a
    /// batch `{"seq":n,"samples":[…]}`.
    public var batchSize: Int
    /// When set, a down-sampled value is published only if it differs from the last published one by more
    /// than this, in the topic's unit (g, rad/s or µT: Euclidean distance of the vectors; device motion:
    /// rotation angle between the attitudes in rad). Must be finite and at least 0.
    public var deadband: Double?
    /// With a ``deadband``: a value is published anyway when this many seconds (of sample time) have
    /// passed since the last published one, s. Must be finite and greater than 0.
    public var heartbeat: Double?

    /// Creates settings (not validated: call ``validate(fieldPrefix:)``).
    /// - Parameters:
    ///   - interval: time between published samples, s.
    ///   - mode: ``SamplingMode/latest`` or ``SamplingMode/mean``.
    ///   - batchSize: down-sampled values per message, ≥ 1.
    ///   - deadband: minimum change to publish, in the topic's unit (rad for device motion), or `nil`.
    ///   - heartbeat: longest silence under a deadband, s, or `nil`.
    public init(
        interval: Double, mode: SamplingMode = .latest, batchSize: Int = 1, deadband: Double? = nil,
        heartbeat: Double? = nil
    ) {
        self.interval = interval
        self.mode = mode
        self.batchSize = batchSize
        self.deadband = deadband
        self.heartbeat = heartbeat
    }

    /// Checks every field.
    /// - Parameter fieldPrefix: prepended to the field names in the error, e.g. `services.gyro.` gives
    ///   `services.gyro.interval`; empty by default (bare `interval`, `batch`, `deadband`, `heartbeat`).
    /// - Throws: ``ConfigurationError`` naming the first field that cannot be used and why.
    public func validate(fieldPrefix: String = "") throws(ConfigurationError) {
        guard interval.isFinite, interval > 0 else {
            throw ConfigurationError(
                fieldPath: fieldPrefix + "interval", reason: "must be a number of seconds greater than 0")
        }
        guard (1...Self.maximumBatchSize).contains(batchSize) else {
            throw ConfigurationError(
                fieldPath: fieldPrefix + "batch",
                reason: "must be a whole number from 1 to \(Self.maximumBatchSize)")
        }
        if let deadband, !(deadband.isFinite && deadband >= 0) {
            throw ConfigurationError(fieldPath: fieldPrefix + "deadband", reason: "must be a number of at least 0")
        }
        if let heartbeat {
            guard heartbeat.isFinite, heartbeat > 0 else {
                throw ConfigurationError(
                    fieldPath: fieldPrefix + "heartbeat", reason: "must be a number of seconds greater than 0")
            }
            guard deadband != nil else {
                throw ConfigurationError(
                    fieldPath: fieldPrefix + "heartbeat",
                    reason: "only applies with a deadband (without one every value is published)")
            }
        }
    }
}
