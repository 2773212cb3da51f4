extension MotionEngine {
    /// The motion detectors of this engine's device: one host, made on first use, that CoreMotion and the
    /// agent listen to (steps, activity, events and states) and that feeds the agent's event processor.
    public var detectors: MotionDetectorHost {
        detectorHost.withLock { host in
            if let host { return host }
            let made = MotionDetectorHost(engine: self)
            host = made
            return made
        }
    }
}

/// The detectors' host under its former name.
@available(*, deprecated, renamed: "MotionDetectorHost")
public typealias MotionActivityMonitor = MotionDetectorHost
