import MotionMath

/// The reference frames an attitude is reported in, named as Apple's `CMAttitudeReferenceFrame` cases. All
/// have z pointing up; they differ in where x points.
public enum AttitudeReferenceFrame: String, CaseIterable, Sendable {
    /// x arbitrary (fixed by the first sample), 6-axis: the heading drifts with the residual gyroscope bias.
    case xArbitraryZVertical
    /// x arbitrary (the device's heading at start becomes yaw 0), 9-axis: the magnetometer holds the
    /// heading, so it does not drift.
    case xArbitraryCorrectedZVertical
    /// x to magnetic north, y west.
    case xMagneticNorthZVertical
    /// x to true north, y west: magnetic north turned by the magnetic declination.
    case xTrueNorthZVertical

    /// The frame device motion uses unless configured otherwise: magnetic north, z vertical.
    public static let defaultFrame = AttitudeReferenceFrame.xMagneticNorthZVertical

    /// Whether the frame needs the magnetometer.
    public var usesMagnetometer: Bool { self != .xArbitraryZVertical }

    /// Rotation from this frame to East-North-Up for the north-referenced frames (x north, y west, z up →
    /// x east, y north, z up: +90° about z); `nil` for the arbitrary frames, which have no north.
    public var toEastNorthUp: Quaternion? {
        switch self {
        case .xMagneticNorthZVertical, .xTrueNorthZVertical: Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2)
        case .xArbitraryZVertical, .xArbitraryCorrectedZVertical: nil
        }
    }
}
