import MotionModel

// Each detector made from its typed settings (MotionModel's, as the configuration reads them), and the
// bank of the detectors switched on. The conversions the settings imply (a free fall's end and an impact's
// re-arm level from the threshold, the tilt's degrees to radians, the vibration bands kept below the rate's
// limit) are made here, once.

extension FreeFallDetector {
    /// A detector with `settings`' thresholds; the fall ends above ``FreeFallSettings/endThreshold``.
    public init(settings: FreeFallSettings) {
        self.init(threshold: settings.threshold, endThreshold: settings.endThreshold, minimumDuration: settings.minimumDuration)
    }
}

extension ImpactDetector {
    /// A detector with `settings`' threshold; it re-arms below ``ImpactSettings/rearmThreshold``.
    public init(settings: ImpactSettings) {
        self.init(threshold: settings.threshold, rearmThreshold: settings.rearmThreshold)
    }
}

extension TapDetector {
    /// A detector with `settings`' threshold and double-tap window.
    public init(settings: TapSettings) {
        self.init(threshold: settings.threshold, doubleTapWindow: settings.doubleTapWindow)
    }
}

extension ShakeDetector {
    /// A detector with `settings`' threshold and reversals.
    public init(settings: ShakeSettings) {
        self.init(threshold: settings.threshold, minimumReversals: Int(settings.reversals))
    }
}

extension DeviceOrientationDetector {
    /// A detector with `settings`' hysteresis.
    public init(settings: OrientationSettings) {
        self.init(hysteresis: settings.hysteresis)
    }
}

extension TiltDetector {
    /// A detector with `settings`' angles (degrees, converted to rad) and reference.
    public init(settings: TiltSettings) {
        self.init(
            threshold: settings.threshold * (Double.pi / 180), hysteresis: settings.hysteresis * (Double.pi / 180),
            reference: settings.reference)
    }
}

extension MotionActivityStateDetector {
    /// A detector with `settings`' thresholds and times.
    public init(settings: MovingSettings) {
        self.init(
            accelerationThreshold: settings.acceleration, rotationThreshold: settings.rotation, confirmTime: settings.confirm,
            settleTime: settings.settle)
    }
}

extension VibrationMeter {
    /// A meter with `settings`' threshold and times over `bands` (the configured ones that the device's
    /// rate can measure, see ``usableBands(_:sampleRate:)``).
    /// - Precondition: `bands` is not empty.
    public init(settings: VibrationSettings, bands: [ClosedRange<Double>]) {
        self.init(bands: bands, runningThreshold: settings.threshold, confirmTime: settings.confirm, stopTime: settings.stop)
    }

    /// `bands` with their upper edge below 0.45 × `sampleRate`, Hz (a band that would be empty is
    /// dropped); all of them when the rate is unknown.
    public static func usableBands(_ bands: [ClosedRange<Double>], sampleRate: Double?) -> [ClosedRange<Double>] {
        guard let sampleRate, sampleRate > 0 else { return bands }
        let limit = 0.45 * sampleRate
        return bands.compactMap { band in band.lowerBound < limit ? band.lowerBound...min(band.upperBound, limit) : nil }
    }
}

extension MotionActivityClassifier {
    /// A classifier with `settings`' running cadence.
    public init(settings: ActivitySettings) {
        self.init(runningCadence: settings.runningCadence)
    }
}

extension MotionDetectorBank {
    /// The bank of the detectors `settings` switches on, with its thresholds; the pedometer runs with the
    /// activity. The vibration meter measures `vibrationBands` (see ``VibrationMeter/usableBands(_:sampleRate:)``)
    /// and is off when there are none.
    public init(settings: MotionDetectorSettings, vibrationBands: [ClosedRange<Double>]) {
        func on(_ detector: MotionDetectorKind) -> Bool { settings.isOn(detector) }
        self.init(
            freeFall: on(.freeFall) ? FreeFallDetector(settings: settings.freeFall) : nil,
            impact: on(.impact) ? ImpactDetector(settings: settings.impact) : nil,
            tap: on(.tap) ? TapDetector(settings: settings.tap) : nil,
            shake: on(.shake) ? ShakeDetector(settings: settings.shake) : nil,
            orientation: on(.orientation) ? DeviceOrientationDetector(settings: settings.orientation) : nil,
            tilt: on(.tilt) ? TiltDetector(settings: settings.tilt) : nil,
            moving: on(.moving) ? MotionActivityStateDetector(settings: settings.moving) : nil,
            vibration: on(.vibration) && !vibrationBands.isEmpty ? VibrationMeter(settings: settings.vibration, bands: vibrationBands) : nil,
            steps: on(.activity) ? StepDetector() : nil,
            activity: on(.activity) ? MotionActivityClassifier(settings: settings.activity) : nil)
    }
}
