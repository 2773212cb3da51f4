import MotionMath

/// The exact, noise-free state of the simulated IMU at one instant, for tests and benchmarks.
public struct SimulatedGroundTruth: Sendable, Equatable {
    /// Seconds since the start of the trajectory.
    public var time: Double
    /// Rotation from the body frame to ENU (x east, y north, z up): `v_enu = q ⊗ v_body ⊗ q*`.
    public var attitude: Quaternion
    /// Body-frame angular velocity, rad/s, without gyroscope bias or noise.
    public var angularVelocity: SIMD3<Double>
    /// ENU position relative to the centre of the motion, m.
    public var position: SIMD3<Double>
    /// ENU velocity, m/s.
    public var velocity: SIMD3<Double>
    /// ENU linear acceleration (gravity excluded), m/s².
    public var linearAcceleration: SIMD3<Double>
    /// Noise-free accelerometer reading: body-frame specific force `Rᵀ (a_enu + (0, 0, g))`, m/s².
    public var specificForce: SIMD3<Double>
    /// Noise-free magnetometer reading: the earth's field in the body frame `Rᵀ B_enu`, µT.
    public var magneticField: SIMD3<Double>

    /// Creates a ground-truth record.
    /// - Parameters:
    ///   - time: seconds since the start of the trajectory.
    ///   - attitude: body → ENU rotation.
    ///   - angularVelocity: body-frame angular velocity, rad/s.
    ///   - position: ENU position, m.
    ///   - velocity: ENU velocity, m/s.
    ///   - linearAcceleration: ENU linear acceleration, m/s².
    ///   - specificForce: body-frame specific force, m/s².
    ///   - magneticField: body-frame magnetic flux density, µT.
    public init(
        time: Double, attitude: Quaternion, angularVelocity: SIMD3<Double>, position: SIMD3<Double>,
        velocity: SIMD3<Double>, linearAcceleration: SIMD3<Double>, specificForce: SIMD3<Double>,
        magneticField: SIMD3<Double>
    ) {
        self.time = time
        self.attitude = attitude
        self.angularVelocity = angularVelocity
        self.position = position
        self.velocity = velocity
        self.linearAcceleration = linearAcceleration
        self.specificForce = specificForce
        self.magneticField = magneticField
    }
}
