import MotionContract

extension PedometerSample: DownsampledValue {
    /// The window's newest totals: they are counts since the service started, which a mean would turn
    /// into fractions that never happened (`mean` publishes what `latest` would, at the window's end).
    /// - Parameter samples: at least one sample.
    public static func mean(of samples: [PedometerSample]) -> PedometerSample { samples[samples.count - 1] }

    /// Steps and floors counted between the two, for a deadband in steps (cadence and pace are ignored).
    public func distance(to other: PedometerSample) -> Double {
        func difference(_ a: UInt64?, _ b: UInt64?) -> Double { Double(max(a ?? 0, b ?? 0) - min(a ?? 0, b ?? 0)) }
        return difference(steps, other.steps) + difference(floorsAscended, other.floorsAscended)
            + difference(floorsDescended, other.floorsDescended)
    }
}

extension ActivitySample: DownsampledValue {
    /// The window's newest activity (an activity has no mean).
    /// - Parameter samples: at least one sample.
    public static func mean(of samples: [ActivitySample]) -> ActivitySample { samples[samples.count - 1] }

    /// 0 for the same activity with the same confidence since the same time, else 1: a deadband of 0
    /// publishes each change.
    public func distance(to other: ActivitySample) -> Double {
        activity == other.activity && confidence == other.confidence && since == other.since ? 0 : 1
    }
}

extension AltitudeSample: DownsampledValue {
    /// The mean altitude and pressure of the window at the mean of its timestamps.
    /// - Parameter samples: at least one sample.
    public static func mean(of samples: [AltitudeSample]) -> AltitudeSample {
        let count = Double(samples.count)
        return AltitudeSample(
            timestamp: meanTimestamp(of: samples), relativeAltitude: samples.reduce(0) { $0 + $1.relativeAltitude } / count,
            pressure: samples.reduce(0) { $0 + $1.pressure } / count,
            absoluteAltitude: samples.reduce(0) { $0 + $1.absoluteAltitude } / count)
    }

    /// The difference in relative altitude, m.
    public func distance(to other: AltitudeSample) -> Double { abs(relativeAltitude - other.relativeAltitude) }
}
