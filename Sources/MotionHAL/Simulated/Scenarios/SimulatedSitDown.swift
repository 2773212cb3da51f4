#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// A person who sits down hard on a chair, sits a while and stands up again: what `motion=sit`
/// simulates. The IMU is worn on the trunk (at the waist) with its z axis along the body, pointing up while
/// the person stands (attitude the identity: z up, y north), as in ``SimulatedFall``.
///
/// Each ``period``:
/// - the person stands, swaying by ±0.5° at 0.3 Hz (the sway goes on all the time: people move a little
///   while they sit, too);
/// - at ``sitStart`` the trunk leans forward by 25° while the body lowers itself smoothly over 1 s until
///   ``dropHeight`` above the seat's contact;
/// - then lets itself drop: the downward acceleration ramps up over 0.15 s to ``dropAcceleration`` (the
///   accelerometer dips to about 0.55 g for a quarter of a second), and the body meets the seat at
///   ``impactSpeed`` (1.3 m/s) after ``dropDuration``;
/// - the seat and thighs stop it within ``stopTime`` (the specific force peaks at ``peakDeceleration`` + g,
///   2.3 g by default, at ``joltTime(ofCycle:)``) while the trunk straightens to lean back by 10°;
/// - the person sits for ``sittingDuration`` s, then stands up over 1.5 s (leaning forward again) and
///   stands until the period ends.
///
/// Ground truth per period: no fall (the trunk ends upright, within 10° of standing); one jolt of
/// ``peakDeceleration`` + g.
public struct SimulatedSitDown: Sendable, Equatable {
    /// The sensor's height while standing, m (default 1.0: the waist).
    public var standingHeight: Double
    /// The sensor's height when the body meets the seat, m (default 0.55); below ``standingHeight`` by more
    /// than ``dropHeight``.
    public var seatedHeight: Double
    /// The height of the last part of the way down, the one the body drops, m (default 0.2); > 0.
    public var dropHeight: Double
    /// The body's downward acceleration in the drop, once ramped up, m/s² (default 4.4, 0.45 g); > 0.
    public var dropAcceleration: Double
    /// Time the seat takes to stop the body, s (default 0.16); > 0.
    public var stopTime: Double
    /// How long the person sits, s (default 10).
    public var sittingDuration: Double
    /// Length of one stand-sit-stand cycle, s (default 24); at least the cycle's own length plus 1 s.
    public var period: Double

    /// When the person starts to sit down, s after the start of each period.
    public let sitStart = 4.0
    /// How long the controlled lowering before the drop takes, s.
    static let loweringDuration = 1.0
    /// How long standing up takes, s.
    static let standUpDuration = 1.5
    /// The trunk's forward lean while sitting down and standing up, and its backward lean while seated, rad.
    static let lean = 25 * Double.pi / 180, recline = -10 * Double.pi / 180
    static let sway = (angle: 0.5 * Double.pi / 180, frequency: 0.3)

    /// Creates a sit-down; every parameter has the documented default.
    /// - Parameters:
    ///   - standingHeight: m.
    ///   - seatedHeight: m.
    ///   - dropHeight: m.
    ///   - dropAcceleration: m/s².
    ///   - stopTime: s.
    ///   - sittingDuration: s.
    ///   - period: s.
    public init(
        standingHeight: Double = 1.0, seatedHeight: Double = 0.55, dropHeight: Double = 0.2, dropAcceleration: Double = 4.4,
        stopTime: Double = 0.16, sittingDuration: Double = 10, period: Double = 24
    ) {
        self.standingHeight = standingHeight
        self.seatedHeight = seatedHeight
        self.dropHeight = dropHeight
        self.dropAcceleration = dropAcceleration
        self.stopTime = stopTime
        self.sittingDuration = sittingDuration
        self.period = period
    }

    /// The drop onto the seat.
    var descent: ScenarioDescent {
        ScenarioDescent(drop: dropHeight, acceleration: dropAcceleration, ramp: 0.15, stopTime: stopTime)
    }

    /// How long the drop onto the seat lasts, s.
    public var dropDuration: Double { descent.contactTime }
    /// Speed at which the body meets the seat, m/s.
    public var impactSpeed: Double { descent.impactSpeed }
    /// Peak deceleration of the jolt, m/s² (the accelerometer reads this plus g).
    public var peakDeceleration: Double { descent.peakDeceleration }

    /// When the body meets the seat, s after the start of each period.
    var contact: Double { sitStart + Self.loweringDuration + dropDuration }
    /// When the person starts to stand up, s after the start of each period.
    var standUpStart: Double { contact + stopTime + sittingDuration }
    /// Length of one cycle as used, s: ``period``, or the cycle's own length plus 1 s if that is longer.
    public var cycleDuration: Double { max(period, standUpStart + Self.standUpDuration + 1) }

    /// When the jolt of cycle `cycle` (0 for the first) peaks, s since the start.
    public func joltTime(ofCycle cycle: Int) -> Double { Double(cycle) * cycleDuration + contact + stopTime / 2 }

    func kinematics(at time: Double) -> SimulatedKinematics {
        let phase = time.phase(inPeriod: cycleDuration)
        let lowering = standingHeight - seatedHeight - dropHeight
        let standingUp = ScenarioProfile.smoothStep(at: phase - standUpStart, duration: Self.standUpDuration)
        let up = ScenarioProfile.constant(standingHeight) + (-lowering) * .smoothStep(at: phase - sitStart, duration: Self.loweringDuration)
            + descent.height(after: phase - sitStart - Self.loweringDuration) + (lowering + descent.restingDepth) * standingUp
        // Lean forward on the way down, straighten to the recline at the seat; lean forward to stand up.
        let halfStand = Self.standUpDuration / 2
        let leaning = ScenarioProfile.smoothStep(at: phase - sitStart, duration: 0.8) + (-1) * .smoothStep(at: phase - contact, duration: 0.8)
            + .smoothStep(at: phase - standUpStart, duration: halfStand) + (-1) * .smoothStep(at: phase - standUpStart - halfStand, duration: halfStand)
        let reclining = ScenarioProfile.smoothStep(at: phase - contact, duration: 1) + (-1) * .smoothStep(at: phase - standUpStart, duration: halfStand)
        let angle = Self.lean * leaning + Self.recline * reclining + Self.sway.angle * .sine(frequency: Self.sway.frequency, at: time)
        // Leaning forward (north) is a turn about −x; about one fixed axis the body rate is the angle's rate.
        let axis = SIMD3<Double>(-1, 0, 0)
        return SimulatedKinematics(
            attitude: Quaternion(axis: axis, angle: angle.value), angularVelocity: axis * angle.derivative,
            position: SIMD3(0, 0, up.value), velocity: SIMD3(0, 0, up.derivative), acceleration: SIMD3(0, 0, up.secondDerivative))
    }
}
