import MotionContract
import MotionFusion
@testable import MotionAgent

/// A ``DetectorPipeline`` with the bank the engine's detector host would run for it
/// (``DetectorPipeline/bank(for:bands:)``), fed one delivery at a time as the host feeds it.
struct HostedPipeline {
    var pipeline: DetectorPipeline
    var bank: MotionDetectorBank

    init(settings: DetectorSettings, sampleRate: Double?, frame: AttitudeReferenceFrame, wallClockOffset: Double, sequence: UInt64 = 0) {
        pipeline = DetectorPipeline(settings: settings, sampleRate: sampleRate, frame: frame, wallClockOffset: wallClockOffset, sequence: sequence)
        bank = DetectorPipeline.bank(for: settings, bands: pipeline.bands)
    }

    /// One delivery of samples (oldest first, at the sensor rate): each through the bank, then the
    /// pipeline stepped with what the bank found, as the host does.
    /// - Returns: the events found and the states changed.
    mutating func add(_ samples: [FusedMotionSample]) -> DetectorPipeline.Output {
        for sample in samples {
            let found = bank.update(MotionDetectorBank.Sample(sample))
            pipeline.step(sample, found: found, bank: bank)
        }
        return pipeline.finishDelivery() ?? DetectorPipeline.Output()
    }

    /// The states in force.
    var states: [MotionStateName: MotionStatePayload] { pipeline.states }
}
