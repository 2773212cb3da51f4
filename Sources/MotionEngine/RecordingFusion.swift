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
    /// The filter's own 1 σ uncertainty after each sample, rad: heading in `x`, inclination in `y`.
    public let uncertainties: [SIMD2<Double>]

    /// Fuses `recording` in `frame`.
    /// - Parameters:
    ///   - recording: the samples (SI units, sensor frame).
    ///   - frame: the reference frame.
    ///   - declination: degrees east of true north, for the true-north frame.
    ///   - settings: the filter's tuning (its magnetometer use follows the frame).
    public init(
        _ recording: IMURecording, frame: AttitudeReferenceFrame, declination: Double? = nil,
        settings: AttitudeFilter.Settings = .init()
    ) {
        var estimator = FrameAttitudeEstimator(frame: frame, declination: declination, settings: settings)
        var attitudes: [Quaternion] = []
        var inEastNorthUp: [Quaternion] = []
        var uncertainties: [SIMD2<Double>] = []
        attitudes.reserveCapacity(recording.samples.count)
        inEastNorthUp.reserveCapacity(recording.samples.count)
        uncertainties.reserveCapacity(recording.samples.count)
        var previous: UInt64?
        for sample in recording.samples {
            estimator.update(sample, previous: &previous)
            attitudes.append(estimator.attitude)
            inEastNorthUp.append(estimator.attitudeInEastNorthUp)
            uncertainties.append(SIMD2(estimator.filter.headingUncertainty, estimator.filter.inclinationUncertainty))
        }
        self.uncertainties = uncertainties
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
