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

    /// The pipeline of a vector service (accelerometer, gyro, magnetometer).
    static func vectorPipeline(_ service: MotionService) -> WritableKeyPath<ServicePipelines, ServicePipeline<VectorSample>> {
        switch service {
        case .accelerometer: \.accelerometer
        case .gyro: \.gyro
        case .magnetometer: \.magnetometer
        case .deviceMotion: preconditionFailure("device motion has its own pipeline")
        }
    }

    /// Messages and samples taken in so far by `service`.
    func counters(_ service: MotionService) -> (messages: UInt64, samples: UInt64) {
        switch service {
        case .deviceMotion: (deviceMotion.sequence, deviceMotion.samplesIn)
        default:
            (self[keyPath: Self.vectorPipeline(service)].sequence, self[keyPath: Self.vectorPipeline(service)].samplesIn)
        }
    }

    /// Feeds a vector service's samples to its pipeline (a switch, not a key path: this runs for every
    /// delivery of every service).
    /// - Returns: the messages now ready, and whether the topic batches.
    mutating func add(_ samples: [VectorSample], to service: MotionService)
        -> (messages: [ServicePipeline<VectorSample>.Message], batched: Bool)
    {
        switch service {
        case .accelerometer: (accelerometer.add(samples), accelerometer.isBatched)
        case .gyro: (gyro.add(samples), gyro.isBatched)
        case .magnetometer: (magnetometer.add(samples), magnetometer.isBatched)
        case .deviceMotion: preconditionFailure("device motion has its own pipeline")
        }
    }

    /// Replaces the sampling settings of `service` (pending samples are dropped; `seq` goes on).
    mutating func reconfigure(_ service: MotionService, _ settings: TopicSamplingSettings) throws(ConfigurationError) {
        switch service {
        case .deviceMotion: try deviceMotion.reconfigure(settings)
        default: try self[keyPath: Self.vectorPipeline(service)].reconfigure(settings)
        }
    }
}
