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
    /// The attitude filter's own estimate of its errors (1 σ), degrees; nil when the publisher does not
    /// report it (payloads from before contract 1.x's `uncertainty` field). A Linux addition: Apple's
    /// `CMDeviceMotion` has no such property.
    public var uncertainty: AttitudeUncertaintyEstimate?

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
    ///   - uncertainty: the filter's 1 σ errors, degrees, or nil.
    public init(
        timestamp: Double, attitude: Quaternion, rotationRate: SIMD3<Double>, gravity: SIMD3<Double>,
        userAcceleration: SIMD3<Double>, magneticField: SIMD3<Double>,
        magneticAccuracy: MagneticFieldAccuracy, heading: Double, uncertainty: AttitudeUncertaintyEstimate? = nil
    ) {
        self.timestamp = timestamp
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.magneticField = magneticField
        self.magneticAccuracy = magneticAccuracy
        self.heading = heading
        self.uncertainty = uncertainty
    }

    /// Roll, pitch and yaw of ``attitude`` in rad, with `CMAttitude`'s conventions.
    public var eulerAngles: EulerAngles { EulerAngles(attitude) }
}

/// The attitude filter's estimate of its own errors, 1 σ, degrees: the heading error (rotation about the
/// vertical; it grows while the magnetometer is rejected or absent) and the inclination error (the tilt).
/// Published in device motion's `uncertainty` object; a Linux addition.
public struct AttitudeUncertaintyEstimate: Sendable, Equatable {
    /// Heading error, 1 σ, degrees (at most 180).
    public var heading: Double
    /// Inclination error, 1 σ, degrees (at most 90).
    public var inclination: Double

    /// Creates an estimate.
    /// - Parameters:
    ///   - heading: degrees, 1 σ.
    ///   - inclination: degrees, 1 σ.
    public init(heading: Double, inclination: Double) {
        self.heading = heading
        self.inclination = inclination
    }
}
