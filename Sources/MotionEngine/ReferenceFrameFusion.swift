#if canImport(Glibc)
import Glibc
#endif
import MotionFusion
import MotionMath
import MotionModel

/// The attitude filter of one reference frame (MotionFusion's ``FrameAttitudeEstimator``), fed at the full
/// sensor rate, and the conversion of its state into a device-motion sample in Apple's units and signs.
///
/// - `xArbitraryZVertical`: 6-axis filter (the magnetometer is ignored).
/// - `xArbitraryCorrectedZVertical`: 9-axis filter; the attitude is turned about the vertical by the
///   (arbitrary, fixed) magnetic yaw the device had when the filter initialised, so the yaw starts at 0 and
///   no longer drifts.
/// - `xMagneticNorthZVertical`: 9-axis filter, x = magnetic north, y = west.
/// - `xTrueNorthZVertical`: the magnetic-north attitude turned about the vertical by the magnetic
///   declination, x = true north, y = west.
struct ReferenceFrameFusion {
    /// The frame this filter reports in (a single flag).
    let frame: AttitudeReferenceFrame
    private var estimator: FrameAttitudeEstimator
    /// The last magnetometer reading, µT (device axes), for the device motion's field.
    private var lastMagneticField: SIMD3<Double>?

    /// Creates the filter of `frame`.
    /// - Parameters:
    ///   - frame: one reference frame.
    ///   - declination: degrees east of true north, for `xTrueNorthZVertical`.
    ///   - settings: the filter's tuning (its magnetometer use follows the frame).
    init(frame: AttitudeReferenceFrame, declination: Double? = nil, settings: AttitudeFilter.Settings = .init()) {
        self.frame = frame
        estimator = FrameAttitudeEstimator(frame: frame, declination: declination, settings: settings)
    }

    /// For the true-north frame: the magnetic declination, degrees east of true north.
    var declination: Double? {
        get { estimator.declination }
        set { estimator.declination = newValue }
    }

    /// Whether the frame needs a magnetometer.
    var usesMagnetometer: Bool { estimator.frame.usesMagnetometer }

    /// Whether the filter has an attitude (after its first usable accelerometer reading).
    var isReady: Bool { estimator.filter.isInitialized }

    /// The filter's estimate of the gyroscope bias, rad/s (device axes).
    var gyroscopeBias: SIMD3<Double> { estimator.filter.gyroscopeBias }

    /// The filter's own 1 σ errors, degrees (nil before it has an attitude).
    var uncertainty: AttitudeUncertaintyEstimate? {
        let filter = estimator.filter
        guard filter.isInitialized else { return nil }
        return AttitudeUncertaintyEstimate(
            heading: filter.headingUncertainty * 180 / .pi, inclination: filter.inclinationUncertainty * 180 / .pi)
    }

    /// Whether the filter rejected the last magnetometer reading as magnetically disturbed.
    var isMagneticallyDisturbed: Bool { usesMagnetometer && estimator.filter.isMagneticallyDisturbed }

    /// Feeds one IMU sample.
    /// - Parameters:
    ///   - gyroscope: rad/s; accelerometer: specific force, m/s²; magnetometer: µT (device axes).
    ///   - deltaTime: seconds since the previous sample (0 for the first one).
    mutating func update(
        gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>?, magnetometer: SIMD3<Double>?, deltaTime: Double
    ) {
        estimator.update(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, deltaTime: deltaTime)
        if let magnetometer { lastMagneticField = magnetometer }
    }

    /// The filter's output now in SI units, what the detectors read.
    /// - Parameters:
    ///   - accelerometer: the specific force of the current sample, m/s².
    ///   - timestamp: seconds since boot.
    func fusedSample(accelerometer: SIMD3<Double>, timestamp: Double) -> FusedMotionSample {
        let filter = estimator.filter
        return FusedMotionSample(
            timestamp: timestamp, specificForce: accelerometer, gravity: filter.gravity,
            gravityMagnitude: filter.settings.gravity, rotationRate: filter.rotationRate,
            attitude: estimator.attitude.normalized)
    }

    /// The device motion now, in Apple's units and signs.
    /// - Parameters:
    ///   - accelerometer: the specific force of the current sample, m/s² (for `userAcceleration`).
    ///   - timestamp: seconds since boot.
    ///   - magneticCalibrationAccuracy: the grade of the magnetometer calibration the filter's readings were
    ///     corrected with, or nil when they are raw.
    func deviceMotion(
        accelerometer: SIMD3<Double>, timestamp: Double,
        magneticCalibrationAccuracy: MagneticFieldAccuracy? = nil
    ) -> DeviceMotionSample {
        let filter = estimator.filter
        let attitude = estimator.attitude
        let fused = fusedSample(accelerometer: accelerometer, timestamp: timestamp)
        let (userAcceleration, gravity) = fused.appleVectors
        var magneticField = SIMD3<Double>.zero
        var accuracy = MagneticFieldAccuracy.uncalibrated
        if usesMagnetometer, let field = lastMagneticField {
            // With a hard/soft-iron calibration the field is the corrected reading and the accuracy the
            // calibration's grade; without one it is the raw reading, hence `.low` at best.
            magneticField = field
            accuracy = magneticCalibrationAccuracy ?? (filter.isHeadingReferenced ? .low : .uncalibrated)
        }
        let heading =
            frame == .xMagneticNorthZVertical || frame == .xTrueNorthZVertical
            ? Self.heading(of: attitude) : -1
        return DeviceMotionSample(
            timestamp: timestamp, attitude: fused.attitude, rotationRate: fused.rotationRate, gravity: gravity,
            userAcceleration: userAcceleration, magneticField: magneticField, magneticAccuracy: accuracy,
            heading: heading, uncertainty: uncertainty)
    }

    /// Compass heading of the device's top edge (its y-axis), or of the back camera's direction (-z) when
    /// the top edge is clearly steeper than the back (a device held upright, as a compass app is), degrees
    /// clockwise from the reference x-axis (north) in [0, 360). Tilting a device about its x-axis hands over
    /// between the two at 45° without a jump: both then point the same way horizontally.
    /// - Parameter attitude: device → reference (x north, y west, z up).
    static func heading(of attitude: Quaternion) -> Double {
        let top = attitude.rotate(SIMD3(0, 1, 0)), back = attitude.rotate(SIMD3(0, 0, -1))
        // The back only when the top is clearly steeper: a device lying on its side (both horizontal)
        // keeps the top edge's heading.
        let pointing = abs(top.z) > abs(back.z) + 0.2 ? back : top
        // Clockwise from north means towards east, which is -y (west is +y).
        var degrees = atan2(-pointing.y, pointing.x) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        return degrees >= 360 ? 0 : degrees
    }
}
