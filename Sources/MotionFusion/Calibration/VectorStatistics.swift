import MotionMath

/// The mean and spread of a set of 3-D vectors, in the vectors' unit.
public struct VectorStatistics: Sendable, Equatable {
    /// How many vectors.
    public let count: Int
    /// Their mean.
    public let mean: SIMD3<Double>
    /// The root mean square distance of the vectors from their mean (the spread; the square root of the
    /// trace of the covariance).
    public let spread: SIMD3<Double>.Scalar

    /// Computes the statistics of `vectors` (two passes, so the spread is exact even for a large mean).
    /// - Parameter vectors: any number of vectors; an empty set has mean zero and spread zero.
    public init(_ vectors: [SIMD3<Double>]) {
        count = vectors.count
        guard !vectors.isEmpty else {
            mean = .zero
            spread = 0
            return
        }
        let mean = vectors.reduce(SIMD3<Double>.zero, +) / Double(vectors.count)
        self.mean = mean
        spread = (vectors.reduce(0.0) { $0 + ($1 - mean).lengthSquared } / Double(vectors.count)).squareRoot()
    }
}
