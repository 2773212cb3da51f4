/// Percentiles of a set of latencies, in milliseconds.
struct LatencyStatistics: Sendable, Codable {
    /// How many latencies were measured.
    let count: Int
    /// Median, ms.
    let p50: Double
    /// 90th percentile, ms.
    let p90: Double
    /// 99th percentile, ms.
    let p99: Double
    /// Largest, ms.
    let max: Double

    /// The statistics of `milliseconds` (nearest-rank percentiles); all zero when it is empty.
    init(milliseconds: [Double]) {
        let sorted = milliseconds.sorted()
        count = sorted.count
        func percentile(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
        }
        p50 = percentile(0.50)
        p90 = percentile(0.90)
        p99 = percentile(0.99)
        max = sorted.last ?? 0
    }
}
