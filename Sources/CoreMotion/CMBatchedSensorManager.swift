import MotionEngine
import MotionHAL

/// An object that delivers every accelerometer and device-motion sample in batches (Apple: iOS 17,
/// watchOS 10), for high-rate work without one handler call per sample.
///
/// On Linux it reads the same IMU of the process as ``CMMotionManager`` (see
/// ``CMLinuxMotionDevice/use(_:)``): the device runs while any service of any manager runs, and its
/// rate is the device's (``accelerometerDataFrequency``). Each batch holds every sample of the device, in
/// order, each exactly once: a device-motion batch holds the fusion output for every sample (from the
/// first one the filter can place, the first sample with an accelerometer reading). As on Apple's devices
/// a batch is delivered about once per second; ``linuxBatchInterval`` changes that (0: with every delivery
/// of the device, for low latency).
///
/// Handlers run on an internal serial queue of the manager (one per manager), one call at a time, in order.
/// On a device fault the handler receives nil and an `NSError` in ``CMErrorDomain`` once per fault episode
/// (see ``CMLinuxMotionDevice/diagnostics``); when samples flow again batches simply resume. Samples of a
/// batch not yet closed when a service stops are dropped; no new handler call begins after a stop method
/// returns (one already running may still finish: stopping never waits for the queue, so a handler that
/// waits for the stopping thread cannot deadlock). Deallocating a manager stops its services.
///
/// Thread safety: every property and method may be called from any thread. Like Apple's, the class is not
/// `Sendable`.
open class CMBatchedSensorManager: NSObject {
    /// Batch interval used until ``linuxBatchInterval`` is set, s: about one batch per second, as Apple's.
    static let defaultBatchInterval: TimeInterval = 1

    /// The manager's state and handler queue, in an object of its own that deliveries can reach.
    let storage = BatchedManagerStorage()

    /// Creates a batched sensor manager.
    public override init() {
        super.init()
    }

    deinit {
        let services = storage.state.withLock { state in
            let services = Array(state.services.values)
            state.services.removeAll()
            return services
        }
        for service in services { BatchedManagerStorage.end(service) }
    }

    // MARK: - Availability

    /// A Boolean value that indicates whether batched accelerometer data is supported: the device has an
    /// accelerometer.
    open class var isAccelerometerSupported: Bool {
        MotionEngine.shared.deviceInfo?.sensors.contains(.accelerometer) ?? false
    }

    /// A Boolean value that indicates whether batched device-motion data is supported: the device has an
    /// accelerometer and a gyroscope.
    open class var isDeviceMotionSupported: Bool {
        MotionEngine.shared.deviceInfo?.sensors.isSuperset(of: [.accelerometer, .gyroscope]) ?? false
    }

    /// The app's authorization to use batched sensor data: always ``CMAuthorizationStatus/authorized`` on
    /// Linux (there is no prompt).
    open class var authorizationStatus: CMAuthorizationStatus { .authorized }

    // MARK: - Frequencies

    /// The frequency of the accelerometer samples in a batch, Hz: the device's sample rate (rounded); 0
    /// without a device.
    open var accelerometerDataFrequency: Int { Self.deviceFrequency }

    /// The frequency of the device-motion samples in a batch, Hz: the device's sample rate (rounded), since
    /// fusion runs on every sample; 0 without a device.
    open var deviceMotionDataFrequency: Int { Self.deviceFrequency }

    private static var deviceFrequency: Int {
        Int((MotionEngine.shared.sampleRate ?? 0).rounded())
    }

    // MARK: - Activity and latest batches

    /// A Boolean value that indicates whether accelerometer updates are active.
    open var isAccelerometerActive: Bool { storage.state.withLock { $0.services[.accelerometer] != nil } }

    /// A Boolean value that indicates whether device-motion updates are active.
    open var isDeviceMotionActive: Bool { storage.state.withLock { $0.services[.deviceMotion] != nil } }

    /// The latest batch of accelerometer data (oldest sample first); nil until updates delivered one.
    open var accelerometerBatch: [CMAccelerometerData]? {
        storage.latestBatch(.accelerometer, as: CMAccelerometerData.self)
    }

    /// The latest batch of device-motion data (oldest sample first); nil until updates delivered one.
    open var deviceMotionBatch: [CMDeviceMotion]? {
        storage.latestBatch(.deviceMotion, as: CMDeviceMotion.self)
    }

    // MARK: - Accelerometer

    /// Starts batched accelerometer updates without a handler; read ``accelerometerBatch`` for the latest
    /// batch. Does nothing without an accelerometer. Restarting replaces the previous updates.
    open func startAccelerometerUpdates() {
        storage.start(.accelerometer, slot: .accelerometer, handler: QueuedBatchHandler<CMAccelerometerData>?.none)
    }

    /// Starts batched accelerometer updates with a handler, run on the manager's serial queue. Does nothing
    /// without an accelerometer. Restarting replaces the previous updates.
    /// - Parameter handler: receives each batch (acceleration in g, oldest first, every sample once) and a
    ///   nil error, or nil and an `NSError` in ``CMErrorDomain`` once per device fault episode.
    open func startAccelerometerUpdates(handler: @escaping ([CMAccelerometerData]?, (any Error)?) -> Void) {
        storage.start(.accelerometer, slot: .accelerometer, handler: QueuedBatchHandler(handler: handler))
    }

    /// Stops accelerometer updates (and finishes an ``accelerometerUpdates()`` sequence). No new handler
    /// call begins after it returns; one already running may still finish.
    open func stopAccelerometerUpdates() {
        storage.stop(.accelerometer)
    }

    /// Starts batched accelerometer updates and returns them as an asynchronous sequence of batches.
    ///
    /// Updates start when this method is called (batches are buffered until iterated; iterate once). The
    /// sequence ends (returns nil) when ``stopAccelerometerUpdates()`` is called or another start replaces
    /// it; it throws the `NSError` in ``CMErrorDomain`` of a device fault (or ``CMErrorNotAvailable`` right
    /// away without an accelerometer) and the updates stop. Leaving the loop or cancelling its task stops
    /// the updates.
    public func accelerometerUpdates() -> AccelerometerUpdates {
        let updates: UpdateStream<CMAccelerometerData> = storage.makeUpdateStream(.accelerometer, slot: .accelerometer)
        return AccelerometerUpdates(stream: updates.batches, stopUpdates: updates.stop)
    }

    // MARK: - Device motion

    /// Starts batched device-motion updates without a handler, in the frame
    /// ``CMAttitudeReferenceFrame/xArbitraryZVertical``; read ``deviceMotionBatch`` for the latest batch.
    /// Does nothing without an accelerometer and a gyroscope. Restarting replaces the previous updates.
    open func startDeviceMotionUpdates() {
        storage.start(.deviceMotion(.xArbitraryZVertical), slot: .deviceMotion, handler: QueuedBatchHandler<CMDeviceMotion>?.none)
    }

    /// Starts batched device-motion updates with a handler, run on the manager's serial queue, in the frame
    /// ``CMAttitudeReferenceFrame/xArbitraryZVertical`` (Apple's batched device motion takes no frame; on
    /// Linux see ``startDeviceMotionUpdates(using:handler:)``). Does nothing without an accelerometer and a
    /// gyroscope. Restarting replaces the previous updates.
    /// - Parameter handler: receives each batch (fusion output for every sample, oldest first) and a nil
    ///   error, or nil and an `NSError` in ``CMErrorDomain`` once per device fault episode.
    open func startDeviceMotionUpdates(handler: @escaping ([CMDeviceMotion]?, (any Error)?) -> Void) {
        storage.start(.deviceMotion(.xArbitraryZVertical), slot: .deviceMotion, handler: QueuedBatchHandler(handler: handler))
    }

    /// Stops device-motion updates (and finishes a ``deviceMotionUpdates()`` sequence). No new handler
    /// call begins after it returns; one already running may still finish.
    open func stopDeviceMotionUpdates() {
        storage.stop(.deviceMotion)
    }

    /// Starts batched device-motion updates (frame ``CMAttitudeReferenceFrame/xArbitraryZVertical``) and
    /// returns them as an asynchronous sequence of batches; it starts, ends and throws as
    /// ``accelerometerUpdates()`` does.
    public func deviceMotionUpdates() -> DeviceMotionUpdates {
        let updates: UpdateStream<CMDeviceMotion> = storage.makeUpdateStream(.deviceMotion(.xArbitraryZVertical), slot: .deviceMotion)
        return DeviceMotionUpdates(stream: updates.batches, stopUpdates: updates.stop)
    }
}
