import MotionContract
import MotionFusion

/// The on-board motion detectors (`detectors` in the configuration file and in remote documents): whether
/// they run, how `{base}/events` is published, and each detector's switch and thresholds.
///
/// The thresholds are MotionModel's typed settings (``MotionDetectorSettings``), whose parameter tables
/// give each one's key, unit, default (see docs/FUSION.md) and the range it is checked against; a file or
/// document sets only what it names. The vibration bands are a list of `[low, high]` pairs in Hz; the
/// tilt's reference is `"start"` or a gravity direction `[x, y, z]` in the device's axes.
public struct DetectorSettings: Sendable, Equatable {
    /// The detectors, by their configuration names (the model's ``MotionDetectorKind``).
    public typealias Detector = MotionDetectorKind

    /// Whether the detectors run (and `{base}/events` and `{base}/state/…` are published). Default true.
    public var enabled = true
    /// MQTT quality of service of `{base}/events`, 0…2. Default 1 (kept in the offline buffer).
    public var qos = 1
    /// How `{base}/events` payloads are written (the state topics stay JSON). Default JSON.
    public var format: PayloadFormat = .json
    /// Each detector's thresholds and switch.
    public var bank = MotionDetectorSettings()

    /// The defaults: every detector on with its documented thresholds.
    public init() {}

    /// The thresholds and switches the detectors run with: ``bank``, with every detector switched off
    /// while the detectors are off.
    public var running: MotionDetectorSettings {
        var running = bank
        if !enabled { running.switchedOff = Set(Detector.allCases) }
        return running
    }

    /// Whether `detector` runs (the detectors are on and it is not switched off).
    public func isOn(_ detector: Detector) -> Bool { running.isOn(detector) }

    /// Whether `other` detects the same (the same detectors with the same thresholds), whatever the events'
    /// QoS and format.
    public func detectsAlike(_ other: DetectorSettings) -> Bool {
        var same = other
        same.qos = qos
        same.format = format
        return same == self
    }

    /// The state topics of the detectors that run.
    public var publishedStates: [MotionStateName] { Detector.allCases.filter(isOn).compactMap(\.stateKind) }
}
