import MotionModel

/// A service's place in the topic tree.
extension MotionService {
    /// The topic segment of this service: `{base}/{topicName}`.
    public var topicName: String { rawValue }

    /// The service whose topic segment is `name`, if any.
    public init?(topicName name: String) { self.init(rawValue: name) }
}
