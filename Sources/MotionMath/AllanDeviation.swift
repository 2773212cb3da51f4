#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The overlapping Allan deviation of a sensor's output recorded at rest (IEEE Std 952), and the two
/// noise figures read from it: the random-walk coefficient (the white noise's density: angle random walk
/// for a gyroscope, velocity random walk for an accelerometer) and the bias instability (the floor of the
/// curve).
///
/// With the output integrated, `θ(k) = τ₀·Σᵢ<ₖ x(i)`, the Allan variance at the cluster time `τ = m·τ₀` is
/// `σ²(τ) = Σₖ (θ(k+2m) − 2θ(k+m) + θ(k))² / (2τ²·(N − 2m))` over every overlapping cluster. White noise
/// of density `N` gives `σ(τ) = N / √τ` (slope −½ on a log-log plot); a bias instability `B` gives a
/// flat floor of about `0.664·B`.
///
/// Pure value; units follow the samples (rad/s → rad/s; density in unit·√s, that is unit/√Hz).
public struct AllanDeviation: Sendable, Equatable {
    /// One point of the curve.
    public struct Point: Sendable, Equatable {
        /// Cluster time, s.
        public let tau: Double
        /// Allan deviation at ``tau``, in the samples' unit.
        public let deviation: Double
        /// Independent clusters behind it (record length / τ): the point's relative error is about
        /// 1 / √(2·(clusters − 1)).
        public let clusters: Int
    }

    /// The curve, at cluster times spaced evenly on a log scale from one sample to a ninth of the record
    /// (beyond that fewer than nine clusters make a point too uncertain to read).
    public let points: [Point]

    /// Computes the curve.
    /// - Parameters:
    ///   - samples: the output at rest, equally spaced.
    ///   - samplePeriod: their spacing, s (> 0).
    ///   - pointsPerDecade: cluster times per factor of ten (default 10).
    public init(samples: [Double], samplePeriod: Double, pointsPerDecade: Int = 10) {
        let count = samples.count
        guard count >= 18, samplePeriod > 0, samplePeriod.isFinite else {
            points = []
            return
        }
        var integrated = [Double](repeating: 0, count: count + 1)
        for index in 0..<count { integrated[index + 1] = integrated[index] + samples[index] * samplePeriod }
        var multiples: [Int] = []
        let largest = count / 9
        var exponent = 0.0
        while true {
            let m = Int((pow10(exponent / Double(pointsPerDecade))).rounded())
            exponent += 1
            if m > largest { break }
            if multiples.last != m { multiples.append(m) }
        }
        points = multiples.map { m in
            let tau = Double(m) * samplePeriod
            var sum = 0.0
            let terms = count + 1 - 2 * m
            for k in 0..<terms {
                let difference = integrated[k + 2 * m] - 2 * integrated[k + m] + integrated[k]
                sum += difference * difference
            }
            let variance = sum / (2 * tau * tau * Double(terms))
            return Point(tau: tau, deviation: variance.squareRoot(), clusters: count / m)
        }
    }

    /// The white noise's density (unit·√s = unit/√Hz): the −½-slope line's value at τ = 1 s, read as the
    /// median of `σ(τ)·√τ` over the points where the curve falls with a slope between −0.75 and −0.25 (the
    /// white-noise region), or over the three shortest cluster times if none does. Nil without points.
    public var randomWalkCoefficient: Double? {
        guard !points.isEmpty else { return nil }
        var products: [Double] = []
        for index in points.indices.dropLast() {
            let (a, b) = (points[index], points[index + 1])
            guard a.deviation > 0, b.deviation > 0 else { continue }
            let slope = (log(b.deviation) - log(a.deviation)) / (log(b.tau) - log(a.tau))
            if (-0.75)...(-0.25) ~= slope { products.append(a.deviation * a.tau.squareRoot()) }
        }
        if products.isEmpty { products = points.prefix(3).map { $0.deviation * $0.tau.squareRoot() } }
        products.sort()
        return products[products.count / 2]
    }

    /// The bias instability, in the samples' unit: the curve's minimum divided by √(2·ln 2 / π) ≈ 0.664,
    /// and the cluster time where it lies, s. A record too short to reach the floor gives the last point,
    /// an upper bound. Nil without points.
    public var biasInstability: (value: Double, tau: Double)? {
        guard let floor = points.min(by: { $0.deviation < $1.deviation }) else { return nil }
        return (floor.deviation / (2 * 0.6931471805599453 / Double.pi).squareRoot(), floor.tau)
    }
}

/// 10^x without Foundation.
private func pow10(_ x: Double) -> Double { exp(x * 2.302585092994046) }
