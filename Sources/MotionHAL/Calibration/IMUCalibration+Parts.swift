import MotionMath
extension IMUCalibration {
    /// The gyroscope part: its bias.
    public struct Gyroscope: Sendable, Equatable, Codable {
        /// Reading at rest, rad/s: subtracted from the angular velocity.
        public var bias: SIMD3<Double>

        /// Creates the part.
        /// - Parameter bias: rad/s.
        public init(bias: SIMD3<Double>) {
            self.bias = bias
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case bias = "bias_rad_s"
        }

        /// Decodes the part.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            bias = try decoder.container(keyedBy: CodingKeys.self).decode(SIMD3<Double>.self, forKey: .bias)
        }
    }

    /// The accelerometer part: corrected specific force = `scale · (reading − offset)`.
    public struct Accelerometer: Sendable, Equatable, Codable {
        /// Offset, m/s²: subtracted from the specific force.
        public var offset: SIMD3<Double>
        /// Scale (dimensionless), applied after the offset; diagonal unless cross-axis terms were fitted.
        public var scale: Matrix3
        /// RMS misfit of the still orientations the calibration was fitted to, m/s².
        public var residual: Double

        /// Creates the part.
        /// - Parameters:
        ///   - offset: m/s².
        ///   - scale: dimensionless, invertible.
        ///   - residual: m/s².
        public init(offset: SIMD3<Double>, scale: Matrix3, residual: Double) {
            self.offset = offset
            self.scale = scale
            self.residual = residual
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case offset = "offset_m_s2"
            case scale
            case residual = "residual_m_s2"
        }

        /// Decodes the part, refusing a singular scale or a negative residual.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            offset = try container.decode(SIMD3<Double>.self, forKey: .offset)
            scale = try container.decode(Matrix3.self, forKey: .scale)
            guard scale.determinant > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .scale, in: container,
                    debugDescription: "determinant \(scale.determinant) is not positive (not an accelerometer scale)")
            }
            residual = try container.decode(Double.self, forKey: .residual)
            guard residual >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .residual, in: container, debugDescription: "must be ≥ 0 m/s²")
            }
        }
    }

    /// The magnetometer part: corrected field = `softIron · (reading − hardIron)`.
    public struct Magnetometer: Sendable, Equatable, Codable {
        /// Hard iron (the centre of the readings' ellipsoid), µT: subtracted from the field.
        public var hardIron: SIMD3<Double>
        /// Soft-iron correction (symmetric, dimensionless), applied after the hard iron.
        public var softIron: Matrix3
        /// Strength of the corrected field, µT.
        public var fieldStrength: Double
        /// RMS distance of the corrected readings from the sphere of radius ``fieldStrength``, µT.
        public var residual: Double
        /// Fraction of the sphere of field directions the readings covered, 0…1.
        public var coverage: Double
        /// The grade of residual and coverage.
        public var quality: Quality

        /// Creates the part.
        /// - Parameters:
        ///   - hardIron: µT.
        ///   - softIron: dimensionless, invertible.
        ///   - fieldStrength: µT.
        ///   - residual: µT.
        ///   - coverage: 0…1.
        ///   - quality: the grade.
        public init(
            hardIron: SIMD3<Double>, softIron: Matrix3, fieldStrength: Double, residual: Double, coverage: Double,
            quality: Quality
        ) {
            self.hardIron = hardIron
            self.softIron = softIron
            self.fieldStrength = fieldStrength
            self.residual = residual
            self.coverage = coverage
            self.quality = quality
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case hardIron = "hard_iron_ut"
            case softIron = "soft_iron"
            case fieldStrength = "field_strength_ut"
            case residual = "residual_ut"
            case coverage, quality
        }

        /// Decodes the part, refusing a singular soft iron and values out of range.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hardIron = try container.decode(SIMD3<Double>.self, forKey: .hardIron)
            softIron = try container.decode(Matrix3.self, forKey: .softIron)
            guard softIron.determinant > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .softIron, in: container,
                    debugDescription: "determinant \(softIron.determinant) is not positive (not a soft-iron correction)")
            }
            fieldStrength = try container.decode(Double.self, forKey: .fieldStrength)
            guard fieldStrength > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .fieldStrength, in: container, debugDescription: "must be > 0 µT")
            }
            residual = try container.decode(Double.self, forKey: .residual)
            guard residual >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .residual, in: container, debugDescription: "must be ≥ 0 µT")
            }
            coverage = try container.decode(Double.self, forKey: .coverage)
            guard (0...1).contains(coverage) else {
                throw DecodingError.dataCorruptedError(forKey: .coverage, in: container, debugDescription: "must be within 0…1")
            }
            quality = try container.decode(Quality.self, forKey: .quality)
        }
    }

    /// How good a magnetometer calibration is (see MotionFusion's `MagnetometerCalibrationQuality` for the
    /// thresholds): stored as `low`, `medium` or `high`.
    public enum Quality: String, Sendable, Equatable, Codable, CaseIterable {
        /// Large residual or little coverage.
        case low
        /// Usable.
        case medium
        /// Good.
        case high
    }
}
