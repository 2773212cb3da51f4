import MotionContract

/// The services' pipelines, kept together behind one lock in the agent, with the steps service's tally.
struct ServicePipelines: Sendable {
    var accelerometer: ServicePipeline<VectorSample>
    var gyro: ServicePipeline<VectorSample>
    var magnetometer: ServicePipeline<VectorSample>
    var deviceMotion: ServicePipeline<DeviceMotionSample>
    var steps: ServicePipeline<PedometerSample>
    var activity: ServicePipeline<ActivitySample>
    var altitude: ServicePipeline<AltitudeSample>
    /// The steps service's totals since it started.
    var stepTally = StepTally()
    /// The activity service's first tick since it started, s since boot (what `since` says before the
    /// first activity is known).
    var activityStart: Double?

    /// Pipelines for the services' settings.
    init(settings: (MotionService) -> ServiceSettings) throws(ConfigurationError) {
        accelerometer = try ServicePipeline(settings: settings(.accelerometer).sampling)
        gyro = try ServicePipeline(settings: settings(.gyro).sampling)
        magnetometer = try ServicePipeline(settings: settings(.magnetometer).sampling)
        deviceMotion = try ServicePipeline(settings: settings(.deviceMotion).sampling)
        steps = try ServicePipeline(settings: settings(.steps).sampling)
        activity = try ServicePipeline(settings: settings(.activity).sampling)
        altitude = try ServicePipeline(settings: settings(.altitude).sampling)
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
        case .deviceMotion, .steps, .activity, .altitude, .vibration: preconditionFailure("\(service.topicName) has its own pipeline")
        }
    }

    /// Messages and samples taken in so far by `service`.
    func counters(_ service: MotionService) -> (messages: UInt64, samples: UInt64) {
        switch service {
        case .deviceMotion: return (deviceMotion.sequence, deviceMotion.samplesIn)
        case .steps: return (steps.sequence, steps.samplesIn)
        case .activity: return (activity.sequence, activity.samplesIn)
        case .altitude: return (altitude.sequence, altitude.samplesIn)
        case .vibration: preconditionFailure("the vibration service counts in its own pipeline")
        case .accelerometer, .gyro, .magnetometer:
            var pipelines = self  // a read: the copy shares the pipelines' storage
            return pipelines.withVectorPipeline(service) { ($0.sequence, $0.samplesIn) }
        }
    }

    /// Feeds a vector service's samples to its pipeline.
    /// - Returns: the messages now ready, and whether the topic batches.
    mutating func add(_ samples: [VectorSample], to service: MotionService)
        -> (messages: [ServicePipeline<VectorSample>.Message], batched: Bool)
    {
        withVectorPipeline(service) { ($0.add(samples), $0.isBatched) }
    }

    /// Replaces the sampling settings of `service` (pending samples are dropped; `seq` goes on; the steps
    /// service's totals and the activity's start begin again).
    mutating func reconfigure(_ service: MotionService, _ settings: TopicSamplingSettings) throws(ConfigurationError) {
        switch service {
        case .deviceMotion: try deviceMotion.reconfigure(settings)
        case .steps:
            try steps.reconfigure(settings)
            stepTally = StepTally()
        case .activity:
            try activity.reconfigure(settings)
            activityStart = nil
        case .altitude: try altitude.reconfigure(settings)
        case .vibration: break  // its pipeline is made afresh when it starts
        case .accelerometer, .gyro, .magnetometer:
            try withVectorPipeline(service) { (pipeline) throws(ConfigurationError) in try pipeline.reconfigure(settings) }
        }
    }
}
