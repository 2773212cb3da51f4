// The thresholds of the detectors that keep a state: orientation, tilt, rest ↔ motion, vibration and
// activity.

/// Orientation (face up, portrait, …) from gravity's direction.
public struct OrientationSettings: DetectorThresholds {
    /// How much closer to vertical (in cosine of the angle) another orientation must be to take over.
    /// Default 0.2 (about 12° around 45°).
    public var hysteresis = 0.2

    public static var parameters: [DetectorParameter<Self>] { [.init("hysteresis", \.hysteresis, range: 0...0.5, unit: "")] }

    /// The defaults.
    public init() {}
}

/// Tilt: gravity's angle from a reference direction.
public struct TiltSettings: DetectorThresholds {
    /// Tilted above this angle from the reference, degrees. Default 30°.
    public var threshold = 30.0
    /// Back below `threshold − hysteresis`, degrees (smaller than the threshold). Default 5°.
    public var hysteresis = 5.0
    /// The direction of gravity, device axes (unit vector), from which the tilt is measured; nil: the
    /// direction when the detector starts (the default). A door sensor gives the closed door's, so that a
    /// restart while the door is open still reads tilted.
    public var reference: SIMD3<Double>?

    public static var parameters: [DetectorParameter<Self>] {
        [.init("threshold", \.threshold, range: 1...179, unit: "°"), .init("hysteresis", \.hysteresis, range: 0...90, unit: "°")]
    }

    /// The defaults.
    public init() {}
}

/// Rest ↔ motion from the low-passed acceleration and rotation rate.
public struct MovingSettings: DetectorThresholds {
    /// Moving above this low-passed acceleration, g. Default 0.05 g.
    public var acceleration = 0.05
    /// Moving above this low-passed rotation rate, rad/s. Default 0.2 rad/s.
    public var rotation = 0.2
    /// How long a threshold must be exceeded, s. Default 0.5 s.
    public var confirm = 0.5
    /// How long both must stay below half their thresholds for rest, s. Default 2 s.
    public var settle = 2.0

    public static var parameters: [DetectorParameter<Self>] {
        [
            .init("acceleration", \.acceleration, range: 0.005...1, unit: "g"), .init("rotation", \.rotation, range: 0.01...5, unit: "rad/s"),
            .init("confirm", \.confirm, range: 0...10, unit: "s"), .init("settle", \.settle, range: 0...60, unit: "s"),
        ]
    }

    /// The defaults.
    public init() {}
}

/// Vibration: the RMS acceleration in frequency bands, and a running/stopped state from the first band.
public struct VibrationSettings: DetectorThresholds {
    /// The default band, Hz: 20–100 Hz (a hand-held device's own motion stays mostly below 20 Hz: on
    /// BROAD's hand-moved trials this band's 1 s RMS has a median of 0.016–0.029 g).
    public static let defaultBands: [ClosedRange<Double>] = [20...100]
    /// The most bands.
    public static let maximumBands = 4

    /// Running above this RMS in the first band, g. Default 0.1 g (BROAD's vibrating phone: 0.42 g; its
    /// hand-moved trials stay below 0.06 g for 95 % of the time).
    public var threshold = 0.1
    /// How long the level must exceed the threshold for "running", s. Default 2 s.
    public var confirm = 2.0
    /// How long it must stay below half of it for "stopped", s. Default 5 s.
    public var stop = 5.0
    /// The bands, Hz (1…``maximumBands``, each `0 < low < high ≤ 1000`). Default ``defaultBands``.
    public var bands = VibrationSettings.defaultBands

    public static var parameters: [DetectorParameter<Self>] {
        [
            .init("threshold", \.threshold, range: 0.001...10, unit: "g"), .init("confirm", \.confirm, range: 0...600, unit: "s"),
            .init("stop", \.stop, range: 0...3_600, unit: "s"),
        ]
    }

    /// The defaults.
    public init() {}
}

/// Activity (stationary, walking, running, unknown) from the steps and rest ↔ motion.
public struct ActivitySettings: DetectorThresholds {
    /// Cadence from which a gait is running, steps/s. Default 2.4.
    public var runningCadence = 2.4

    public static var parameters: [DetectorParameter<Self>] {
        [.init("running_cadence", \.runningCadence, range: 1...5, unit: "steps/s")]
    }

    /// The defaults.
    public init() {}
}
