/// Root-mean-square orientation errors over many samples, in degrees, as the BROAD benchmark reports them.
public struct OrientationErrorStatistics: Sendable, Equatable {
    /// Samples added.
    public private(set) var count = 0
    private var sumOfSquares = SIMD3<Double>(repeating: 0)  // total, heading, inclination, rad²

    /// No samples yet.
    public init() {}

    /// Adds one sample's error.
    public mutating func add(_ error: OrientationError) {
        count += 1
        let components = SIMD3(error.total, error.heading, error.inclination)
        sumOfSquares += components * components
    }

    /// RMS of the total error, degrees (NaN without samples).
    public var totalRMSE: Double { rms(sumOfSquares.x) }
    /// RMS of the heading error, degrees (NaN without samples).
    public var headingRMSE: Double { rms(sumOfSquares.y) }
    /// RMS of the inclination error, degrees (NaN without samples).
    public var inclinationRMSE: Double { rms(sumOfSquares.z) }

    private func rms(_ sum: Double) -> Double {
        count == 0 ? .nan : (sum / Double(count)).squareRoot() * 180 / .pi
    }
}
