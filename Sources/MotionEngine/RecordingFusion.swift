import MotionMath
import MotionFusion
import MotionHAL

/// Runs a ``FrameAttitudeEstimator`` over every sample of a recording, as the agent does live: one update per
/// sample with the time since the previous one. For `motionctl fuse` and `motion-bench broad`.
public struct RecordingFusion: Sendable {
    /// The attitude after each sample, device → the estimator's frame.
    public let attitudes: [Quaternion]
    /// The attitude after each sample, device → East-North-Up (arbitrary frames: their own x as east).
    public let attitudesInEastNorthUp: [Quaternion]

    /// Fuses `recording` in `frame`.
    /// - Parameters:
    ///   - recording: the samples (SI units, sensor frame).
    ///   - frame: the reference frame.
    ///   - declination: degrees east of true north, for the true-north frame.
    public init(_ recording: IMURecording, frame: AttitudeReferenceFrame, declination: Double? = nil) {
        var estimator = FrameAttitudeEstimator(frame: frame, declination: declination)
        var attitudes: [Quaternion] = []
        var inEastNorthUp: [Quaternion] = []
        attitudes.reserveCapacity(recording.samples.count)
        inEastNorthUp.reserveCapacity(recording.samples.count)
        var previous: UInt64?
        for sample in recording.samples {
            estimator.update(sample, previous: &previous)
            attitudes.append(estimator.attitude)
            inEastNorthUp.append(estimator.attitudeInEastNorthUp)
        }
        self.attitudes = attitudes
        self.attitudesInEastNorthUp = inEastNorthUp
    }
}

extension FrameAttitudeEstimator {
    /// Feeds one recorded sample, with the time since `previous` (the timestamp of the sample before, ns;
    /// updated to this one's).
    public mutating func update(_ sample: IMUSample, previous: inout UInt64?) {
        let deltaTime = previous.map { Double(sample.timestamp - $0) / 1e9 } ?? 0
        previous = sample.timestamp
        update(
            gyroscope: sample.rotationRate ?? .zero, accelerometer: sample.acceleration,
            magnetometer: sample.magneticField, deltaTime: deltaTime)
    }
}
