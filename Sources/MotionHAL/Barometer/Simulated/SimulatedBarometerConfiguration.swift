extension SimulatedBarometer {
    /// Everything the simulated barometer needs: its rate, the atmosphere, its noise and the altitude it
    /// follows.
    ///
    /// The defaults describe a Bosch BMP280 at standard resolution on a desk at sea level.
    public struct Configuration: Sendable, Equatable {
        /// Rate the device runs at when none is requested, Hz (default 25); must lie in
        /// ``SimulatedBarometer/supportedSampleRates`` (1...200 Hz). Becomes `info.defaultSampleRate`.
        public var sampleRate: Double = 25
        /// The pressure at altitude 0 (where the profile starts), Pa (default 101 325, the standard
        /// atmosphere at sea level); > 0.
        public var referencePressure: Double = 101_325
        /// The sensor's temperature, °C (default 20), the same in every reading.
        public var temperature: Double = 20
        /// Standard deviation of the white pressure noise, Pa (default 1.0; a BMP280 at standard
        /// resolution has about 1.3 Pa); ≥ 0.
        public var pressureNoise: Double = 1.0
        /// Seed of the deterministic noise generator (default 1): equal seeds give equal noise.
        public var seed: UInt64 = 1
        /// The altitude above the start the device follows (default `.constant(0)`).
        public var altitudeProfile: AltitudeProfile = .constant(0)

        /// Creates a configuration with the documented defaults except for the given values.
        /// - Parameters:
        ///   - sampleRate: default sample rate, Hz.
        ///   - altitudeProfile: the altitude followed.
        ///   - seed: seed of the noise generator.
        public init(sampleRate: Double = 25, altitudeProfile: AltitudeProfile = .constant(0), seed: UInt64 = 1) {
            self.sampleRate = sampleRate
            self.altitudeProfile = altitudeProfile
            self.seed = seed
        }
    }
}
