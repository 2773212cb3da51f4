/// A body that sinks `drop` m with a downward acceleration ramping up smoothly (a quintic smooth step over
/// ``ramp``) to ``acceleration`` and holding it, meets a surface at ``impactSpeed`` and is stopped by a
/// half-sine deceleration within ``stopTime``: the vertical part of a person's fall and of sitting down
/// hard. The accelerometer reads `g − acceleration` on the way down (a dip, well above 0 for a body that
/// legs and hands slow), then `g` plus the peak deceleration ``peakDeceleration`` at the blow. Closed form,
/// with exact derivatives; lengths in m, times in s.
struct ScenarioDescent: Equatable {
    /// Height from the start to the contact, m, > 0.
    var drop: Double
    /// The downward acceleration once ramped up, m/s², > 0.
    var acceleration: Double
    /// How long the acceleration takes to ramp up, s (shortened if the contact would come first).
    var ramp: Double
    /// How long the surface takes to stop the body, s, > 0.
    var stopTime: Double

    /// The ramp as used: at most the time the body takes to sink `drop` within it (`drop ≥ a r² / 7`).
    private var usedRamp: Double { min(ramp, (7 * drop / acceleration).squareRoot()) }

    /// Time from the start to the contact, s: the root of `r²/7 + r s/2 + s²/2 = drop / a` plus the ramp r.
    var contactTime: Double {
        let r = usedRamp
        let held = (-r + (r * r - 8 * (r * r / 7 - drop / acceleration)).squareRoot()) / 2
        return r + max(held, 0)
    }

    /// Speed at the contact, m/s: `a (r/2 + s)`.
    var impactSpeed: Double { acceleration * (contactTime - usedRamp / 2) }

    /// Peak deceleration of the blow, m/s²: `π v / (2 · stopTime)`.
    var peakDeceleration: Double { .pi * impactSpeed / (2 * stopTime) }

    /// How far below the start the body comes to rest, m: `drop + v · stopTime / 2`.
    var restingDepth: Double { drop + impactSpeed * stopTime / 2 }

    /// The height relative to the start (≤ 0) and its derivatives `elapsed` s after the start.
    func height(after elapsed: Double) -> ScenarioProfile {
        let contact = contactTime
        switch elapsed {
        case ..<0: return ScenarioProfile()
        case ..<contact: return (-acceleration) * .smoothStepDoubleIntegral(at: elapsed, duration: usedRamp)
        case ..<(contact + stopTime):
            return .constant(-drop) + .halfSineStop(after: elapsed - contact, speed: impactSpeed, duration: stopTime)
        default: return .constant(-restingDepth)
        }
    }
}
