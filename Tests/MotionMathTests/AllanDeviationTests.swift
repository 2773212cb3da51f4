import Foundation
import MotionMath
import MotionTestSupport
import Testing

/// The Allan deviation against noise of known kind and size.
@Suite struct AllanDeviationTests {
    /// White noise of standard deviation `sigma` per sample plus, optionally, a random-walk bias growing by
    /// `walk` per √s.
    static func series(count: Int, rate: Double, sigma: Double, walk: Double = 0, seed: UInt64 = 7) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        var bias = 0.0
        return (0..<count).map { _ in
            bias += walk * generator.gaussian() / rate.squareRoot()
            return sigma * generator.gaussian() + bias
        }
    }

    @Test func whiteNoiseFallsWithSlopeMinusOneHalfAndGivesItsDensity() throws {
        // 0.01 rad/s per sample at 200 Hz: a density of 0.01 / √200 = 7.07e-4 rad/s/√Hz.
        let rate = 200.0
        let allan = AllanDeviation(samples: Self.series(count: 60_000, rate: rate, sigma: 0.01), samplePeriod: 1 / rate)
        let density = try #require(allan.randomWalkCoefficient)
        #expect(abs(density / (0.01 / rate.squareRoot()) - 1) < 0.05, "density \(density)")
        // Every point lies on N / √τ within three times its own relative uncertainty, 1 / √(2·(clusters − 1)).
        for point in allan.points {
            let tolerance = 3 / (2 * Double(point.clusters - 1)).squareRoot()
            #expect(abs(point.deviation / (density / point.tau.squareRoot()) - 1) < tolerance, "τ \(point.tau): \(point.deviation)")
        }
        #expect(allan.points.first?.tau == 1 / rate && allan.points.last!.tau <= 300.0 / 9 + 1e-9)
    }

    @Test func aWanderingBiasMakesAFloorWhoseMinimumIsTheBiasInstability() throws {
        let rate = 100.0
        let allan = AllanDeviation(
            samples: Self.series(count: 120_000, rate: rate, sigma: 0.005, walk: 2e-4), samplePeriod: 1 / rate)
        let instability = try #require(allan.biasInstability)
        // The minimum lies inside the curve (the random walk raises it again at long τ), not at its end.
        #expect(instability.tau > allan.points.first!.tau && instability.tau < allan.points.last!.tau, "τ \(instability.tau)")
        let floor = try #require(allan.points.map(\.deviation).min())
        #expect(abs(instability.value * 0.664 - floor) < 1e-3 * floor)
        // And it lies below the white noise alone at that τ would give over a longer record.
        #expect(floor < 0.005 / rate.squareRoot() / 0.1.squareRoot())
    }

    @Test func tooFewSamplesGiveNoCurve() {
        #expect(AllanDeviation(samples: [1, 2, 3], samplePeriod: 0.01).points.isEmpty)
        #expect(AllanDeviation(samples: Array(repeating: 0, count: 100), samplePeriod: 0).randomWalkCoefficient == nil)
    }
}
