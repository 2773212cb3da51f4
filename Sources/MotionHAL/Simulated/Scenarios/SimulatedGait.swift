/// Walking, running or climbing stairs in bouts of a known number of steps: what `motion=walk`, `run`
/// and `stairs` simulate.
///
/// The device is held flat (attitude the identity, face up, y north) and carried north. A cycle is a pause
/// of ``pause`` s, a bout of ``stepsPerBout`` steps at ``cadence``, another pause and another bout; on stairs
/// (``rise`` > 0) the first bout climbs and the second goes back down, so the cycle ends where it began.
/// Within a bout:
/// - each step is one cycle of the body's vertical bounce `(B/ω²)(cos ωτ − 1)`, ω = 2π·cadence, so the
///   vertical acceleration peaks at ``bounce`` upwards in the middle of each step;
/// - on stairs each step also lifts (or lowers) the body by ``rise`` in a smooth step;
/// - the speed north rises to ``speed`` and falls back to zero in smooth steps of ``rampTime`` (at most
///   about 1.5 m/s² of acceleration) at the bout's start and end.
///
/// Ground truth: ``steps(at:)`` (a step counts once its middle has passed) and the altitude, the ground
/// truth's ENU z.
public struct SimulatedGait: Sendable, Equatable {
    /// Steps per second.
    public var cadence: Double
    /// Peak vertical acceleration of the bounce, m/s².
    public var bounce: Double
    /// Walking speed, m/s.
    public var speed: Double
    /// Height each step climbs on stairs, m (0 on the level).
    public var rise: Double
    /// Steps in each bout, > 0.
    public var stepsPerBout: Int
    /// Pause before each bout, s.
    public var pause: Double

    /// Creates a gait.
    /// - Parameters:
    ///   - cadence: steps per second, > 0.
    ///   - bounce: m/s².
    ///   - speed: m/s.
    ///   - rise: m per step (0 on the level).
    ///   - stepsPerBout: steps per bout, > 0.
    ///   - pause: s before each bout.
    public init(cadence: Double, bounce: Double, speed: Double, rise: Double = 0, stepsPerBout: Int, pause: Double) {
        self.cadence = cadence
        self.bounce = bounce
        self.speed = speed
        self.rise = rise
        self.stepsPerBout = stepsPerBout
        self.pause = pause
    }

    /// Walking: 1.8 steps/s, bounce 2.5 m/s² (0.25 g), 1.4 m/s, bouts of 36 steps (20 s) after 6 s pauses.
    public static let walking = SimulatedGait(cadence: 1.8, bounce: 2.5, speed: 1.4, stepsPerBout: 36, pause: 6)

    /// Running: 2.8 steps/s, bounce 9 m/s² (0.9 g), 3.5 m/s, bouts of 56 steps (20 s) after 6 s pauses.
    public static let running = SimulatedGait(cadence: 2.8, bounce: 9, speed: 3.5, stepsPerBout: 56, pause: 6)

    /// Climbing `floors` floors of `floorHeight` m (18 steps a floor) at 1.6 steps/s and coming back
    /// down, with 5 s pauses: 0.167 m a step, 6 m for the default two floors of 3 m.
    /// - Parameters:
    ///   - floors: floors per climb, > 0 (default 2).
    ///   - floorHeight: m (default 3).
    public static func stairs(floors: Int = 2, floorHeight: Double = 3) -> SimulatedGait {
        SimulatedGait(cadence: 1.6, bounce: 1.5, speed: 0.5, rise: floorHeight / 18, stepsPerBout: 18 * floors, pause: 5)
    }

    /// How long the speed takes to rise to ``speed`` and to fall back, s: 1.25 s per m/s (a peak of
    /// 1.5 m/s²), at least one step, at most half the bout.
    public var rampTime: Double { min(max(1.25 * speed, 1 / cadence), boutDuration / 2) }

    /// Length of one bout, s.
    public var boutDuration: Double { Double(stepsPerBout) / cadence }

    /// Length of one cycle (pause, bout, pause, bout), s.
    public var cycleDuration: Double { 2 * (pause + boutDuration) }

    /// Where `time` falls: completed bouts and the time into the current bout (nil during a pause).
    private func position(at time: Double) -> (bouts: Int, inBout: Double?) {
        let span = pause + boutDuration
        let completed = Int((max(time, 0) / span).rounded(.down))
        let elapsed = max(time, 0) - Double(completed) * span - pause
        return (completed, elapsed >= 0 ? elapsed : nil)
    }

    /// Steps taken by `time` s: a step counts once its middle (the bounce's peak) has passed.
    public func steps(at time: Double) -> Int {
        let (bouts, inBout) = position(at: time)
        let current = inBout.map { min(Int(($0 * cadence + 0.5).rounded(.down)), stepsPerBout) } ?? 0
        return bouts * stepsPerBout + current
    }

    func kinematics(at time: Double) -> SimulatedKinematics {
        let (bouts, inBout) = position(at: time)
        let climbing = bouts % 2 == 0
        let top = rise * Double(stepsPerBout)
        let stepTime = 1 / cadence, ramp = rampTime
        // Distance north of the bouts done: each ramps up and down.
        let boutDistance = speed * (boutDuration - ramp)
        guard let elapsed = inBout else {
            let level = rise > 0 && !climbing ? top : 0
            return SimulatedKinematics(attitude: .identity, position: SIMD3(0, Double(bouts) * boutDistance, level))
        }
        let omega = 2 * Double.pi * cadence
        var up = (bounce / (omega * omega)) * (ScenarioProfile.cosine(frequency: cadence, at: elapsed) + .constant(-1))
        if rise > 0 {
            let taken = (elapsed * cadence).rounded(.down)
            let lift = ScenarioProfile.constant(taken) + ScenarioProfile.smoothStep(at: elapsed - taken * stepTime, duration: stepTime)
            up = up + (climbing ? rise * lift : .constant(top) + (-rise) * lift)
        }
        let ramps = ScenarioProfile.smoothStepIntegral(at: elapsed, duration: ramp)
            + (-1) * ScenarioProfile.smoothStepIntegral(at: elapsed - (boutDuration - ramp), duration: ramp)
        let north = ScenarioProfile.constant(Double(bouts) * boutDistance) + speed * ramps
        return SimulatedKinematics(
            attitude: .identity, position: SIMD3(0, north.value, up.value), velocity: SIMD3(0, north.derivative, up.derivative),
            acceleration: SIMD3(0, north.secondDerivative, up.secondDerivative))
    }
}
