import MotionMath

/// One fused device-motion sample as the contract carries it, in CoreMotion's names, units and signs.
public struct DeviceMotionSample: Sendable, Equatable {
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
    public var magneticAccuracy: MagneticFieldAccuracy
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
        magneticAccuracy: MagneticFieldAccuracy, heading: Double
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

    /// Roll, pitch and yaw of ``attitude`` in rad, with `CMAttitude`'s conventions.
    public var eulerAngles: EulerAngles { EulerAngles(attitude) }
}
