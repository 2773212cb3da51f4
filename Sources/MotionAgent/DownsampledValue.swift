import MotionContract

/// A timestamped sensor value that a ``TopicSampler`` can average and compare.
public protocol DownsampledValue: TimestampedSample {
    /// The mean of a window of samples, stamped with the mean of their timestamps.
    /// - Parameter samples: at least one sample.
    static func mean(of samples: [Self]) -> Self

    /// How far apart two values are, for a deadband: in the value's unit (Euclidean distance of vectors;
    /// the rotation angle in rad between attitudes). Timestamps are ignored.
    func distance(to other: Self) -> Double
}

extension DownsampledValue {
    /// The mean of the samples' timestamps, s, computed relative to the first for precision.
    /// - Parameter samples: at least one sample.
    static func meanTimestamp(of samples: [Self]) -> Double {
        precondition(!samples.isEmpty, "the mean of no samples")
        let origin = samples[0].timestamp
        let offsetSum = samples.reduce(0) { $0 + ($1.timestamp - origin) }
        return origin + offsetSum / Double(samples.count)
    }
}
