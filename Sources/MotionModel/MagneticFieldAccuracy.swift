/// How well a magnetic field reading is calibrated: Apple's `CMMagneticFieldCalibrationAccuracy`, with
/// the same raw values and order (the contract's names for them are in MotionContract).
public enum MagneticFieldAccuracy: Int, Sendable, Comparable, CaseIterable {
    /// Not calibrated (a raw reading).
    case uncalibrated = -1
    /// Poorly calibrated (a raw reading the filter uses, or a low-grade calibration).
    case low = 0
    /// A usable calibration.
    case medium = 1
    /// A good calibration.
    case high = 2

    /// Worse calibrations order first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
