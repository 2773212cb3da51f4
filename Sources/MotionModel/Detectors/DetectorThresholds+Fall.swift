// The thresholds of the fall detector (a wearer's hard fall, as Apple's `CMFallDetectionManager` reports
// it): a dip of the specific force, a hard impact soon after, and a few seconds of lying still in another
// posture. Accelerations are specific force in g, rotation rates in rad/s, angles in degrees, times in s.
//
// Sources of the defaults, cited where each is declared:
// - Bourke, O'Brien, Lyons, "Evaluation of a threshold-based tri-axial accelerometer fall detection
//   algorithm", Gait & Posture 26(2):194–199, 2007 (trunk and thigh resultant-magnitude thresholds over
//   eight kinds of simulated falls and the activities of daily living of elderly subjects).
// - Bourke, Lyons, "A threshold-based fall-detection algorithm using a bi-axial gyroscope sensor",
//   Medical Engineering & Physics 30:84–90, 2008 (trunk angular velocity above 3.1 rad/s and a change of
//   trunk angle above 0.59 rad in falls).
// - Kangas, Konttila, Lindgren, Winblad, Jämsä, "Comparison of low-complexity fall detection algorithms
//   for body attached accelerometers", Gait & Posture 28(2):285–291, 2008 (the phases start of fall,
//   impact and posture after the fall; waist and head sensors best, wrist worst).
//
// Not yet one of `MotionDetectorSettings`' detectors: the engine, the agent's configuration and the
// contract take it up when the detector is wired in; the table below is what they will read.

/// Fall: a dip of the specific force, a hard impact within a short window, then the body lying (mostly)
/// still in a posture far from the one before the fall; "recovered" once it is upright again for a while.
public struct FallSettings: DetectorThresholds {
    /// A fall's dip begins below this specific force, g. Default 0.6 g: Kangas et al. (2008) start a fall
    /// below 0.6 g of the resultant at the waist; Bourke et al. (2007) found the falls' lowest trunk values
    /// near 0.4 g and the thigh's near 0.6 g. A person's body seldom falls freely (legs, knees and hands
    /// slow it), so the dip is well above 0 g; walking's bounce (about ±0.25 g) stays above it.
    public var dipThreshold = 0.6
    /// The least time the force must spend below ``dipThreshold``, s. Default 0.1 s: a drop to the floor
    /// from standing takes 0.4–0.8 s, of which the deepest part lasts well over 0.1 s, while a tap or a
    /// jolt passes through the dip in a few milliseconds. A runner's flight (0.1–0.15 s) can pass; the
    /// impact and posture tests reject it.
    public var minimumDip = 0.1
    /// The longest dip that can still be a fall of a person, s. Default 1.5 s (a free fall of 11 m): a dip
    /// that lasts longer is a thrown or falling object, a ride, or a broken sensor.
    public var maximumDip = 1.5
    /// The impact's peak must exceed this specific force, g. Default 3 g: Bourke et al. (2007) put the
    /// trunk's upper fall threshold at 3.52 g, above every activity of daily living they recorded;
    /// 3 g keeps a margin for peaks that a low rate (25 Hz) samples off their top, and sitting down hard
    /// (1.5–2.5 g) stays below it. Running's landings reach 2–3 g at the trunk; the posture test rejects
    /// those that pass.
    public var impactThreshold = 3.0
    /// How long after the dip's last sample below ``dipThreshold`` the impact may begin, s. Default 0.5 s:
    /// a body that has stopped falling for longer has caught itself; its later blow is another movement.
    public var impactWindow = 0.5
    /// Time after the impact's start left for bounces, rolling and the last shifts of the body before the
    /// posture is judged, s. Default 1 s.
    public var settle = 1.0
    /// How long the posture and stillness are observed after ``settle``, s. Default 3 s: at least half a
    /// breath (adults breathe every 3–5 s), so that a breathing body shows its movement; Kangas et al.
    /// (2008) judge the posture about 2 s after the impact.
    public var observation = 3.0
    /// The least change of the sensor's posture between before the fall and the observation, degrees.
    /// Default 60°: Kangas et al. (2008) call a waist sensor "lying" when the acceleration along the
    /// body's vertical axis falls below 0.5 g, that is, tilted by more than 60° (cos 60° = 0.5); Bourke and
    /// Lyons (2008) saw the trunk turn by more than 0.59 rad (34°) during falls. Sitting down (upright
    /// torso after, 0–20°) stays well below. 0 switches the test off (a wrist, whose posture after a fall
    /// is arbitrary).
    public var orientationChange = 60.0
    /// The body lies still when the specific force's RMS deviation from its mean over the observation
    /// stays below this, g. Default 0.1 g: about half of walking's RMS at the trunk (0.15–0.3 g), ten
    /// times standing or lying (0.01–0.02 g).
    public var stillAcceleration = 0.1
    /// … and the rotation rate's RMS deviation from its mean below this, rad/s. Default 0.5 rad/s
    /// (29 °/s): a sixth of the 3.1 rad/s that Bourke and Lyons (2008) saw in falls; turning over or
    /// getting up exceeds it.
    public var stillRotation = 0.5
    /// A specific force below this is a true free fall, g. Default 0.2 g: nothing holds the sensor; a
    /// dropped device reads its noise floor (< 0.05 g), a falling person's trunk seldom goes below 0.3 g.
    public var freeFallThreshold = 0.2
    /// A true free fall lasting this long is the first half of a dropped device's signature, s. Default
    /// 0.1 s: a free drop of 5 cm; a dropped device falls 0.3–0.45 s from a table or a hand.
    public var minimumFreeFall = 0.1
    /// Micro-motion: the spread of the observation's half-second means of the specific force (the largest
    /// distance between two of them) above this is a living body, g. Default 0.004 g: breathing tilts a
    /// trunk by about half a degree (0.009 g) and moves it; a device at rest shows only its noise averaged
    /// over half a second (a consumer MEMS accelerometer, 100–400 µg/√Hz: below 0.002 g). 0 switches the
    /// dropped-device test off.
    public var microMotionAcceleration = 0.004
    /// … or the spread of the half-second means of the rotation rate above this, rad/s. Default 0.004 rad/s
    /// (0.23 °/s): breathing's half degree every 4 s turns the trunk at about 0.014 rad/s; a consumer MEMS
    /// gyroscope's half-second mean at rest moves by well under 0.002 rad/s.
    public var microMotionRotation = 0.004
    /// How long the wearer must be upright again (within half of ``orientationChange`` of the posture
    /// before the fall) for "recovered", s. Default 3 s.
    public var recovery = 3.0

    public static var parameters: [DetectorParameter<Self>] {
        [
            .init("dip_threshold", \.dipThreshold, range: 0.2...0.9, unit: "g"),
            .init("minimum_dip", \.minimumDip, range: 0.02...1, unit: "s"),
            .init("maximum_dip", \.maximumDip, range: 0.2...5, unit: "s"),
            .init("impact_threshold", \.impactThreshold, range: 1.5...16, unit: "g"),
            .init("impact_window", \.impactWindow, range: 0.05...2, unit: "s"),
            .init("settle", \.settle, range: 0...5, unit: "s"),
            .init("observation", \.observation, range: 1...30, unit: "s"),
            .init("orientation_change", \.orientationChange, range: 0...120, unit: "°"),
            .init("still_acceleration", \.stillAcceleration, range: 0.01...1, unit: "g"),
            .init("still_rotation", \.stillRotation, range: 0.05...5, unit: "rad/s"),
            .init("free_fall_threshold", \.freeFallThreshold, range: 0.05...0.5, unit: "g"),
            .init("minimum_free_fall", \.minimumFreeFall, range: 0.02...1, unit: "s"),
            .init("micro_motion_acceleration", \.microMotionAcceleration, range: 0...0.1, unit: "g"),
            .init("micro_motion_rotation", \.microMotionRotation, range: 0...0.1, unit: "rad/s"),
            .init("recovery", \.recovery, range: 0.5...60, unit: "s"),
        ]
    }

    /// The defaults.
    public init() {}
}
