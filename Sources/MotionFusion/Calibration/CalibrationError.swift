/// Why a calibration could not be computed from the data given; the text says what was wrong with it, in
/// numbers and units, and what to do.
public enum CalibrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer samples or orientations than the fit needs.
    case tooFewSamples(String)
    /// The device moved during a period that had to be still.
    case notStill(String)
    /// Orientations the accelerometer calibration needs are missing.
    case missingOrientations(String)
    /// The data cannot determine the model (for example magnetometer readings in a plane, or a quadric that
    /// is not an ellipsoid).
    case degenerate(String)
    /// The iterative fit did not settle.
    case didNotConverge(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .tooFewSamples(let why): "too few samples: \(why)"
        case .notStill(let why): "the device was not still: \(why)"
        case .missingOrientations(let why): "missing orientations: \(why)"
        case .degenerate(let why): "degenerate data: \(why)"
        case .didNotConverge(let why): "the fit did not converge: \(why)"
        }
    }
}
