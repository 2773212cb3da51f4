import MotionEngine
import MotionFusion
import MotionHAL
import MotionMath

/// One BROAD trial, ready to score: its samples and the scored ones (moving, with a reference) with their
/// reference attitude (sensor → ENU). For `motion-bench broad` and its cross-validation.
struct BroadTrial: Sendable {
    let name: String
    let samples: [IMUSample]
    let scored: [(index: Int, reference: Quaternion)]

    init(name: String, recording: IMURecording) {
        self.name = name
        samples = recording.samples
        scored = recording.samples.indices.compactMap { index in
            guard recording.movement.isEmpty || recording.movement[index],
                let reference = recording.referenceAttitudes[index]
            else { return nil }
            return (index, Quaternion(w: reference[0], x: reference[1], y: reference[2], z: reference[3]))
        }
    }

    /// The errors with `settings` in `frame` (6-axis: only the inclination is meaningful).
    func score(_ settings: AttitudeFilter.Settings, frame: AttitudeReferenceFrame = .xMagneticNorthZVertical)
        -> OrientationErrorStatistics
    {
        var estimator = FrameAttitudeEstimator(frame: frame, settings: settings)
        var statistics = OrientationErrorStatistics()
        var previous: UInt64?
        var next = 0
        for (index, sample) in samples.enumerated() {
            estimator.update(sample, previous: &previous)
            guard next < scored.count, scored[next].index == index else { continue }
            statistics.add(OrientationError(estimate: estimator.attitudeInEastNorthUp, reference: scored[next].reference))
            next += 1
        }
        return statistics
    }
}
