import MotionEngine
import MotionMath
import MotionHAL
import Synchronization

/// The object for starting and managing motion services: accelerometer, gyroscope, magnetometer and
/// device motion (sensor fusion), in push mode (a handler on an `OperationQueue`, at an update interval) or
/// pull mode (read the latest sample from a property).
///
/// On Linux every manager reads the one IMU of the process (see ``CMLinuxMotionDevice``); the device runs while
/// at least one service of any manager is active. Without a device every service is unavailable and the
/// start methods do nothing, as on Apple's simulator. A device fault (a read error, a stall, a failed start,
/// which is retried) reaches each handler once per fault episode as nil and an `NSError` in
/// ``CMErrorDomain``; when samples flow again the handlers simply receive data again (see
/// ``CMLinuxMotionDevice/diagnostics``). For every sample in batches see ``CMBatchedSensorManager``.
///
/// Thread safety: every property and method may be called from any thread (state is behind a mutex). Like
/// Apple's, the class is not `Sendable`, so app subclasses compile unchanged in Swift 6. Handlers run only on
/// the queue given to the start method. Deallocating a manager stops its services.
open class CMMotionManager: NSObject {
    /// Update interval used until one is set, s (100 Hz).
    static let defaultUpdateInterval: TimeInterval = 0.01

    /// The manager's state, in an object of its own that deliveries from the device's thread can reach.
    let storage = ManagerStorage()
    /// Where the samples come from: this process's IMU (``MotionEngine/shared``), or a remote board
    /// (RemoteMotion's `init(linuxRemoteDevice:broker:prefix:)`, which sets it right after `init()`, before
    /// anything can use the manager; not a designated initializer, so that app subclasses compile as on iOS).
    package private(set) var source: any MotionSource = MotionEngine.shared
    /// ``deviceMotionBody``'s value (only ever read and written under the mutex).
    private let body = Mutex(UncheckedBox<(any CMBodyIdentifiable)?>(nil))

    /// Creates a manager. Create one per app; several share the device.
    public override init() {
        super.init()
    }

    /// Makes the manager read `source` (RemoteMotion's remote boards); only right after `init()`.
    package func useLinuxSource(_ source: any MotionSource) {
        self.source = source
    }

    deinit {
        storage.stopAll(on: source)
    }

    // MARK: - Availability

    /// A Boolean value that indicates whether an accelerometer is available on the device.
    open var isAccelerometerAvailable: Bool { source.hasSensors(for: .accelerometer) }
    /// A Boolean value that indicates whether a gyroscope is available on the device.
    open var isGyroAvailable: Bool { source.hasSensors(for: .gyroscope) }
    /// A Boolean value that indicates whether a magnetometer is available on the device.
    open var isMagnetometerAvailable: Bool { source.hasSensors(for: .magnetometer) }
    /// A Boolean value that indicates whether the device-motion service is available on the device (it
    /// needs an accelerometer and a gyroscope).
    open var isDeviceMotionAvailable: Bool { source.hasSensors(for: .deviceMotion(.xArbitraryZVertical)) }

    // MARK: - Activity

    /// A Boolean value that indicates whether accelerometer updates are currently happening.
    open var isAccelerometerActive: Bool { storage.state.withLock { $0.accelerometer != nil } }
    /// A Boolean value that determines whether gyroscope updates are currently happening.
    open var isGyroActive: Bool { storage.state.withLock { $0.gyro != nil } }
    /// A Boolean value that determines whether magnetometer updates are currently happening.
    open var isMagnetometerActive: Bool { storage.state.withLock { $0.magnetometer != nil } }
    /// A Boolean value that determines whether the app is receiving updates from the device-motion service.
    open var isDeviceMotionActive: Bool {
        storage.state.withLock { $0.deviceMotion != nil }
    }

    // MARK: - Update intervals

    /// The interval, in seconds, for providing accelerometer updates to the block handler. Values below one
    /// sample period of the device (1 / its sample rate) are raised to it; a change applies to running
    /// updates.
    open var accelerometerUpdateInterval: TimeInterval {
        get { storage.state.withLock { $0.accelerometerUpdateInterval } }
        set { storage.setInterval(newValue, .accelerometer, on: source) }
    }

    /// The interval, in seconds, for providing gyroscope updates to the block handler (clamped like
    /// ``accelerometerUpdateInterval``).
    open var gyroUpdateInterval: TimeInterval {
        get { storage.state.withLock { $0.gyroUpdateInterval } }
        set { storage.setInterval(newValue, .gyro, on: source) }
    }

    /// The interval, in seconds, at which the system delivers magnetometer data to the block handler
    /// (clamped like ``accelerometerUpdateInterval``).
    open var magnetometerUpdateInterval: TimeInterval {
        get { storage.state.withLock { $0.magnetometerUpdateInterval } }
        set { storage.setInterval(newValue, .magnetometer, on: source) }
    }

    /// The interval, in seconds, for providing device-motion updates to the block handler (clamped like
    /// ``accelerometerUpdateInterval``).
    open var deviceMotionUpdateInterval: TimeInterval {
        get { storage.state.withLock { $0.deviceMotionUpdateInterval } }
        set { storage.setInterval(newValue, .deviceMotion, on: source) }
    }

    // MARK: - Latest samples (pull mode, also refreshed in push mode)

    /// The latest sample of accelerometer data; nil until accelerometer updates have delivered one.
    open var accelerometerData: CMAccelerometerData? { storage.state.withLock { $0.accelerometerData }?.sample }
    /// The latest sample of gyroscope data; nil until gyroscope updates have delivered one.
    open var gyroData: CMGyroData? { storage.state.withLock { $0.gyroData }?.sample }
    /// The latest sample of magnetometer data; nil until magnetometer updates have delivered one.
    open var magnetometerData: CMMagnetometerData? { storage.state.withLock { $0.magnetometerData }?.sample }
    /// The latest sample of device-motion data; nil until device-motion updates have delivered one.
    open var deviceMotion: CMDeviceMotion? { storage.state.withLock { $0.deviceMotionData }?.sample }

    // MARK: - Reference frames

    /// Returns either the reference frame currently being used or the default attitude reference frame:
    /// the frame of the running (or last started) device-motion updates,
    /// ``CMAttitudeReferenceFrame/xArbitraryZVertical`` before any.
    open var attitudeReferenceFrame: CMAttitudeReferenceFrame { storage.state.withLock { $0.attitudeReferenceFrame } }

    /// Returns a bitmask of the available reference frames for reporting the attitude of the current device:
    /// ``CMAttitudeReferenceFrame/xArbitraryZVertical`` with an accelerometer and a gyroscope, plus
    /// ``CMAttitudeReferenceFrame/xArbitraryCorrectedZVertical`` and
    /// ``CMAttitudeReferenceFrame/xMagneticNorthZVertical`` with a magnetometer, plus
    /// ``CMAttitudeReferenceFrame/xTrueNorthZVertical`` when the magnetic declination is also known (Linux:
    /// ``CMLinuxMotionDevice/magneticDeclination``, where Apple's devices use the location).
    open class func availableAttitudeReferenceFrames() -> CMAttitudeReferenceFrame {
        CMAttitudeReferenceFrame(MotionEngine.shared.availableFrames.map(CMAttitudeReferenceFrame.init))
    }

    /// Controls whether the device-movement display is shown. Stored only: Linux has no system UI to ask
    /// the user to move the device for magnetometer calibration.
    open var showsDeviceMovementDisplay: Bool {
        get { storage.state.withLock { $0.showsDeviceMovementDisplay } }
        set { storage.state.withLock { $0.showsDeviceMovementDisplay = newValue } }
    }

    /// The app's authorization to read motion data (iOS 27.2): always ``CMAuthorizationStatus/authorized`` on
    /// Linux (there is no prompt).
    open class var authorizationStatus: CMAuthorizationStatus { .authorized }

    /// Which body's device motion to deliver (iOS 27, where a device can report for a body it is worn on).
    /// Stored only: a board's device motion is always the board's own.
    open var deviceMotionBody: (any CMBodyIdentifiable)? {
        get { body.withLock { $0.value } }
        set { body.withLock { $0 = UncheckedBox(newValue) } }
    }

    // MARK: - Accelerometer

    /// Starts accelerometer updates on an operation queue and with a specified handler, every
    /// ``accelerometerUpdateInterval`` seconds. Does nothing without an accelerometer. Restarting replaces
    /// the previous handler.
    /// - Parameters:
    ///   - queue: the queue the handler runs on.
    ///   - handler: receives each sample, or nil and an `NSError` in ``CMErrorDomain`` on a device fault.
    open func startAccelerometerUpdates(
        to queue: OperationQueue, withHandler handler: @escaping CMAccelerometerHandler
    ) {
        storage.start(.accelerometer, slot: .accelerometer, queue: queue, handler: QueuedHandler(handler: handler), on: source)
    }

    /// Starts accelerometer updates without a handler; read ``accelerometerData`` for the latest sample.
    open func startAccelerometerUpdates() {
        storage.start(.accelerometer, slot: .accelerometer, queue: nil, handler: QueuedHandler<CMAccelerometerData>?.none, on: source)
    }

    /// Stops accelerometer updates. No new handler call begins after it returns; one already
    /// running on its queue may still finish (stopping does not wait for the queue).
    open func stopAccelerometerUpdates() {
        storage.stop(.accelerometer, on: source)
    }

    // MARK: - Gyroscope

    /// Starts gyroscope updates on an operation queue and with a specified handler, every
    /// ``gyroUpdateInterval`` seconds. Does nothing without a gyroscope. Restarting replaces the previous
    /// handler.
    /// - Parameters:
    ///   - queue: the queue the handler runs on.
    ///   - handler: receives each sample, or nil and an `NSError` in ``CMErrorDomain`` on a device fault.
    open func startGyroUpdates(to queue: OperationQueue, withHandler handler: @escaping CMGyroHandler) {
        storage.start(.gyroscope, slot: .gyro, queue: queue, handler: QueuedHandler(handler: handler), on: source)
    }

    /// Starts gyroscope updates without a handler; read ``gyroData`` for the latest sample.
    open func startGyroUpdates() {
        storage.start(.gyroscope, slot: .gyro, queue: nil, handler: QueuedHandler<CMGyroData>?.none, on: source)
    }

    /// Stops gyroscope updates. No new handler call begins after it returns; one already
    /// running on its queue may still finish (stopping does not wait for the queue).
    open func stopGyroUpdates() {
        storage.stop(.gyro, on: source)
    }

    // MARK: - Magnetometer

    /// Starts magnetometer updates on an operation queue and with a specified handler, every
    /// ``magnetometerUpdateInterval`` seconds. Does nothing without a magnetometer. Restarting replaces the
    /// previous handler.
    /// - Parameters:
    ///   - queue: the queue the handler runs on.
    ///   - handler: receives each sample, or nil and an `NSError` in ``CMErrorDomain`` on a device fault.
    open func startMagnetometerUpdates(to queue: OperationQueue, withHandler handler: @escaping CMMagnetometerHandler) {
        storage.start(.magnetometer, slot: .magnetometer, queue: queue, handler: QueuedHandler(handler: handler), on: source)
    }

    /// Starts magnetometer updates without a block handler; read ``magnetometerData`` for the latest sample.
    open func startMagnetometerUpdates() {
        storage.start(.magnetometer, slot: .magnetometer, queue: nil, handler: QueuedHandler<CMMagnetometerData>?.none, on: source)
    }

    /// Stops magnetometer updates. No new handler call begins after it returns; one already
    /// running on its queue may still finish (stopping does not wait for the queue).
    open func stopMagnetometerUpdates() {
        storage.stop(.magnetometer, on: source)
    }

    // MARK: - Device motion

    /// Starts device-motion updates on an operation queue and using a specified reference frame and block
    /// handler, every ``deviceMotionUpdateInterval`` seconds. Does nothing without an accelerometer and a
    /// gyroscope.
    ///
    /// A frame not in ``availableAttitudeReferenceFrames()`` makes the service active without data: the
    /// handler receives one `NSError` in ``CMErrorDomain`` — ``CMErrorTrueNorthNotAvailable`` for
    /// ``CMAttitudeReferenceFrame/xTrueNorthZVertical`` while the magnetic declination is unknown,
    /// ``CMErrorNotAvailable`` for a magnetometer frame without a magnetometer, ``CMErrorInvalidParameter``
    /// for a value that is not exactly one frame.
    /// - Parameters:
    ///   - referenceFrame: the frame attitudes are reported in.
    ///   - queue: the queue the handler runs on.
    ///   - handler: receives each sample, or nil and an error.
    open func startDeviceMotionUpdates(
        using referenceFrame: CMAttitudeReferenceFrame, to queue: OperationQueue,
        withHandler handler: @escaping CMDeviceMotionHandler
    ) {
        startDeviceMotion(referenceFrame, queue: queue, handler: QueuedHandler(handler: handler))
    }

    /// Starts device-motion updates on an operation queue and using a specified block handler, in the frame
    /// of ``attitudeReferenceFrame``. See ``startDeviceMotionUpdates(using:to:withHandler:)``.
    /// - Parameters:
    ///   - queue: the queue the handler runs on.
    ///   - handler: receives each sample, or nil and an error.
    open func startDeviceMotionUpdates(to queue: OperationQueue, withHandler handler: @escaping CMDeviceMotionHandler) {
        startDeviceMotion(attitudeReferenceFrame, queue: queue, handler: QueuedHandler(handler: handler))
    }

    /// Starts device-motion updates using a reference frame but without a block handler; read
    /// ``deviceMotion`` for the latest sample (it stays nil in a frame that is not available).
    /// - Parameter referenceFrame: the frame attitudes are reported in.
    open func startDeviceMotionUpdates(using referenceFrame: CMAttitudeReferenceFrame) {
        startDeviceMotion(referenceFrame, queue: nil, handler: nil)
    }

    /// Starts device-motion updates without a block handler, in the frame of ``attitudeReferenceFrame``;
    /// read ``deviceMotion`` for the latest sample.
    open func startDeviceMotionUpdates() {
        startDeviceMotion(attitudeReferenceFrame, queue: nil, handler: nil)
    }

    /// Stops device-motion updates. No new handler call begins after it returns; one already
    /// running on its queue may still finish (stopping does not wait for the queue).
    open func stopDeviceMotionUpdates() {
        storage.stop(.deviceMotion, on: source)
    }

    /// Starts device motion in `frame` (see ``startDeviceMotionUpdates(using:to:withHandler:)``).
    func startDeviceMotion(
        _ frame: CMAttitudeReferenceFrame, queue: OperationQueue?, handler: QueuedHandler<CMDeviceMotion>?
    ) {
        guard isDeviceMotionAvailable else { return }
        storage.startDeviceMotion(
            frame, available: linuxAvailableAttitudeReferenceFrames, queue: queue, handler: handler, on: source)
    }
}
