import MotionHAL

/// The engine's device choice and run state; held while starting or stopping the device.
struct MotionEngineLifecycle {
    var device: (any IMUDevice)?
    /// Whether the device was set or looked up in the environment.
    var isDeviceChosen = false
    /// Whether the calibration was set or looked up in `MOTION_CALIBRATION`.
    var isCalibrationChosen = false
    var isRunning = false
    /// Counts starts, device changes and the last subscriber leaving: work of an earlier one is dropped.
    var generation: UInt64 = 0
}

/// The engine's subscriptions, fusion and health; taken briefly by the device's event handler and by
/// (un)subscribing.
struct MotionEngineProcessing {
    var router = SampleRouter()
    /// Run whose events are accepted (events of an earlier run are ignored).
    var generation: UInt64 = 0
    /// Counters, rate and fault episodes.
    var health = MotionHealth()
    /// Writes every raw sample to a recording file while set.
    var recorder: MotionRecorder?
}

/// The magnetic declination known to an engine, degrees east of true north: set explicitly, else the
/// environment's (``MotionEngineEnvironment/declination()``), looked up once.
struct MotionEngineDeclination {
    private var degrees: Double?
    private var isResolved = false

    /// The declination, reading it with `lookUp` the first time when none was set (nil: unknown).
    mutating func resolved(_ lookUp: () -> Double?) -> Double? {
        if !isResolved { set(lookUp()) }
        return degrees
    }

    /// Sets the declination (nil: unknown); the environment is not looked at any more.
    mutating func set(_ degrees: Double?) {
        self.degrees = degrees
        isResolved = true
    }
}
