import MotionContract

/// The four services' pipelines, kept together behind one lock in the agent.
struct ServicePipelines: Sendable {
    var accelerometer: ServicePipeline<VectorSample>
    var gyro: ServicePipeline<VectorSample>
    var magnetometer: ServicePipeline<VectorSample>
    var deviceMotion: ServicePipeline<DeviceMotionSample>

    /// Pipelines for the services' settings.
    init(settings: (MotionService) -> ServiceSettings) throws(ConfigurationError) {
        accelerometer = try ServicePipeline(settings: settings(.accelerometer).sampling)
        gyro = try ServicePipeline(settings: settings(.gyro).sampling)
        magnetometer = try ServicePipeline(settings: settings(.magnetometer).sampling)
        deviceMotion = try ServicePipeline(settings: settings(.deviceMotion).sampling)
    }

    /// Runs `body` on the pipeline of a vector service (accelerometer, gyro, magnetometer) in place. A
    /// switch rather than a key path: it runs for every delivery of every service.
    private mutating func withVectorPipeline<Result, Failure: Error>(
        _ service: MotionService, _ body: (inout ServicePipeline<VectorSample>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch service {
        case .accelerometer: try body(&accelerometer)
        case .gyro: try body(&gyro)
        case .magnetometer: try body(&magnetometer)
        case .deviceMotion: preconditionFailure("device motion has its own pipeline")
        }
    }

    /// Messages and samples taken in so far by `service`.
    func counters(_ service: MotionService) -> (messages: UInt64, samples: UInt64) {
        guard service != .deviceMotion else { return (deviceMotion.sequence, deviceMotion.samplesIn) }
        var pipelines = self  // a read: the copy shares the pipelines' storage
        return pipelines.withVectorPipeline(service) { ($0.sequence, $0.samplesIn) }
    }

    /// Feeds a vector service's samples to its pipeline.
    /// - Returns: the messages now ready, and whether the topic batches.
    mutating func add(_ samples: [VectorSample], to service: MotionService)
        -> (messages: [ServicePipeline<VectorSample>.Message], batched: Bool)
    {
        withVectorPipeline(service) { ($0.add(samples), $0.isBatched) }
    }

    /// Replaces the sampling settings of `service` (pending samples are dropped; `seq` goes on).
    mutating func reconfigure(_ service: MotionService, _ settings: TopicSamplingSettings) throws(ConfigurationError) {
        switch service {
        case .deviceMotion: try deviceMotion.reconfigure(settings)
        default: try withVectorPipeline(service) { (pipeline) throws(ConfigurationError) in try pipeline.reconfigure(settings) }
        }
    }
}
