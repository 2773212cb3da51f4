extension SimulatedIMU {
    /// Everything the simulator needs: the trajectory, the sensor errors and the environment.
    ///
    /// The defaults describe a typical consumer MEMS 9-axis IMU lying in a mid-latitude magnetic field.
    public struct Configuration: Sendable, Equatable {
        /// Rate the device runs at when none is requested, Hz (default 200); must lie in
        /// ``SimulatedIMU/supportedSampleRates`` (1...8000 Hz). Becomes `info.defaultSampleRate`.
        public var sampleRate: Double = 200
        /// The trajectory the device follows (default ``SimulatedMotion/demo``).
        public var motion: SimulatedMotion = .demo
        /// Constant gyroscope bias added to every rotation-rate reading, rad/s
        /// (default (0.005, −0.008, 0.003), i.e. about 0.3–0.5 °/s).
        public var gyroscopeBias = SIMD3<Double>(0.005, -0.008, 0.003)
        /// Standard deviation of the white accelerometer noise on each axis, m/s² (default 0.02).
        public var accelerometerNoise: Double = 0.02
        /// Standard deviation of the white gyroscope noise on each axis, rad/s (default 0.002).
        public var gyroscopeNoise: Double = 0.002
        /// Standard deviation of the white magnetometer noise on each axis, µT (default 0.1).
        public var magnetometerNoise: Double = 0.1
        /// The earth's magnetic field in ENU, µT (default (0, 19.5, −44.5): 19.5 µT horizontal towards
        /// magnetic north and 44.5 µT down, a dip of about 66°).
        public var earthMagneticField = SIMD3<Double>(0, 19.5, -44.5)
        /// Magnitude of gravity, m/s² (default 9.81).
        public var gravity: Double = 9.81
        /// Seed of the deterministic noise generator (default 1): equal seeds give equal noise.
        public var seed: UInt64 = 1
        /// How often the live device delivers a batch of the samples that have come due, s (default 0.01);
        /// must be > 0 (intervals under 0.1 ms are raised to 0.1 ms). Only the wake-up rate depends on it, not
        /// the sample timestamps.
        public var deliveryInterval: Double = 0.01
        /// Whether the live device's deliveries run on the process's shared delivery threads (four per core,
        /// for every simulated device that asks) instead of a thread of its own (default false): for
        /// simulating a fleet in one process, where a thread per device would cost more than the devices.
        public var sharesDeliveryThreads = false
        /// Scripted faults of the live device (default nil: none); see ``SimulatedFaultInjection``.
        public var faultInjection: SimulatedFaultInjection?

        /// Creates a configuration with the documented defaults except for the given values; change the
        /// other fields afterwards as needed.
        /// - Parameters:
        ///   - sampleRate: default sample rate, Hz.
        ///   - motion: the trajectory.
        ///   - seed: seed of the noise generator.
        public init(sampleRate: Double = 200, motion: SimulatedMotion = .demo, seed: UInt64 = 1) {
            self.sampleRate = sampleRate
            self.motion = motion
            self.seed = seed
        }

        /// The same configuration with every sensor error (bias and noise) set to zero: readings equal
        /// the ground truth exactly.
        public var withoutSensorErrors: Configuration {
            var ideal = self
            ideal.gyroscopeBias = SIMD3(repeating: 0)
            ideal.accelerometerNoise = 0
            ideal.gyroscopeNoise = 0
            ideal.magnetometerNoise = 0
            return ideal
        }
    }
}
