import MotionMath

extension IMUCalibration {
    /// The noise part: each sensor's white-noise density and bias instability per axis, from the Allan
    /// deviation of a still recording (`motionctl calibrate --steps noise`). The attitude filter takes its
    /// gyroscope noise settings from it.
    public struct Noise: Sendable, Equatable, Codable {
        /// One sensor's figures per axis.
        public struct Sensor: Sendable, Equatable, Codable {
            /// White-noise density per axis (angle random walk for the gyroscope, rad/s/√Hz; velocity random
            /// walk for the accelerometer, m/s²/√Hz).
            public var noiseDensity: SIMD3<Double>
            /// Bias instability per axis (rad/s, m/s²): the Allan deviation's floor / 0.664.
            public var biasInstability: SIMD3<Double>

            /// Creates the figures.
            /// - Parameters:
            ///   - noiseDensity: per axis, unit/√Hz.
            ///   - biasInstability: per axis, unit.
            public init(noiseDensity: SIMD3<Double>, biasInstability: SIMD3<Double>) {
                self.noiseDensity = noiseDensity
                self.biasInstability = biasInstability
            }

            /// Decodes the figures, refusing negative or non-finite ones.
            public init(from decoder: any Decoder) throws {
                try decoder.rejectUnknownKeys(CodingKeys.self)
                let container = try decoder.container(keyedBy: CodingKeys.self)
                noiseDensity = try container.decode(SIMD3<Double>.self, forKey: .noiseDensity)
                biasInstability = try container.decode(SIMD3<Double>.self, forKey: .biasInstability)
                for (key, value) in [(CodingKeys.noiseDensity, noiseDensity), (.biasInstability, biasInstability)] {
                    guard value.isFinite, value.min() >= 0 else {
                        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "must be finite and ≥ 0")
                    }
                }
            }

            private enum CodingKeys: String, CodingKey, CaseIterable {
                case noiseDensity = "noise_density"
                case biasInstability = "bias_instability"
            }
        }

        /// The gyroscope's figures (rad/s/√Hz, rad/s).
        public var gyroscope: Sensor?
        /// The accelerometer's figures (m/s²/√Hz, m/s²).
        public var accelerometer: Sensor?
        /// How long the still recording was, s (the longest cluster time read is a ninth of it).
        public var duration: Double

        /// Creates the part.
        /// - Parameters:
        ///   - gyroscope: rad/s/√Hz and rad/s per axis, or nil.
        ///   - accelerometer: m/s²/√Hz and m/s² per axis, or nil.
        ///   - duration: s.
        public init(gyroscope: Sensor?, accelerometer: Sensor?, duration: Double) {
            self.gyroscope = gyroscope
            self.accelerometer = accelerometer
            self.duration = duration
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case gyroscope, accelerometer
            case duration = "duration_s"
        }

        /// Decodes the part.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            gyroscope = try container.decodeIfPresent(Sensor.self, forKey: .gyroscope)
            accelerometer = try container.decodeIfPresent(Sensor.self, forKey: .accelerometer)
            duration = try container.decode(Double.self, forKey: .duration)
        }
    }
}
