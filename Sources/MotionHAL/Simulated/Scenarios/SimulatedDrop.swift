#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A device dropped onto a firm floor, again and again: what `motion=drop` simulates.
///
/// Each ``period`` the device lies face up on the floor for 2 s, is lifted smoothly over 3 s until its
/// lowest point is ``height`` above the point of contact, held still for 1 s, and let go at
/// ``releaseTime``: it falls freely for ``fallDuration(gravity:)`` (specific force zero), hits the floor at
/// ``impactSpeed(gravity:)`` and is stopped within ``stopTime`` by a half-sine deceleration peaking at
/// ``peakDeceleration(gravity:)``, and lies still until the next period. The floor gives a little: the
/// device comes to rest `impactSpeed · stopTime / 2` below the point of contact. Attitude stays the identity
/// (face up, y north).
///
/// Ground truth per period: one free fall of `√(2h/g)` s (0.452 s from 1 m) and one impact.
public struct SimulatedDrop: Sendable, Equatable {
    /// Height of the fall, m, > 0 (default 1).
    public var height: Double
    /// Time the floor takes to stop the device, s, > 0 (default 0.04: about 18 g from 1 m).
    public var stopTime: Double
    /// Length of one lift-and-drop cycle, s (default 10); at least the time to the end of the impact plus 1 s.
    public var period: Double

    /// When the device is let go, s after the start of each period.
    public let releaseTime = 6.0

    /// Creates a drop; every parameter has the documented default.
    /// - Parameters:
    ///   - height: m, > 0.
    ///   - stopTime: s, > 0.
    ///   - period: s.
    public init(height: Double = 1, stopTime: Double = 0.04, period: Double = 10) {
        self.height = height
        self.stopTime = stopTime
        self.period = period
    }

    /// How long the device falls freely, s: `√(2h/g)`.
    /// - Parameter gravity: m/s².
    public func fallDuration(gravity: Double) -> Double { (2 * height / gravity).squareRoot() }

    /// Speed at the floor, m/s: `√(2gh)`.
    /// - Parameter gravity: m/s².
    public func impactSpeed(gravity: Double) -> Double { (2 * gravity * height).squareRoot() }

    /// Peak deceleration of the impact, m/s²: `π v / (2 · stopTime)` (the accelerometer reads this plus g).
    /// - Parameter gravity: m/s².
    public func peakDeceleration(gravity: Double) -> Double { .pi * impactSpeed(gravity: gravity) / (2 * stopTime) }

    /// The height over the floor's resting level and its derivatives along ENU z at `time`.
    func vertical(at time: Double, gravity: Double) -> ScenarioProfile {
        let speed = impactSpeed(gravity: gravity)
        let fall = fallDuration(gravity: gravity)
        let floor = -speed * stopTime / 2
        let cycle = max(period, releaseTime + fall + stopTime + 1)
        let phase = time.phase(inPeriod: cycle)
        switch phase {
        case ..<2:
            return .constant(floor)
        case ..<5:
            return .constant(floor) + (height - floor) * .smoothStep(at: phase - 2, duration: 3)
        case ..<releaseTime:
            return .constant(height)
        case ..<(releaseTime + fall):
            let falling = phase - releaseTime
            return ScenarioProfile(value: height - gravity * falling * falling / 2, derivative: -gravity * falling, secondDerivative: -gravity)
        case ..<(releaseTime + fall + stopTime):
            // Deceleration (π v / 2τ) sin(π r / τ): the velocity goes from −v to 0 in τ.
            let stopping = phase - releaseTime - fall
            let angle = Double.pi * stopping / stopTime
            return ScenarioProfile(
                value: -speed * stopping + speed / 2 * (stopping - stopTime / .pi * sin(angle)),
                derivative: -speed + speed / 2 * (1 - cos(angle)),
                secondDerivative: .pi * speed / (2 * stopTime) * sin(angle))
        default:
            return .constant(floor)
        }
    }

    func kinematics(at time: Double, gravity: Double) -> SimulatedKinematics {
        let up = vertical(at: time, gravity: gravity)
        return SimulatedKinematics(
            attitude: .identity, position: SIMD3(0, 0, up.value), velocity: SIMD3(0, 0, up.derivative),
            acceleration: SIMD3(0, 0, up.secondDerivative))
    }
}
