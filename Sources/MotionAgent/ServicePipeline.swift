/// One service's path from samples to messages: the topic's down-sampler and its `seq` counter.
///
/// The counter survives reconfiguration, so a subscriber sees one unbroken sequence per topic for the
/// life of the agent, and a gap in it always means a lost message.
struct ServicePipeline<Value: DownsampledValue>: Sendable {
    private var sampler: TopicSampler<Value>
    /// The `seq` of the last message produced.
    private(set) var sequence: UInt64 = 0
    /// Samples taken in since the agent started.
    private(set) var samplesIn: UInt64 = 0

    /// A message ready to encode: its `seq` and the down-sampled values it carries.
    struct Message: Sendable {
        let sequence: UInt64
        let values: [Value]
    }

    init(settings: TopicSamplingSettings) throws(ConfigurationError) {
        sampler = try TopicSampler(settings: settings)
    }

    /// Whether messages use the batch format `{"seq":n,"samples":[…]}`.
    var isBatched: Bool { sampler.settings.batchSize > 1 }

    /// Takes in samples (oldest first) and returns the messages now due.
    mutating func add(_ samples: [Value]) -> [Message] {
        samplesIn += UInt64(samples.count)
        return number(sampler.add(samples))
    }

    /// Replaces the sampling settings; pending samples are dropped, the sequence goes on.
    mutating func reconfigure(_ settings: TopicSamplingSettings) throws(ConfigurationError) {
        sampler = try TopicSampler(settings: settings)
    }

    private mutating func number(_ groups: [[Value]]) -> [Message] {
        groups.map { values in
            sequence += 1
            return Message(sequence: sequence, values: values)
        }
    }
}
