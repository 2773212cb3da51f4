/// How good a magnetometer calibration is, from the fit's residual relative to the field strength and the
/// sphere coverage of the data it was fitted to.
///
/// | grade | residual RMS / field | coverage |
/// |---|---|---|
/// | ``high`` | ≤ 2 % | ≥ 75 % |
/// | ``medium`` | ≤ 5 % | ≥ 50 % |
/// | ``low`` | anything else the fit accepted | |
///
/// Why these numbers: a residual error `e` of the field's strength `F` turns the horizontal field `H` by up
/// to `e·F/H`; at mid latitudes (inclination 60–65°) `H ≈ 0.45 F`, so 2 % is about 2.5° of heading and 5 %
/// about 6°, the difference between a compass one trusts and one that only points roughly. Coverage: the
/// ellipsoid is only measured where the data are; with under half the sphere seen, its shape elsewhere is
/// extrapolated and the soft-iron axes can be far off while the residual stays small, and three quarters
/// of the 32 sectors is what half a minute of turning a board by hand through every orientation gives.
public enum MagnetometerCalibrationQuality: String, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// A rough calibration: large residual or little coverage.
    case low
    /// A usable calibration.
    case medium
    /// A good calibration.
    case high

    /// Largest residual relative to the field for ``high``.
    public static let highResidualLimit = 0.02
    /// Smallest coverage for ``high``.
    public static let highCoverageLimit = 0.75
    /// Largest residual relative to the field for ``medium``.
    public static let mediumResidualLimit = 0.05
    /// Smallest coverage for ``medium``.
    public static let mediumCoverageLimit = 0.5

    /// Grades a fit.
    /// - Parameters:
    ///   - relativeResidual: the residual RMS divided by the field strength (dimensionless).
    ///   - coverage: the covered fraction of the sphere, 0…1.
    public init(relativeResidual: Double, coverage: Double) {
        if relativeResidual <= Self.highResidualLimit && coverage >= Self.highCoverageLimit {
            self = .high
        } else if relativeResidual <= Self.mediumResidualLimit && coverage >= Self.mediumCoverageLimit {
            self = .medium
        } else {
            self = .low
        }
    }

    /// `low`, `medium` or `high`.
    public var description: String { rawValue }

    /// Orders the grades from low to high.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }
}
