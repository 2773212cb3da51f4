/// What ``FallDetector`` measured of one dip-and-impact: the figures of a fall it reports, and of one it
/// rejected. Pure value; times in s (the samples' clock), forces in g, angles in rad.
public struct FallCandidate: Sendable, Equatable {
    /// When the dip began: the first sample below the dip threshold, s.
    public var fallStart: Double
    /// From the dip's first to its last sample below the dip threshold, s.
    public var fallDuration: Double
    /// The longest stretch of true free fall (below the free-fall threshold) in the dip, s.
    public var freeFallDuration: Double
    /// When the impact peaked, s.
    public var impactTime: Double
    /// The impact's peak specific force, g.
    public var peakForce: Double
    /// The largest rotation rate from the dip's start to the end of the settling, rad/s.
    public var peakRotationRate: Double
    /// The angle between the specific force's direction before the fall and its mean direction over the
    /// observation after it, rad: how far the posture changed.
    public var orientationChange: Double
    /// The specific force's RMS deviation from its mean over the observation, g (activity).
    public var activity: Double
    /// The spread of the observation's half-second means of the specific force, g (micro-motion).
    public var microMotion: Double
    /// The spread of the observation's half-second means of the rotation rate, rad/s (micro-motion).
    public var microRotation: Double
    /// When the observation ended and the candidate was judged, s.
    public var decisionTime: Double

    /// Creates a candidate's record.
    /// - Parameters:
    ///   - fallStart: s.
    ///   - fallDuration: s.
    ///   - freeFallDuration: s.
    ///   - impactTime: s.
    ///   - peakForce: g.
    ///   - peakRotationRate: rad/s.
    ///   - orientationChange: rad.
    ///   - activity: g.
    ///   - microMotion: g.
    ///   - microRotation: rad/s.
    ///   - decisionTime: s.
    public init(
        fallStart: Double, fallDuration: Double, freeFallDuration: Double, impactTime: Double, peakForce: Double,
        peakRotationRate: Double, orientationChange: Double, activity: Double, microMotion: Double, microRotation: Double,
        decisionTime: Double
    ) {
        self.fallStart = fallStart
        self.fallDuration = fallDuration
        self.freeFallDuration = freeFallDuration
        self.impactTime = impactTime
        self.peakForce = peakForce
        self.peakRotationRate = peakRotationRate
        self.orientationChange = orientationChange
        self.activity = activity
        self.microMotion = microMotion
        self.microRotation = microRotation
        self.decisionTime = decisionTime
    }
}

extension FallDetector {
    /// Why a dip followed by an impact was not a fall.
    public enum Rejection: String, Sendable, Hashable, CaseIterable {
        /// The body kept moving after the impact (above the stillness thresholds): a landing from a jump
        /// that walks on, a stumble caught, a device handled.
        case moving
        /// A true free fall, and afterwards only the sensor's noise (no micro-motion): an object dropped,
        /// not a body.
        case droppedDevice = "dropped_device"
        /// The posture after the impact is within the orientation threshold of the one before: the wearer is
        /// still upright (sat down hard, landed a jump).
        case upright
    }

    /// What one sample brought.
    public enum Event: Sendable, Equatable {
        /// A fall: dip, impact, then lying still in another posture; reported when the observation ends.
        case fall(FallCandidate)
        /// A dip and an impact that were judged not a fall, and why.
        case rejected(FallCandidate, Rejection)
        /// The wearer of the last fall is upright again (since `since`, s), at `timestamp` s; `fall` is the
        /// fall recovered from.
        case recovered(fall: FallCandidate, since: Double, timestamp: Double)
    }
}
