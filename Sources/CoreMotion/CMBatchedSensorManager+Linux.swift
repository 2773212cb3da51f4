import MotionEngine
/// Linux-only additions: the batch interval, the raw gyroscope and magnetometer (which Apple's batched
/// manager lacks), and device motion in a chosen reference frame.
extension CMBatchedSensorManager {
    /// How much data a batch spans, s (default 1, about Apple's once per second): a batch closes with the
    /// sample that makes it span this interval (judged by sample timestamps, e.g. 50 samples for 0.25 s at
    /// 200 Hz). 0 delivers a batch with every delivery of the device (its own FIFO batch), for the lowest
    /// latency. Negative and NaN values count as 0. A change applies to running updates from their next
    /// batch.
    public var linuxBatchInterval: TimeInterval {
        get { storage.state.withLock { $0.batchInterval } }
        set { setInterval(newValue, in: \.batchInterval, of: \.interval) }
    }

    /// The spacing of the samples in this manager's batches, s (Linux; default 0: every sample of the
    /// device, as Apple's batches have). A positive interval keeps one sample per interval, chosen as
    /// ``CMMotionManager``'s update intervals choose theirs (the first sample at or after each due time,
    /// the due times an interval apart): for a consumer that only wants a decimated stream, the samples it
    /// would drop are never made. Fusion still runs on every sample. Negative and NaN values count as 0.
    /// A change applies to running updates from their next sample.
    public var linuxSampleInterval: TimeInterval {
        get { storage.state.withLock { $0.sampleInterval } }
        set { setInterval(newValue, in: \.sampleInterval, of: \.sampleInterval) }
    }

    /// Stores an interval setting (negative and NaN values as 0) and applies it to the running services.
    private func setInterval(
        _ newValue: TimeInterval, in setting: WritableKeyPath<BatchedManagerStorage.State, TimeInterval>,
        of subscriptionInterval: ReferenceWritableKeyPath<MotionSubscription, Double>
    ) {
        let interval = newValue.isNaN ? 0 : max(newValue, 0)
        let subscriptions = storage.state.withLock { state in
            state[keyPath: setting] = interval
            return state.services.values.map(\.subscription)
        }
        for subscription in subscriptions { subscription[keyPath: subscriptionInterval] = interval }
    }

    /// Whether raw gyroscope batches are being delivered (Linux).
    public var isLinuxGyroActive: Bool { storage.state.withLock { $0.services[.gyro] != nil } }

    /// Whether raw magnetometer batches are being delivered (Linux).
    public var isLinuxMagnetometerActive: Bool { storage.state.withLock { $0.services[.magnetometer] != nil } }

    /// Starts batches of raw gyroscope samples (Linux), with the handler on the manager's serial queue, like
    /// ``startAccelerometerUpdates(handler:)``. Does nothing without a gyroscope.
    /// - Parameter handler: receives each batch (rotation rate in rad/s including the gyroscope's bias,
    ///   oldest first, every sample once), or nil and an `NSError` in ``CMErrorDomain`` once per fault
    ///   episode.
    public func startLinuxGyroUpdates(handler: @escaping ([CMGyroData]?, (any Error)?) -> Void) {
        storage.start(.gyroscope, slot: .gyro, handler: QueuedBatchHandler(handler: handler))
    }

    /// Stops raw gyroscope batches. No new handler call begins after it returns; one
    /// already running may still finish.
    public func stopLinuxGyroUpdates() {
        storage.stop(.gyro)
    }

    /// Starts batches of raw magnetometer samples (Linux), with the handler on the manager's serial queue,
    /// like ``startAccelerometerUpdates(handler:)``. Does nothing without a magnetometer.
    /// - Parameter handler: receives each batch (magnetic field in µT, uncalibrated, oldest first, every
    ///   sample once), or nil and an `NSError` in ``CMErrorDomain`` once per fault episode.
    public func startLinuxMagnetometerUpdates(handler: @escaping ([CMMagnetometerData]?, (any Error)?) -> Void) {
        storage.start(.magnetometer, slot: .magnetometer, handler: QueuedBatchHandler(handler: handler))
    }

    /// Stops raw magnetometer batches. No new handler call begins after it returns; one
    /// already running may still finish.
    public func stopLinuxMagnetometerUpdates() {
        storage.stop(.magnetometer)
    }

    /// Starts batched device-motion updates in `referenceFrame` (Linux; Apple's batched device motion has no
    /// frame and uses ``CMAttitudeReferenceFrame/xArbitraryZVertical``), with the handler on the manager's
    /// serial queue. Does nothing without an accelerometer and a gyroscope. A frame that is not exactly one
    /// of ``CMMotionManager/availableAttitudeReferenceFrames()`` starts nothing: the handler receives one
    /// `NSError` in ``CMErrorDomain`` (``CMErrorTrueNorthNotAvailable``, ``CMErrorNotAvailable`` or
    /// ``CMErrorInvalidParameter``) and the service stays inactive.
    /// - Parameters:
    ///   - referenceFrame: the frame attitudes are reported in.
    ///   - handler: receives each batch, or nil and an error.
    public func startDeviceMotionUpdates(
        using referenceFrame: CMAttitudeReferenceFrame, handler: @escaping ([CMDeviceMotion]?, (any Error)?) -> Void
    ) {
        guard Self.isDeviceMotionSupported else { return }
        let queued = QueuedBatchHandler(handler: handler)
        let isSingleFrame = referenceFrame.rawValue != 0 && referenceFrame.rawValue & (referenceFrame.rawValue - 1) == 0
        guard isSingleFrame, CMMotionManager.availableAttitudeReferenceFrames().contains(referenceFrame) else {
            let error: NSError =
                if !isSingleFrame {
                    CMErrorInvalidParameter.nsError("\(referenceFrame.rawValue) is not a single reference frame.")
                } else if referenceFrame == .xTrueNorthZVertical {
                    CMErrorTrueNorthNotAvailable.nsError(
                        "True north is not available: the magnetic declination is unknown (set it with CMLinuxMotionDevice.useMagneticDeclination(_:) or MOTION_DECLINATION).")
                } else {
                    CMErrorNotAvailable.nsError(
                        "The attitude reference frame \(referenceFrame.rawValue) is not available on this device.")
                }
            storage.stop(.deviceMotion)
            // A subscription the engine never sees, so that stopping later still cancels the queued call.
            let inert = MotionSubscription(service: .deviceMotion(referenceFrame.engineFrame), interval: 0, sink: .batch { _, _, _ in })
            queued.enqueue(on: storage.queue, batch: nil, error: error, subscription: inert)
            return
        }
        storage.start(.deviceMotion(referenceFrame.engineFrame), slot: .deviceMotion, handler: queued)
    }
}
