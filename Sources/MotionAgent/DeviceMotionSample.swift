import MotionMath
import CoreMotion
import Foundation

/// One fused device-motion sample, in CoreMotion's names and units, that can be averaged over a window.
public struct DeviceMotionSample: DownsampledValue, Equatable {
    /// When the value was measured, seconds since boot, s.
    public var timestamp: Double
    /// The attitude as a unit quaternion rotating device into reference coordinates (dimensionless).
    public var attitude: Quaternion
    /// The rotation rate in device axes, rad/s (bias-corrected).
    public var rotationRate: SIMD3<Double>
    /// Gravity in device axes, g.
    public var gravity: SIMD3<Double>
    /// Acceleration imparted by the user in device axes (total minus gravity), g.
    public var userAcceleration: SIMD3<Double>
    /// The calibrated magnetic field in device axes, µT.
    public var magneticField: SIMD3<Double>
    /// How well ``magneticField`` is calibrated.
    public var magneticAccuracy: CMMagneticFieldCalibrationAccuracy
    /// The heading relative to the reference frame's north, degrees in [0, 360); −1 when the reference
    /// frame has no north.
    public var heading: Double

    /// Creates a sample from its values.
    /// - Parameters:
    ///   - timestamp: seconds since boot, s.
    ///   - attitude: device → reference unit quaternion.
    ///   - rotationRate: rad/s, device axes.
    ///   - gravity: g, device axes.
    ///   - userAcceleration: g, device axes.
    ///   - magneticField: calibrated field, µT, device axes.
    ///   - magneticAccuracy: calibration accuracy of the field.
    ///   - heading: degrees in [0, 360), or −1 without north.
    public init(
        timestamp: Double, attitude: Quaternion, rotationRate: SIMD3<Double>, gravity: SIMD3<Double>,
        userAcceleration: SIMD3<Double>, magneticField: SIMD3<Double>,
        magneticAccuracy: CMMagneticFieldCalibrationAccuracy, heading: Double
    ) {
        self.timestamp = timestamp
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.magneticField = magneticField
        self.magneticAccuracy = magneticAccuracy
        self.heading = heading
    }

    /// The values of a CoreMotion device-motion sample.
    public init(_ motion: CMDeviceMotion) {
        let rate = motion.rotationRate, gravity = motion.gravity, user = motion.userAcceleration
        let field = motion.magneticField
        self.init(
            timestamp: motion.timestamp, attitude: Quaternion(motion.attitude.quaternion),
            rotationRate: SIMD3(rate.x, rate.y, rate.z), gravity: SIMD3(gravity.x, gravity.y, gravity.z),
            userAcceleration: SIMD3(user.x, user.y, user.z),
            magneticField: SIMD3(field.field.x, field.field.y, field.field.z),
            magneticAccuracy: field.accuracy, heading: motion.heading)
    }

    /// Roll, pitch and yaw of ``attitude`` in rad, with ``CMAttitude``'s conventions.
    public var eulerAngles: EulerAngles { EulerAngles(attitude) }

    /// The mean of a window: attitude by Markley's quaternion mean, vectors component-wise, the worst
    /// magnetic accuracy, the heading averaged on the circle (−1 if any sample has no north), at the mean
    /// of the timestamps.
    /// - Parameter samples: at least one sample.
    public static func mean(of samples: [DeviceMotionSample]) -> DeviceMotionSample {
        let count = Double(samples.count)
        func average(_ value: KeyPath<DeviceMotionSample, SIMD3<Double>>) -> SIMD3<Double> {
            samples.reduce(SIMD3<Double>.zero) { $0 + $1[keyPath: value] } / count
        }
        let worstAccuracy = samples.map(\.magneticAccuracy).min { $0.rawValue < $1.rawValue } ?? .uncalibrated
        return DeviceMotionSample(
            timestamp: meanTimestamp(of: samples), attitude: QuaternionMean.mean(of: samples.map(\.attitude)),
            rotationRate: average(\.rotationRate), gravity: average(\.gravity),
            userAcceleration: average(\.userAcceleration), magneticField: average(\.magneticField),
            magneticAccuracy: worstAccuracy, heading: circularMeanHeading(samples.map(\.heading)))
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

    /// `true` when every value is the same (attitude component by component).
    public static func == (lhs: DeviceMotionSample, rhs: DeviceMotionSample) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.attitude.components == rhs.attitude.components
            && lhs.rotationRate == rhs.rotationRate && lhs.gravity == rhs.gravity
            && lhs.userAcceleration == rhs.userAcceleration && lhs.magneticField == rhs.magneticField
            && lhs.magneticAccuracy == rhs.magneticAccuracy
            && lhs.heading == rhs.heading
    }
}
