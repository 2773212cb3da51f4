/// How well a magnetic field reading is calibrated: Apple's `CMMagneticFieldCalibrationAccuracy`, with
/// the same raw values and order, and the names the contract writes (`uncalibrated`, `low`, `medium`,
/// `high`).
public enum MagneticFieldAccuracy: Int, Sendable, Comparable, CaseIterable {
    /// Not calibrated (a raw reading).
    case uncalibrated = -1
    /// Poorly calibrated (a raw reading the filter uses, or a low-grade calibration).
    case low = 0
    /// A usable calibration.
    case medium = 1
    /// A good calibration.
    case high = 2

    /// The contract's name: `uncalibrated`, `low`, `medium` or `high`.
    public var name: String {
        switch self {
        case .uncalibrated: "uncalibrated"
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    /// The accuracy named `name` in the contract, if any.
    public init?(name: String) {
        guard let accuracy = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = accuracy
    }

    /// Worse calibrations order first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
