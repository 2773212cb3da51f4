import MotionContract

/// The service pipelines' counters at one moment of the agent's uptime: what `health` and the service
/// manager's status line measure message rates between.
struct PipelineCounters: Sendable {
    /// Seconds since the agent was made.
    let uptime: Double
    /// Per service: the messages published (`seq`) and the samples taken in, since the agent started.
    let counts: [MotionService: (messages: UInt64, samples: UInt64)]

    /// The device-motion samples the steps and activity services' detectors analysed since the agent
    /// started (their own pipelines take one tick per interval).
    let samplesAnalysed: UInt64

    /// The IMU's progress for the watchdog: the samples the sensor services took in and the ones the
    /// steps and activity detectors analysed (the barometer's `altitude` is not the IMU's path).
    var imuSamplesIn: UInt64 {
        MotionService.sensorServices.reduce(samplesAnalysed) { $0 &+ (counts[$1]?.samples ?? 0) }
    }

    /// Messages a second of `service` since `earlier` (the counters only grow).
    func messageRate(of service: MotionService, since earlier: PipelineCounters) -> Double {
        Double((counts[service]?.messages ?? 0) - (earlier.counts[service]?.messages ?? 0)) / max(uptime - earlier.uptime, 1e-3)
    }
}
