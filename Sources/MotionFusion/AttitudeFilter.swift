/// A Mahony-style complementary attitude filter with gyroscope bias estimation, 6-axis (gyroscope and
/// accelerometer) or 9-axis (plus magnetometer).
///
/// The gyroscope is integrated into the attitude; the accelerometer pulls the estimated "up" towards the
/// measured specific force, and — with ``Settings/useMagnetometer`` — the magnetometer pulls the heading
/// towards magnetic north. An integral term estimates the gyroscope bias. See ``Settings`` for the gains.
///
/// **Reference frame**: z up. With the magnetometer, x points to magnetic north and y west (north-west-up,
/// Apple's `xMagneticNorthZVertical`). Without it, x is arbitrary: the first sample fixes it so that the
/// yaw starts at zero (the device x axis projected on the horizontal plane, or the device z axis when x
/// points straight up or down), and it drifts only with the residual gyroscope bias about the vertical
/// (Apple's `xArbitraryZVertical`).
///
/// The filter is a value type with no I/O and no clock: the caller supplies the time step.
public struct AttitudeFilter: Sendable {
    /// The tuning in use.
    public let settings: Settings

    /// Rotation from the device frame to the reference frame: `v_reference = attitude ⊗ v_device ⊗ attitude*`.
    /// ``Quaternion/identity`` until ``isInitialized``.
    public private(set) var attitude: Quaternion = .identity
    /// Gravitational acceleration in the device frame, m/s², pointing down, of magnitude
    /// ``Settings/gravity`` (at rest face up: (0, 0, −9.81)). Zero until ``isInitialized``.
    public private(set) var gravity: SIMD3<Double> = .zero
    /// The device's own linear acceleration in the device frame, m/s²: the specific force plus
    /// ``gravity``, so zero at rest. Zero when the last update had no (finite) accelerometer reading or
    /// the filter is not initialised.
    public private(set) var userAcceleration: SIMD3<Double> = .zero
    /// Angular velocity in the device frame, rad/s: the last gyroscope reading minus ``gyroscopeBias``.
    public private(set) var rotationRate: SIMD3<Double> = .zero
    /// Estimated gyroscope bias (the reading at rest), rad/s, in the device frame.
    public private(set) var gyroscopeBias: SIMD3<Double> = .zero
    /// Whether the attitude has been set from a usable accelerometer reading. Updates before that only
    /// refresh ``rotationRate``.
    public private(set) var isInitialized = false
    /// Whether the heading is referenced to magnetic north (the magnetometer is in use and has provided
    /// a usable reading). Always `false` without ``Settings/useMagnetometer``.
    public private(set) var isHeadingReferenced = false
    /// Time integrated since initialisation, s (drives the initial fast-gain period).
    public private(set) var elapsedTime: Double = 0
    /// Whether the accelerometer corrected the attitude in the last update (`false` when missing, not
    /// finite, or rejected because its norm was too far from gravity).
    public private(set) var accelerometerUsed = false
    /// Whether the magnetometer corrected (or initialised) the heading in the last update.
    public private(set) var magnetometerUsed = false

    /// Creates a filter that initialises itself from the first usable accelerometer reading.
    /// - Parameter settings: the tuning (defaults documented in ``Settings``).
    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The proportional gain in effect now, 1/s: ramping linearly from ``Settings/initialGain`` down to
    /// ``Settings/proportionalGain`` during ``Settings/initialPeriod``, then constant.
    public var currentGain: Double {
        guard isInitializing else { return settings.proportionalGain }
        let fraction = elapsedTime / settings.initialPeriod
        return settings.initialGain + (settings.proportionalGain - settings.initialGain) * fraction
    }

    /// Whether the filter is within its fast-converging initial period (bias estimate frozen).
    public var isInitializing: Bool {
        elapsedTime < settings.initialPeriod
    }

    /// Feeds one set of readings taken at the same instant.
    ///
    /// The very first usable accelerometer reading sets the attitude directly (with the magnetometer
    /// heading when it is in use and usable) instead of converging from identity. Afterwards the gyroscope
    /// is integrated over `deltaTime` with the Mahony correction. With the magnetometer in use, the first
    /// usable field reading after an initialisation without one sets the heading directly. A `deltaTime`
    /// that is zero, negative or not finite (or a non-finite gyroscope reading) integrates nothing; one
    /// longer than ``Settings/maximumDeltaTime`` is clamped to it.
    /// - Parameters:
    ///   - gyroscope: angular velocity, rad/s, device frame (right-handed about each axis).
    ///   - accelerometer: specific force, m/s², device frame (+9.81 up at rest), or `nil` if absent.
    ///   - magnetometer: magnetic flux density, µT, device frame, or `nil` if absent. Ignored unless
    ///     ``Settings/useMagnetometer``; a zero or non-finite reading is ignored.
    ///   - deltaTime: time since the previous update, s.
    public mutating func update(
        gyroscope: SIMD3<Double>,
        accelerometer: SIMD3<Double>?,
        magnetometer: SIMD3<Double>?,
        deltaTime: Double
    ) {
        let usableAccelerometer = accelerometer.flatMap(usableUpDirection)
        let usableMagnetometer = settings.useMagnetometer ? magnetometer.flatMap(usableFieldDirection) : nil
        accelerometerUsed = false
        magnetometerUsed = false

        if !isInitialized {
            if let up = usableAccelerometer {
                attitude = Self.attitude(up: up, northward: usableMagnetometer)
                isInitialized = true
                isHeadingReferenced = usableMagnetometer != nil
                accelerometerUsed = true
                magnetometerUsed = usableMagnetometer != nil
            }
        } else if deltaTime > 0, deltaTime.isFinite, gyroscope.isFinite {
            correctAndIntegrate(
                gyroscope: gyroscope,
                up: usableAccelerometer,
                field: usableMagnetometer,
                deltaTime: min(deltaTime, settings.maximumDeltaTime)
            )
        }
        updateOutputs(gyroscope: gyroscope, accelerometer: accelerometer)
    }

    // MARK: - Correction and integration

    /// Predicts the attitude at the time of the readings by integrating the bias-corrected gyroscope
    /// (exactly, for a constant rate over the step), then corrects it with the Mahony feedback computed
    /// against that prediction — so a steadily turning device is tracked without lag.
    private mutating func correctAndIntegrate(
        gyroscope: SIMD3<Double>,
        up measuredUp: SIMD3<Double>?,
        field: SIMD3<Double>?,
        deltaTime: Double
    ) {
        let predicted = (attitude * Quaternion(rotationVector: (gyroscope - gyroscopeBias) * deltaTime)).normalized
        let matrix = predicted.rotationMatrix
        var error = SIMD3<Double>.zero  // device frame, dimensionless (≈ sine of the angle)

        if let measuredUp {
            // Mahony: the estimated up seen in the device frame is row 2 of the matrix; the cross product
            // rotates the estimate towards the measurement.
            error += measuredUp.cross(matrix.row2)
            accelerometerUsed = true
        }

        var headingJustReferenced = false
        if let field {
            if !isHeadingReferenced {
                // First usable magnetometer reading after a start without one: take the heading directly.
                headingJustReferenced = true
            } else if let headingError = Self.headingError(fieldInReference: matrix * field) {
                // Heading-only correction: a rotation about the reference vertical, taken to the device
                // frame, so that the field's inclination never tilts the attitude.
                error += matrix.transposed * SIMD3(0, 0, headingError)
                magnetometerUsed = true
            }
        }

        let gain = currentGain
        if !isInitializing, settings.integralGain > 0 {
            let limit = settings.maximumGyroscopeBias
            let bias = gyroscopeBias - error * (settings.integralGain * deltaTime)
            gyroscopeBias = SIMD3(
                min(max(bias.x, -limit), limit),
                min(max(bias.y, -limit), limit),
                min(max(bias.z, -limit), limit)
            )
        }
        attitude = (predicted * Quaternion(rotationVector: error * (gain * deltaTime))).normalized
        if headingJustReferenced, let field {
            attitude = Self.attitude(up: attitude.rotationMatrix.row2, northward: field)
            isHeadingReferenced = true
            magnetometerUsed = true
        }
        elapsedTime += deltaTime
    }

    /// The heading error as the sine of the rotation about the reference z axis that would bring the
    /// horizontal part of the field onto +x (north), saturated to ±1 beyond 90°; `nil` if the field is
    /// (nearly) vertical.
    private static func headingError(fieldInReference field: SIMD3<Double>) -> Double? {
        let horizontal = (field.x * field.x + field.y * field.y).squareRoot()
        guard horizontal > 1e-3 * field.length else { return nil }
        let sine = -field.y / horizontal
        if field.x >= 0 { return sine }
        return sine >= 0 ? 1 : -1
    }

    // MARK: - Outputs

    private mutating func updateOutputs(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>?) {
        rotationRate = gyroscope - gyroscopeBias
        guard isInitialized else { return }
        gravity = attitude.rotationMatrix.row2 * -settings.gravity
        if let accelerometer, accelerometer.isFinite {
            userAcceleration = accelerometer + gravity
        } else {
            userAcceleration = .zero
        }
    }

    // MARK: - Measurement validation

    /// The unit up direction from a specific-force reading, or `nil` if it is not finite or its norm is
    /// too far from gravity.
    private func usableUpDirection(_ specificForce: SIMD3<Double>) -> SIMD3<Double>? {
        guard specificForce.isFinite else { return nil }
        let norm = specificForce.length
        guard abs(norm - settings.gravity) <= settings.accelerationRejection * settings.gravity, norm > 0 else {
            return nil
        }
        return specificForce / norm
    }

    /// The unit field direction, or `nil` for a zero or non-finite reading.
    private func usableFieldDirection(_ field: SIMD3<Double>) -> SIMD3<Double>? {
        guard field.isFinite else { return nil }
        let direction = field.normalized
        return direction == .zero ? nil : direction
    }

    // MARK: - Direct attitude from vectors

    /// The attitude whose reference z axis is `up` and whose reference x axis is the horizontal part of
    /// `northward` (both in device coordinates). Without `northward`, or when it is (nearly) vertical,
    /// the device x axis — or, if that is vertical too, the device z axis — defines x.
    private static func attitude(up: SIMD3<Double>, northward: SIMD3<Double>?) -> Quaternion {
        let candidates = [northward, SIMD3(1, 0, 0), SIMD3(0, 0, 1)].compactMap { $0 }
        for candidate in candidates {
            let west = up.cross(candidate)  // reference y = z × x
            guard west.length > 0.1 * candidate.length else { continue }
            let westUnit = west.normalized
            let northUnit = westUnit.cross(up)
            // Rows of the device → reference matrix are the reference axes seen in the device frame.
            return Quaternion(rotationMatrix: RotationMatrix(row0: northUnit, row1: westUnit, row2: up))
        }
        return .identity  // unreachable: device x and z cannot both be parallel to `up`
    }
}
