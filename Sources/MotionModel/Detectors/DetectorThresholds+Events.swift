// The thresholds of the detectors that find events: free fall, impact, tap and shake. Accelerations are in
// g (specific force for free fall and impact, user acceleration for taps and shakes), times in s.

/// Free fall: the specific force stays below a threshold for long enough.
public struct FreeFallSettings: DetectorThresholds {
    /// A fall begins below this specific force, g. Default 0.3 g.
    public var threshold = 0.3
    /// Shortest fall reported, s. Default 0.2 s, a drop of about 20 cm: a runner's flight between two steps
    /// (0.1–0.15 s, with the accelerometer reading almost nothing) or a hop is no fall.
    public var minimumDuration = 0.2

    public static var parameters: [DetectorParameter<Self>] {
        [.init("threshold", \.threshold, range: 0.05...0.9, unit: "g"), .init("minimum_duration", \.minimumDuration, range: 0.02...2, unit: "s")]
    }

    /// The defaults.
    public init() {}

    /// The specific force above which a fall ends, g: 0.5 g, or halfway to 1 g for a threshold close to it
    /// (a device at rest reads 1 g, so the end must lie below that).
    public var endThreshold: Double { min(max(0.5, threshold * 5 / 3), (threshold + 1) / 2) }
}

/// Impact: a blow above a threshold.
public struct ImpactSettings: DetectorThresholds {
    /// An impact begins above this specific force, g. Default 2.5 g.
    public var threshold = 2.5

    public static var parameters: [DetectorParameter<Self>] { [.init("threshold", \.threshold, range: 1.2...64, unit: "g")] }

    /// The defaults.
    public init() {}

    /// The specific force below which an impact may end, g: 1.5 g, or halfway from 1 g to a lower threshold.
    public var rearmThreshold: Double { min(1.5, (1 + threshold) / 2) }
}

/// Tap and double tap: a short peak of user acceleration, and a second one soon after.
public struct TapSettings: DetectorThresholds {
    /// A tap's peak must exceed this user acceleration, g. Default 1.0 g.
    public var threshold = 1.0
    /// Window from the first tap's start in which a second one makes a double tap, s. Default 0.4 s.
    public var doubleTapWindow = 0.4

    public static var parameters: [DetectorParameter<Self>] {
        [.init("threshold", \.threshold, range: 0.1...16, unit: "g"), .init("double_tap_window", \.doubleTapWindow, range: 0.1...2, unit: "s")]
    }

    /// The defaults.
    public init() {}
}

/// Shake: user acceleration back and forth, reversing its direction several times.
public struct ShakeSettings: DetectorThresholds {
    /// An excursion starts above this user acceleration, g. Default 1.2 g.
    public var threshold = 1.2
    /// Direction reversals that make a shake, a whole number. Default 3 (four excursions, back and forth
    /// twice).
    public var reversals = 3.0

    public static var parameters: [DetectorParameter<Self>] {
        [.init("threshold", \.threshold, range: 0.2...16, unit: "g"), .init("reversals", \.reversals, range: 2...20, unit: "", isWhole: true)]
    }

    /// The defaults.
    public init() {}
}
