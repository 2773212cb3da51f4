#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Taps on a device lying face up: what `motion=tap` simulates.
///
/// Each ``period`` holds a single tap at 1.5 s and a double tap at 4.0 s and 4.25 s (``tapTimes``). A tap
/// pushes the device down and lets it spring back: its vertical acceleration is a difference of two
/// Gaussians centred on the tap, a sharp one (σ 5 ms) and a broad, shallow one (σ 40 ms) of equal area, so
/// the velocity and the position return to zero and the rebound stays at an eighth of the peak. The peak
/// is ``acceleration`` (downwards); the device moves by a few millimetres. Attitude stays the identity.
///
/// Ground truth per period: one single tap and one double tap, no shake and no free fall.
public struct SimulatedTaps: Sendable, Equatable {
    /// Peak acceleration of a tap, m/s² (default 29.4, 3 g).
    public var acceleration: Double
    /// Length of one pattern, s (default 6); at least 5.
    public var period: Double

    /// When the taps come, s after the start of each period: a single one, then two 0.25 s apart.
    public let tapTimes = [1.5, 4.0, 4.25]

    /// Width (σ) of the sharp and the broad Gaussian, s.
    private static let sharpWidth = 0.005, broadWidth = 0.04

    /// Creates a tap pattern; every parameter has the documented default.
    /// - Parameters:
    ///   - acceleration: m/s².
    ///   - period: s.
    public init(acceleration: Double = 29.4, period: Double = 6) {
        self.acceleration = acceleration
        self.period = period
    }

    /// The vertical motion of one tap `offset` s from its centre: position, velocity and acceleration of
    /// `−(P·G₁ − Q·G₂)` with `P σ₁ = Q σ₂`, integrated in closed form (erf for the velocity).
    private func tap(at offset: Double) -> ScenarioProfile {
        let sharp = Self.sharpWidth, broad = Self.broadWidth
        let peak = acceleration / (1 - sharp / broad)
        let shallow = peak * sharp / broad
        let sharpGaussian = exp(-offset * offset / (2 * sharp * sharp))
        let broadGaussian = exp(-offset * offset / (2 * broad * broad))
        let velocityScale = peak * sharp * (Double.pi / 2).squareRoot()
        let errorDifference = erf(offset / (2.0.squareRoot() * sharp)) - erf(offset / (2.0.squareRoot() * broad))
        let profile = ScenarioProfile(
            value: velocityScale * offset * errorDifference + peak * sharp * sharp * sharpGaussian - shallow * broad * broad * broadGaussian,
            derivative: velocityScale * errorDifference,
            secondDerivative: peak * sharpGaussian - shallow * broadGaussian)
        return -1 * profile
    }

    func kinematics(at time: Double) -> SimulatedKinematics {
        let phase = time.phase(inPeriod: max(period, 5))
        var up = ScenarioProfile()
        // Each tap reaches about 0.3 s (7.5 σ of the broad Gaussian) either side.
        for centre in tapTimes where abs(phase - centre) < 0.3 { up = up + tap(at: phase - centre) }
        return SimulatedKinematics(
            attitude: .identity, position: SIMD3(0, 0, up.value), velocity: SIMD3(0, 0, up.derivative),
            acceleration: SIMD3(0, 0, up.secondDerivative))
    }
}
