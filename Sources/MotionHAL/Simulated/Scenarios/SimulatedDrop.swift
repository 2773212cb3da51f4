#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// A device dropped onto a firm floor, again and again: what `motion=drop` simulates.
///
/// Each ``period`` the device lies face up on the floor for 2 s, is lifted smoothly over 3 s until its
/// lowest point is ``height`` above the point of contact, held still for 1 s, and let go at
/// ``releaseTime``: it falls freely for ``fallDuration(gravity:)`` (specific force zero), hits the floor at
/// ``impactSpeed(gravity:)`` and is stopped within ``stopTime`` by a half-sine deceleration peaking at
/// ``peakDeceleration(gravity:)``, and lies still until the next period. The floor gives a little: the
/// device comes to rest `impactSpeed · stopTime / 2` below the point of contact. Attitude stays the identity
/// (face up, y north) unless the drop ``tumble``s: then the lift also turns the device about its x axis to
/// that angle (as a hand holds a phone), and it turns back at a constant rate while it falls (a body
/// falling freely keeps its spin) to land face up, the rotation stopped by the blow.
///
/// Ground truth per period: one free fall of `√(2h/g)` s (0.452 s from 1 m) and one impact; no fall of a
/// person (``ontoTable``: a device, not a wearer).
public struct SimulatedDrop: Sendable, Equatable {
    /// Height of the fall, m, > 0 (default 1).
    public var height: Double
    /// Time the floor takes to stop the device, s, > 0 (default 0.04: about 18 g from 1 m).
    public var stopTime: Double
    /// Length of one lift-and-drop cycle, s (default 10); at least the time to the end of the impact plus 1 s.
    public var period: Double
    /// The angle the device is held at before it is let go, turned back during the fall, rad (default 0).
    public var tumble: Double

    /// When the device is let go, s after the start of each period.
    public let releaseTime = 6.0

    /// Creates a drop; every parameter has the documented default.
    /// - Parameters:
    ///   - height: m, > 0.
    ///   - stopTime: s, > 0.
    ///   - period: s.
    ///   - tumble: rad.
    public init(height: Double = 1, stopTime: Double = 0.04, period: Double = 10, tumble: Double = 0) {
        self.height = height
        self.stopTime = stopTime
        self.period = period
        self.tumble = tumble
    }

    /// A phone let go from a hand 40 cm above a table (`motion=table_drop`): held upright (90° about x), it
    /// falls freely for 0.286 s, turning at 5.5 rad/s, lands face up at 2.8 m/s and is stopped by the hard
    /// table within 20 ms (a peak of about 23 g), then lies perfectly still. Ground truth: no fall of a
    /// person; its free fall, impact and change of posture are what a wearer's fall also shows, its stillness
    /// at the noise floor is not.
    public static let ontoTable = SimulatedDrop(height: 0.4, stopTime: 0.02, period: 10, tumble: .pi / 2)

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
            return .halfSineStop(after: phase - releaseTime - fall, speed: speed, duration: stopTime)
        default:
            return .constant(floor)
        }
    }

    /// The angle about the body's x axis and its derivatives at `time`: 0 on the floor, ``tumble`` while
    /// held, falling back to 0 at a constant rate between the release and the contact.
    func turn(at time: Double, gravity: Double) -> ScenarioProfile {
        guard tumble != 0 else { return ScenarioProfile() }
        let fall = fallDuration(gravity: gravity)
        let phase = time.phase(inPeriod: max(period, releaseTime + fall + stopTime + 1))
        switch phase {
        case ..<releaseTime: return tumble * .smoothStep(at: phase - 2, duration: 3)
        case ..<(releaseTime + fall): return ScenarioProfile(value: tumble * (1 - (phase - releaseTime) / fall), derivative: -tumble / fall)
        default: return ScenarioProfile()
        }
    }

    func kinematics(at time: Double, gravity: Double) -> SimulatedKinematics {
        let up = vertical(at: time, gravity: gravity)
        let turn = turn(at: time, gravity: gravity)
        // One fixed axis: the body rate is the angle's rate about it (exactly the identity without a tumble).
        return SimulatedKinematics(
            attitude: tumble == 0 ? .identity : Quaternion(axis: SIMD3(1, 0, 0), angle: turn.value),
            angularVelocity: SIMD3(turn.derivative, 0, 0), position: SIMD3(0, 0, up.value), velocity: SIMD3(0, 0, up.derivative),
            acceleration: SIMD3(0, 0, up.secondDerivative))
    }
}
