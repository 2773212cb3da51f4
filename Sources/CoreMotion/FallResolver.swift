import MotionFusion

/// How a board resolves a detected fall, as a pure value fed the detector's events and the sample time:
/// Apple's watch alerts the wearer and resolves the event by their answer; a board has no alert, so a fall
/// is resolved by what the wearer does within the response window after the impact: getting up (upright
/// again from a time within the window, as ``FallDetector/Event/recovered(fall:since:timestamp:)`` reports
/// after the detector's recovery hold) is ``CMFallDetectionEvent/UserResolution/dismissed``, lying on is
/// ``CMFallDetectionEvent/UserResolution/unresponsive`` (the watch calls emergency services after about a
/// minute without movement). Times in s.
struct FallResolver: Sendable, Equatable {
    /// The time after the impact within which getting up counts as a response, s.
    var responseWindow: Double
    /// How long the detector waits with the wearer upright before it reports the recovery, s
    /// (`FallSettings.recovery`): a fall is unresponsive only once a recovery from within the window could
    /// no longer be reported.
    var recoveryHold: Double

    /// The fall waiting for its resolution.
    private(set) var pending: FallCandidate?

    /// A resolved fall: its impact time and resolution.
    struct Resolution: Sendable, Equatable {
        var impactTime: Double
        var resolution: CMFallDetectionEvent.UserResolution
    }

    init(responseWindow: Double, recoveryHold: Double) {
        self.responseWindow = responseWindow
        self.recoveryHold = recoveryHold
    }

    /// Notes a detector event (or none) at sample time `timestamp`.
    /// - Returns: the fall resolved by it, if any.
    mutating func note(_ event: FallDetector.Event?, at timestamp: Double) -> Resolution? {
        switch event {
        case .fall(let candidate):
            // A new fall while one is pending resolves the first as unresponsive: its wearer never got up.
            let earlier = pending.map { Resolution(impactTime: $0.impactTime, resolution: .unresponsive) }
            pending = candidate
            return earlier
        case .recovered(let fall, let since, _):
            guard let current = pending, current == fall else { return nil }
            pending = nil
            let inTime = since - current.impactTime <= responseWindow
            return Resolution(impactTime: current.impactTime, resolution: inTime ? .dismissed : .unresponsive)
        case .rejected, nil:
            guard let current = pending, timestamp - current.impactTime > responseWindow + recoveryHold else { return nil }
            pending = nil
            return Resolution(impactTime: current.impactTime, resolution: .unresponsive)
        }
    }
}
