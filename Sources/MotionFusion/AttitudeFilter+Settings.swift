extension AttitudeFilter {
    /// Tuning of an ``AttitudeFilter``.
    ///
    /// The correction is a Mahony complementary filter: the error `e` between measured and estimated
    /// reference directions (dimensionless, ≈ sine of the angle) is fed back into the angular rate as
    /// `ω = gyro − bias + gain·e`, and the bias estimate follows `d(bias)/dt = −integralGain·e`.
    /// With proportional gain `Kp` and integral gain `Ki`, small attitude errors obey
    /// `θ'' + Kp·θ' + Ki·θ = 0`.
    public struct Settings: Sendable, Equatable, Hashable {
        /// Proportional gain `Kp`, 1/s: how fast the accelerometer and magnetometer pull the attitude
        /// towards their measurement (time constant ≈ 1/Kp s). Default 1.0 (≈ 1 s time constant).
        public var proportionalGain: Double
        /// Integral gain `Ki`, 1/s², for the gyroscope bias estimate; 0 disables bias estimation.
        /// Default 0.1: with `Kp` = 1 the bias settles with a ≈ 9 s time constant.
        public var integralGain: Double
        /// Proportional gain at the start of the initial period, 1/s; it ramps down linearly to
        /// ``proportionalGain`` over ``initialPeriod`` so that the filter converges quickly. Default 10.
        public var initialGain: Double
        /// Duration of the fast-converging initial period after initialisation, s. The bias estimate is
        /// frozen during this period. Default 2 s.
        public var initialPeriod: Double
        /// Whether the magnetometer corrects the heading (reference frame "x magnetic north, z vertical")
        /// or is ignored (reference frame "x arbitrary, z vertical"). Default `false`.
        public var useMagnetometer: Bool
        /// Magnitude of gravity, m/s². Default 9.81.
        public var gravity: Double
        /// The accelerometer corrects the attitude only when its norm is within this fraction of
        /// ``gravity`` (dimensionless; 0.2 means 0.8 g … 1.2 g). Outside it the device is accelerating and
        /// the reading does not show "up". Default 0.2.
        public var accelerationRejection: Double
        /// Longest time step integrated in one update, s; a longer `deltaTime` (a gap in the data) is
        /// clamped to it. Default 0.5 s.
        public var maximumDeltaTime: Double
        /// Largest magnitude of each gyroscope bias component the estimator may reach, rad/s
        /// (anti-windup). Default 0.2 rad/s (≈ 11 °/s).
        public var maximumGyroscopeBias: Double

        /// Creates settings; every parameter has the documented default.
        /// - Parameters:
        ///   - proportionalGain: `Kp`, 1/s.
        ///   - integralGain: `Ki`, 1/s².
        ///   - initialGain: proportional gain at the start of the initial period, 1/s.
        ///   - initialPeriod: duration of the initial period, s.
        ///   - useMagnetometer: whether the magnetometer corrects the heading.
        ///   - gravity: magnitude of gravity, m/s².
        ///   - accelerationRejection: tolerated relative deviation of the accelerometer norm from gravity.
        ///   - maximumDeltaTime: longest integrated time step, s.
        ///   - maximumGyroscopeBias: bound of each estimated bias component, rad/s.
        public init(
            proportionalGain: Double = 1.0,
            integralGain: Double = 0.1,
            initialGain: Double = 10,
            initialPeriod: Double = 2,
            useMagnetometer: Bool = false,
            gravity: Double = 9.81,
            accelerationRejection: Double = 0.2,
            maximumDeltaTime: Double = 0.5,
            maximumGyroscopeBias: Double = 0.2
        ) {
            self.proportionalGain = proportionalGain
            self.integralGain = integralGain
            self.initialGain = initialGain
            self.initialPeriod = initialPeriod
            self.useMagnetometer = useMagnetometer
            self.gravity = gravity
            self.accelerationRejection = accelerationRejection
            self.maximumDeltaTime = maximumDeltaTime
            self.maximumGyroscopeBias = maximumGyroscopeBias
        }
    }
}
