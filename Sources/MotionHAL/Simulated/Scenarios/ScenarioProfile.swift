#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One coordinate of a scenario's motion at one instant and its exact derivatives: position (m or rad),
/// velocity (per s) and acceleration (per s²). Profiles add, so a scenario is built from simple parts.
struct ScenarioProfile {
    var value = 0.0
    var derivative = 0.0
    var secondDerivative = 0.0

    static func + (lhs: ScenarioProfile, rhs: ScenarioProfile) -> ScenarioProfile {
        ScenarioProfile(
            value: lhs.value + rhs.value, derivative: lhs.derivative + rhs.derivative,
            secondDerivative: lhs.secondDerivative + rhs.secondDerivative)
    }

    static func * (scale: Double, profile: ScenarioProfile) -> ScenarioProfile {
        ScenarioProfile(value: scale * profile.value, derivative: scale * profile.derivative, secondDerivative: scale * profile.secondDerivative)
    }

    /// The product of two profiles, by the product rule.
    static func * (lhs: ScenarioProfile, rhs: ScenarioProfile) -> ScenarioProfile {
        ScenarioProfile(
            value: lhs.value * rhs.value,
            derivative: lhs.derivative * rhs.value + lhs.value * rhs.derivative,
            secondDerivative: lhs.secondDerivative * rhs.value + 2 * lhs.derivative * rhs.derivative + lhs.value * rhs.secondDerivative)
    }

    /// A constant.
    static func constant(_ value: Double) -> ScenarioProfile { ScenarioProfile(value: value) }

    /// `sin(ω t)` with ω = 2π·frequency.
    static func sine(frequency: Double, at time: Double) -> ScenarioProfile {
        let omega = 2 * Double.pi * frequency
        return ScenarioProfile(value: sin(omega * time), derivative: omega * cos(omega * time), secondDerivative: -omega * omega * sin(omega * time))
    }

    /// `cos(ω t)` with ω = 2π·frequency.
    static func cosine(frequency: Double, at time: Double) -> ScenarioProfile {
        let omega = 2 * Double.pi * frequency
        return ScenarioProfile(value: cos(omega * time), derivative: -omega * sin(omega * time), secondDerivative: -omega * omega * cos(omega * time))
    }

    /// The quintic smooth step `10u³ − 15u⁴ + 6u⁵` of `u = time / duration`: 0 before 0, 1 after `duration`,
    /// with zero velocity and acceleration at both ends.
    static func smoothStep(at time: Double, duration: Double) -> ScenarioProfile {
        let u = time / duration
        guard u > 0 else { return ScenarioProfile() }
        guard u < 1 else { return ScenarioProfile(value: 1) }
        return ScenarioProfile(
            value: u * u * u * (10 - 15 * u + 6 * u * u),
            derivative: 30 * u * u * (1 - u) * (1 - u) / duration,
            secondDerivative: 60 * u * (1 - u) * (1 - 2 * u) / (duration * duration))
    }

    /// The integral of ``smoothStep(at:duration:)`` from 0 to `time`, s: a speed that ramps up smoothly
    /// gives this distance (per unit speed), and its derivatives are the step's.
    static func smoothStepIntegral(at time: Double, duration: Double) -> ScenarioProfile {
        guard time > 0 else { return ScenarioProfile() }
        let step = smoothStep(at: time, duration: duration)
        let u = min(time / duration, 1)
        let ramp = duration * u * u * u * u * (2.5 - 3 * u + u * u)
        return ScenarioProfile(value: ramp + max(time - duration, 0), derivative: step.value, secondDerivative: step.derivative)
    }

    /// The integral of ``smoothStepIntegral(at:duration:)`` from 0 to `time`, s²: an acceleration that
    /// ramps up smoothly over `duration` and then holds gives this distance (per unit acceleration), and
    /// its derivatives are the integral's.
    static func smoothStepDoubleIntegral(at time: Double, duration: Double) -> ScenarioProfile {
        guard time > 0 else { return ScenarioProfile() }
        let speed = smoothStepIntegral(at: time, duration: duration)
        let u = min(time / duration, 1)
        // ∫₀ᵘ (2.5v⁴ − 3v⁵ + v⁶) dv, scaled by duration²; past the ramp, the speed's integral goes on.
        let ramp = duration * duration * u * u * u * u * u * (0.5 - 0.5 * u + u * u / 7)
        let beyond = max(time - duration, 0)
        return ScenarioProfile(
            value: ramp + duration / 2 * beyond + beyond * beyond / 2, derivative: speed.value, secondDerivative: speed.derivative)
    }

    /// A body meeting a surface at `speed` (m/s, downwards) and stopped by a half-sine deceleration
    /// `(π v / 2τ) sin(π r / τ)` within `duration` τ: its height below the point of contact and its
    /// derivatives `elapsed` r s after the contact (0 ≤ r ≤ τ); it comes to rest `v τ / 2` below it.
    static func halfSineStop(after elapsed: Double, speed: Double, duration: Double) -> ScenarioProfile {
        let angle = Double.pi * elapsed / duration
        return ScenarioProfile(
            value: -speed * elapsed + speed / 2 * (elapsed - duration / .pi * sin(angle)),
            derivative: -speed + speed / 2 * (1 - cos(angle)),
            secondDerivative: .pi * speed / (2 * duration) * sin(angle))
    }
}

extension Double {
    /// This time folded into one period: `[0, period)` for a time ≥ 0.
    func phase(inPeriod period: Double) -> Double {
        let folded = truncatingRemainder(dividingBy: period)
        return folded < 0 ? folded + period : folded
    }
}
