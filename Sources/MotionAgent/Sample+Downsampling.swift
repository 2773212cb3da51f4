#if canImport(Glibc)
import Glibc
#endif
import MotionContract
import MotionMath

extension VectorSample: DownsampledValue {
    /// The component-wise mean of the values at the mean of the timestamps.
    /// - Parameter samples: at least one sample.
    public static func mean(of samples: [VectorSample]) -> VectorSample {
        let sum = samples.reduce(SIMD3<Double>.zero) { $0 + $1.value }
        return VectorSample(timestamp: meanTimestamp(of: samples), value: sum / Double(samples.count))
    }

    /// The Euclidean distance between the two readings, in the sensor's unit.
    public func distance(to other: VectorSample) -> Double {
        let difference = value - other.value
        return (difference * difference).sum().squareRoot()
    }
}

extension DeviceMotionSample: DownsampledValue {
    /// The mean of a window: attitude by Markley's quaternion mean, vectors component-wise, the worst
    /// magnetic accuracy, the heading averaged on the circle (−1 if any sample has no north), the largest
    /// uncertainty of the window (nil if any sample has none), at the mean of the timestamps.
    /// - Parameter samples: at least one sample.
    public static func mean(of samples: [DeviceMotionSample]) -> DeviceMotionSample {
        let count = Double(samples.count)
        func average(_ value: KeyPath<DeviceMotionSample, SIMD3<Double>>) -> SIMD3<Double> {
            samples.reduce(SIMD3<Double>.zero) { $0 + $1[keyPath: value] } / count
        }
        return DeviceMotionSample(
            timestamp: meanTimestamp(of: samples), attitude: QuaternionMean.mean(of: samples.map(\.attitude)),
            rotationRate: average(\.rotationRate), gravity: average(\.gravity),
            userAcceleration: average(\.userAcceleration), magneticField: average(\.magneticField),
            magneticAccuracy: samples.map(\.magneticAccuracy).min() ?? .uncalibrated,
            heading: circularMeanHeading(samples.map(\.heading)), uncertainty: largestUncertainty(of: samples))
    }

    /// The largest heading and inclination uncertainty of `samples` (errors of neighbouring samples are
    /// correlated, so the mean's error is not smaller than theirs); nil if any sample has none.
    static func largestUncertainty(of samples: [DeviceMotionSample]) -> AttitudeUncertaintyEstimate? {
        let estimates = samples.compactMap(\.uncertainty)
        guard !estimates.isEmpty, estimates.count == samples.count else { return nil }
        return AttitudeUncertaintyEstimate(
            heading: estimates.map(\.heading).max() ?? 0, inclination: estimates.map(\.inclination).max() ?? 0)
    }

    /// The rotation angle between the two attitudes, rad, in [0, π]; the other values are not compared.
    public func distance(to other: DeviceMotionSample) -> Double {
        attitude.angle(to: other.attitude)
    }

    /// The mean direction of headings in degrees, in [0, 360): the direction of the sum of their unit
    /// vectors (so 359° and 1° average to 0°); −1 when any heading is negative (no north).
    static func circularMeanHeading(_ headings: [Double]) -> Double {
        guard !headings.isEmpty, headings.allSatisfy({ $0 >= 0 }) else { return -1 }
        let radiansPerDegree = Double.pi / 180
        var sine = 0.0, cosine = 0.0
        for heading in headings {
            sine += sin(heading * radiansPerDegree)
            cosine += cos(heading * radiansPerDegree)
        }
        var degrees = atan2(sine, cosine) / radiansPerDegree
        if degrees < 0 { degrees += 360 }
        return degrees >= 360 ? 0 : degrees
    }
}
