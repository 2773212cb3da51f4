/// The speed of a ``SimulatedMachine`` that starts and stops: its fraction of the steady speed over a
/// start-stop cycle, the fraction's time derivative, and the revolutions it has made (as the seconds at full
/// speed that would make them), all exact and continuous, so the phases built on them never jump.
///
/// Each cycle of ``cycle`` s starts from standstill: up linearly to full speed in ``ramp`` s, steady, down
/// linearly to standstill in the last ``ramp`` s of the running part, still for the last ``ramp`` s of the
/// cycle — up [0, ramp), steady [ramp, cycle − 2·ramp), down [cycle − 2·ramp, cycle − ramp), still
/// [cycle − ramp, cycle). A cycle shorter than 3·ramp (but longer than 2·ramp) has no steady part: the
/// coast-down starts before the run-up ends, at the crossing of the two ramps, so the machine peaks below
/// full speed (at (cycle − ramp) / (2·ramp) of it). A cycle of at most 2·ramp is taken as 2·ramp.
struct SimulatedMachineSpeed: Sendable, Equatable {
    /// Length of the run-up, of the coast-down and of the standstill, s (> 0).
    let ramp: Double
    /// Length of one cycle, s (at least 2 × ``ramp``).
    let cycle: Double

    /// When the run-up ends, s into the cycle (``ramp``, or earlier in a cycle too short for a steady part).
    private let upEnd: Double
    /// When the coast-down starts, s into the cycle.
    private let downStart: Double
    /// When the machine comes to a standstill, s into the cycle (cycle − ramp).
    private let runEnd: Double
    /// The seconds at full speed that make one cycle's revolutions, s.
    private let runningTimePerCycle: Double

    /// The speed over cycles of `cycle` s with ramps of `ramp` s.
    /// - Parameters:
    ///   - ramp: s, > 0.
    ///   - cycle: s; raised to 2 × `ramp` if shorter.
    init(ramp: Double, cycle: Double) {
        precondition(ramp > 0 && ramp.isFinite, "SimulatedMachine ramp must be finite and > 0 s")
        self.ramp = ramp
        self.cycle = max(cycle, 2 * ramp)
        runEnd = self.cycle - ramp
        upEnd = min(ramp, runEnd / 2)
        downStart = max(runEnd - ramp, runEnd / 2)
        runningTimePerCycle = upEnd * upEnd / (2 * ramp) + (downStart - upEnd) + (runEnd - downStart) * (runEnd - downStart) / (2 * ramp)
    }

    /// The speed at `time` s since the start of the trajectory (≥ 0).
    /// - Returns: `ratio`, the fraction of full speed (0…1); `rate`, its time derivative, 1/s; `runningTime`,
    ///   its integral from 0 to `time`, s (the revolutions made, in seconds at full speed).
    func state(at time: Double) -> (ratio: Double, rate: Double, runningTime: Double) {
        let cycles = max((time / cycle).rounded(.down), 0)
        let t = min(max(time - cycles * cycle, 0), cycle)
        let before = cycles * runningTimePerCycle
        let upArea = upEnd * upEnd / (2 * ramp)
        if t < upEnd {
            return (t / ramp, 1 / ramp, before + t * t / (2 * ramp))
        } else if t < downStart {
            return (1, 0, before + upArea + (t - upEnd))
        } else if t < runEnd {
            let left = runEnd - t, downLength = runEnd - downStart
            return (left / ramp, -1 / ramp, before + upArea + (downStart - upEnd) + (downLength * downLength - left * left) / (2 * ramp))
        } else {
            return (0, 0, before + runningTimePerCycle)
        }
    }
}
