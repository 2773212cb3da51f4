#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// A person who stumbles, falls hard to the ground, lies there breathing and gets up again: what
/// `motion=fall` simulates. The IMU is worn on the trunk (at the waist) with its z axis along the body,
/// pointing up while the person stands (attitude the identity: z up, y north).
///
/// Each ``period``:
/// - the person stands, swaying by ±0.5° at 0.3 Hz;
/// - at ``fallStart`` the body sinks from ``standingHeight`` to ``lyingHeight`` (the sensor's height when
///   the body meets the ground): its downward acceleration ramps up over 0.3 s to ``fallAcceleration`` and
///   holds, so the accelerometer dips to about `1 − a/g` (0.5 g by default, below 0.6 g for 0.5 s) for
///   ``fallDuration`` (0.74 s) and the body meets the ground at ``impactSpeed`` (2.9 m/s). Meanwhile the
///   trunk pitches over by ``lyingAngle`` towards ``heading`` (0: forward, north; π/2: sideways, east),
///   starting 0.2 s earlier, and moves 0.3 m that way (starting 0.3 s earlier: the stumble);
/// - the ground (knees, hands, hip and soft tissue) stops the body within ``stopTime`` by a half-sine
///   deceleration: the specific force peaks at ``peakDeceleration`` + g (4.8 g by default) at
///   ``impactTime(ofCycle:)``;
/// - the person lies still for ``lyingDuration`` s, breathing at 0.25 Hz (the trunk rises and falls by
///   ±3 mm and tilts by ±0.5°);
/// - then gets up over 3 s (back to standing where the fall began) and stands until the period ends.
///
/// Ground truth per period: one fall of a person, its impact peak at ``impactTime(ofCycle:)``, the
/// trunk 80° from upright while lying, upright again from ``uprightTime(ofCycle:)``.
public struct SimulatedFall: Sendable, Equatable {
    /// The sensor's height while standing, m (default 1.0: the waist).
    public var standingHeight: Double
    /// The sensor's height when the body meets the ground, m (default 0.15); below ``standingHeight``.
    public var lyingHeight: Double
    /// The body's downward acceleration while falling, once ramped up, m/s² (default 4.9, 0.5 g); > 0.
    public var fallAcceleration: Double
    /// Time the ground takes to stop the body, s (default 0.12); > 0.
    public var stopTime: Double
    /// The trunk's angle from upright while lying, rad (default 80°).
    public var lyingAngle: Double
    /// The direction of the fall, rad from north towards east (default 0: forward; π/2: sideways).
    public var heading: Double
    /// How long the person lies before getting up, s (default 10).
    public var lyingDuration: Double
    /// Length of one stand-fall-lie-get-up cycle, s (default 30); at least the cycle's own length plus 1 s.
    public var period: Double

    /// When the fall begins (the body starts to sink), s after the start of each period.
    public let fallStart = 4.0
    /// How long getting up takes, s.
    public static let getUpDuration = 3.0
    /// How far the sensor moves towards ``heading`` in the fall, m.
    static let stumbleDistance = 0.3
    /// The sway while standing and the breathing while lying: amplitudes (rad, m) and frequencies (Hz).
    static let sway = (angle: 0.5 * Double.pi / 180, frequency: 0.3)
    static let breath = (angle: 0.5 * Double.pi / 180, rise: 0.003, frequency: 0.25)

    /// Creates a fall; every parameter has the documented default.
    /// - Parameters:
    ///   - standingHeight: m.
    ///   - lyingHeight: m.
    ///   - fallAcceleration: m/s².
    ///   - stopTime: s.
    ///   - lyingAngle: rad.
    ///   - heading: rad.
    ///   - lyingDuration: s.
    ///   - period: s.
    public init(
        standingHeight: Double = 1.0, lyingHeight: Double = 0.15, fallAcceleration: Double = 4.9, stopTime: Double = 0.12,
        lyingAngle: Double = 80 * Double.pi / 180, heading: Double = 0, lyingDuration: Double = 10, period: Double = 30
    ) {
        self.standingHeight = standingHeight
        self.lyingHeight = lyingHeight
        self.fallAcceleration = fallAcceleration
        self.stopTime = stopTime
        self.lyingAngle = lyingAngle
        self.heading = heading
        self.lyingDuration = lyingDuration
        self.period = period
    }

    /// The vertical part of the fall.
    var descent: ScenarioDescent {
        ScenarioDescent(drop: standingHeight - lyingHeight, acceleration: fallAcceleration, ramp: 0.3, stopTime: stopTime)
    }

    /// How long the body falls before it meets the ground, s.
    public var fallDuration: Double { descent.contactTime }
    /// Speed at which the body meets the ground, m/s.
    public var impactSpeed: Double { descent.impactSpeed }
    /// Peak deceleration of the impact, m/s² (the accelerometer reads this plus g).
    public var peakDeceleration: Double { descent.peakDeceleration }

    /// When the person starts to get up, s after the start of each period.
    var getUpStart: Double { fallStart + fallDuration + stopTime + lyingDuration }
    /// Length of one cycle as used, s: ``period``, or the cycle's own length plus 1 s if that is longer.
    public var cycleDuration: Double { max(period, getUpStart + Self.getUpDuration + 1) }

    /// When the impact of cycle `cycle` (0 for the first) peaks, s since the start.
    public func impactTime(ofCycle cycle: Int) -> Double {
        Double(cycle) * cycleDuration + fallStart + fallDuration + stopTime / 2
    }

    /// When the person of cycle `cycle` stands upright again, s since the start.
    public func uprightTime(ofCycle cycle: Int) -> Double { Double(cycle) * cycleDuration + getUpStart + Self.getUpDuration }

    func kinematics(at time: Double) -> SimulatedKinematics {
        let phase = time.phase(inPeriod: cycleDuration)
        let contact = fallStart + fallDuration
        let gettingUp = ScenarioProfile.smoothStep(at: phase - getUpStart, duration: Self.getUpDuration)
        let lying = ScenarioProfile.smoothStep(at: phase - contact - stopTime, duration: 1)
            + (-1) * .smoothStep(at: phase - getUpStart, duration: 1)
        let standing = ScenarioProfile.constant(1) + (-1) * .smoothStep(at: phase - fallStart + 0.5, duration: 0.5)
            + .smoothStep(at: phase - getUpStart - Self.getUpDuration + 1, duration: 1)
        // Sway and breathing run on the absolute time, so they stay continuous from one cycle to the next.
        let sway = Self.sway.angle * ScenarioProfile.sine(frequency: Self.sway.frequency, at: time)
        let breathing = ScenarioProfile.sine(frequency: Self.breath.frequency, at: time)
        let up = ScenarioProfile.constant(standingHeight) + descent.height(after: phase - fallStart)
            + descent.restingDepth * gettingUp + (Self.breath.rise * breathing) * lying
        let forward = Self.stumbleDistance * ScenarioProfile.smoothStep(at: phase - fallStart + 0.3, duration: fallDuration + 0.3)
            + (-Self.stumbleDistance) * gettingUp
        let angle = lyingAngle * ScenarioProfile.smoothStep(at: phase - fallStart + 0.2, duration: fallDuration + 0.2)
            + (-lyingAngle) * gettingUp + sway * standing + (Self.breath.angle * breathing) * lying
        // Pitching over towards `direction` is a turn about the horizontal axis up × direction; about one
        // fixed axis the body rate is the angle's rate about it.
        let direction = SIMD3(sin(heading), cos(heading), 0)
        let axis = SIMD3(-direction.y, direction.x, 0)
        return SimulatedKinematics(
            attitude: Quaternion(axis: axis, angle: angle.value), angularVelocity: axis * angle.derivative,
            position: direction * forward.value + SIMD3(0, 0, up.value),
            velocity: direction * forward.derivative + SIMD3(0, 0, up.derivative),
            acceleration: direction * forward.secondDerivative + SIMD3(0, 0, up.secondDerivative))
    }
}
