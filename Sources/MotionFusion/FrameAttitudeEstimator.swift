#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath
import MotionModel

/// An ``AttitudeFilter`` reporting the attitude in one ``AttitudeReferenceFrame``: 6-axis for
/// ``AttitudeReferenceFrame/xArbitraryZVertical``, 9-axis for the others; the corrected arbitrary frame turns
/// the magnetic attitude about the vertical so that the yaw at initialisation is 0; true north turns it by
/// the magnetic declination.
public struct FrameAttitudeEstimator: Sendable {
    /// The frame ``attitude`` is reported in.
    public let frame: AttitudeReferenceFrame
    /// The filter underneath (its own reference is north-west-up with the magnetometer, arbitrary without).
    public private(set) var filter: AttitudeFilter
    /// Magnetic declination for ``AttitudeReferenceFrame/xTrueNorthZVertical``, degrees east of true north
    /// (negative west); `nil` counts as 0. May change at any time.
    public var declination: Double?
    /// For the corrected arbitrary frame: the rotation about the vertical applied to the magnetic attitude.
    private var yawCorrection: Quaternion?

    /// Creates the estimator of `frame`.
    /// - Parameters:
    ///   - frame: the frame to report in.
    ///   - declination: degrees east of true north, for ``AttitudeReferenceFrame/xTrueNorthZVertical``.
    ///   - settings: the filter's tuning; its ``AttitudeFilter/Settings/useMagnetometer`` is set from the frame.
    public init(frame: AttitudeReferenceFrame, declination: Double? = nil, settings: AttitudeFilter.Settings = .init()) {
        self.frame = frame
        self.declination = declination
        var settings = settings
        settings.useMagnetometer = frame.usesMagnetometer
        filter = AttitudeFilter(settings: settings)
    }

    /// Feeds one set of readings taken at the same instant (see ``AttitudeFilter/update(gyroscope:accelerometer:magnetometer:deltaTime:)``).
    /// - Parameters:
    ///   - gyroscope: rad/s; accelerometer: specific force, m/s²; magnetometer: µT (device frame).
    ///   - deltaTime: seconds since the previous update.
    public mutating func update(
        gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>?, magnetometer: SIMD3<Double>?, deltaTime: Double
    ) {
        filter.update(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, deltaTime: deltaTime)
        if frame == .xArbitraryCorrectedZVertical, yawCorrection == nil, filter.isInitialized {
            yawCorrection = Quaternion(axis: SIMD3(0, 0, 1), angle: -Self.yaw(of: filter.attitude))
        }
    }

    /// Rotation device → ``frame``: `v_frame = attitude ⊗ v_device ⊗ attitude*`.
    public var attitude: Quaternion {
        switch frame {
        case .xArbitraryZVertical, .xMagneticNorthZVertical:
            return filter.attitude
        case .xArbitraryCorrectedZVertical:
            return yawCorrection.map { $0 * filter.attitude } ?? filter.attitude
        case .xTrueNorthZVertical:
            // Magnetic north lies `declination` clockwise (east) of true north: the magnetic frame turns
            // counter-clockwise by −declination about the vertical into the true frame.
            return Quaternion(axis: SIMD3(0, 0, 1), angle: -(declination ?? 0) * .pi / 180) * filter.attitude
        }
    }

    /// Rotation device → East-North-Up: ``attitude`` taken to ENU for the north frames; for the arbitrary
    /// frames their own x, as if it were east (they have no north).
    public var attitudeInEastNorthUp: Quaternion {
        frame.toEastNorthUp.map { $0 * attitude } ?? attitude
    }

    /// Yaw of `attitude` in Apple's Euler convention (device → reference = Rz(yaw)·Rx(pitch)·Ry(roll)), rad.
    static func yaw(of attitude: Quaternion) -> Double {
        let matrix = attitude.rotationMatrix
        return atan2(-matrix.row0.y, matrix.row1.y)
    }
}
