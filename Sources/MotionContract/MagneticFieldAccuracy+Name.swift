import MotionModel

/// The names the contract writes for an accuracy: `uncalibrated`, `low`, `medium`, `high`.
extension MagneticFieldAccuracy {
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
}
