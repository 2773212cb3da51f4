/// Every detector's thresholds and which detectors are switched off: what one device's detector bank is
/// built from. The agent reads it from the configuration's `detectors` object; CoreMotion uses the
/// defaults. Two values compare equal exactly when they detect alike.
public struct MotionDetectorSettings: Sendable, Equatable {
    /// Free fall.
    public var freeFall = FreeFallSettings()
    /// Impact.
    public var impact = ImpactSettings()
    /// Tap and double tap.
    public var tap = TapSettings()
    /// Shake.
    public var shake = ShakeSettings()
    /// Orientation.
    public var orientation = OrientationSettings()
    /// Tilt.
    public var tilt = TiltSettings()
    /// Rest ↔ motion.
    public var moving = MovingSettings()
    /// Vibration.
    public var vibration = VibrationSettings()
    /// Activity (and the pedometer under it).
    public var activity = ActivitySettings()
    /// The detectors switched off (every one runs by default).
    public var switchedOff: Set<MotionDetectorKind> = []

    /// The defaults: every detector on with its documented thresholds.
    public init() {}

    /// Whether `detector` runs.
    public func isOn(_ detector: MotionDetectorKind) -> Bool { !switchedOff.contains(detector) }

    /// The configurable thresholds of `detector`, reaching into these settings.
    public static func parameters(of detector: MotionDetectorKind) -> [DetectorParameter<MotionDetectorSettings>] {
        switch detector {
        case .freeFall: FreeFallSettings.parameters.map { $0.lifted(through: \.freeFall) }
        case .impact: ImpactSettings.parameters.map { $0.lifted(through: \.impact) }
        case .tap: TapSettings.parameters.map { $0.lifted(through: \.tap) }
        case .shake: ShakeSettings.parameters.map { $0.lifted(through: \.shake) }
        case .orientation: OrientationSettings.parameters.map { $0.lifted(through: \.orientation) }
        case .tilt: TiltSettings.parameters.map { $0.lifted(through: \.tilt) }
        case .moving: MovingSettings.parameters.map { $0.lifted(through: \.moving) }
        case .vibration: VibrationSettings.parameters.map { $0.lifted(through: \.vibration) }
        case .activity: ActivitySettings.parameters.map { $0.lifted(through: \.activity) }
        }
    }
}
