import MotionMath

/// One sample of the attitude filter's output in SI units and the filter's own signs, before any
/// conversion to Apple's: what the motion detectors read.
///
/// ``appleVectors`` is the one conversion to CoreMotion's user acceleration and gravity (g); the engine's
/// ``DeviceMotionSample``s are made with it too, so that the detectors see exactly what a device-motion
/// subscriber sees.
public struct FusedMotionSample: Sendable, Equatable {
    /// When the sample was measured, seconds since boot, s.
    public var timestamp: Double
    /// The specific force the accelerometer measured (calibrated), device axes, m/s²: +9.81 m/s² up at rest.
    public var specificForce: SIMD3<Double>
    /// Gravitational acceleration as the filter estimates it, device axes, m/s², pointing down, of magnitude
    /// ``gravityMagnitude``.
    public var gravity: SIMD3<Double>
    /// The magnitude the filter gives ``gravity``, m/s² (its setting, 9.81 by default).
    public var gravityMagnitude: Double
    /// The bias-corrected angular velocity, device axes, rad/s.
    public var rotationRate: SIMD3<Double>
    /// The attitude, a unit quaternion rotating device into reference coordinates (dimensionless).
    public var attitude: Quaternion

    /// Creates a sample from the filter's values.
    /// - Parameters:
    ///   - timestamp: seconds since boot, s.
    ///   - specificForce: the accelerometer's reading, m/s², device axes.
    ///   - gravity: the filter's gravity, m/s², device axes, pointing down.
    ///   - gravityMagnitude: the magnitude of `gravity`, m/s².
    ///   - rotationRate: rad/s, device axes.
    ///   - attitude: device → reference unit quaternion.
    public init(
        timestamp: Double, specificForce: SIMD3<Double>, gravity: SIMD3<Double>, gravityMagnitude: Double,
        rotationRate: SIMD3<Double>, attitude: Quaternion
    ) {
        self.timestamp = timestamp
        self.specificForce = specificForce
        self.gravity = gravity
        self.gravityMagnitude = gravityMagnitude
        self.rotationRate = rotationRate
        self.attitude = attitude
    }

    /// CoreMotion's user acceleration and gravity, g: the acceleration is the negated specific force over
    /// standard gravity (9.80665 m/s²), gravity the filter's as a unit vector, and the user acceleration
    /// their difference. At rest both are in the same units only to within 9.81 / 9.80665, so the user
    /// acceleration of a still device is 3.4 × 10⁻⁴ g, as the contract's payloads have always carried it.
    public var appleVectors: (userAcceleration: SIMD3<Double>, gravity: SIMD3<Double>) {
        let acceleration = -specificForce / standardGravity
        let gravity = self.gravity / gravityMagnitude
        return (acceleration - gravity, gravity)
    }
}
