import MotionEngine
import MotionHAL

/// The handler of ``CMHeadphoneMotionManager/startDeviceMotionUpdates(to:withHandler:)``: a sample or an
/// error.
public typealias CMHeadphoneDeviceMotionHandler = (CMDeviceMotion?, (any Error)?) -> Void

/// What a ``CMHeadphoneMotionManager`` tells its delegate: the headphones connected or disconnected. Both
/// methods are optional, as in Apple's protocol. Called on a serial queue of the manager's own.
///
/// The optional methods are protocol-extension defaults, which Swift dispatches statically: implement them
/// in the class that declares the conformance (a subclass's own implementation is not called), as Apple's
/// `@objc optional` methods, dispatched dynamically, would not require.
public protocol CMHeadphoneMotionManagerDelegate: NSObjectProtocol {
    /// The headphones connected (their device delivers data).
    func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager)
    /// The headphones disconnected (their device is gone or silent).
    func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager)
}

extension CMHeadphoneMotionManagerDelegate {
    /// Does nothing (the method is optional).
    public func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager) {}
    /// Does nothing (the method is optional).
    public func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager) {}
}

/// Head motion from headphones (Apple's `CMHeadphoneMotionManager`): on a board, from a second IMU worn
/// on the head (see ``useLinuxHeadphoneDevice(specification:mountMatrix:sensorLocation:)``, or
/// `MOTION_HEADPHONE_DEVICE`), or a remote board's (RemoteMotion's `init(linuxRemoteDevice:broker:prefix:)`).
///
/// Device motion is in Apple's headphone axes: upright and looking ahead, x points to the wearer's right,
/// y forward, z up, so nodding is pitch, tilting the head sideways is roll and turning it is yaw; the
/// attitude's reference frame is `xArbitraryZVertical` (as with AirPods), with `sensorLocation` the
/// earpiece holding the sensor. A device mounted otherwise is rotated into these axes with its mount
/// matrix. Updates come every ``linuxDeviceMotionUpdateInterval`` (Apple has no interval property).
///
/// Connection: the headphones connect when their device delivers its first sample and disconnect on a
/// fault (unplugged, gone from the bus or the broker, or silent); the device is reopened with back-off
/// and connects again by itself. The delegate hears of both while device-motion or connection-status
/// updates run. Thread safety: every method may be called from any thread; handlers run on the queue
/// given, delegate calls on a serial queue of the manager's own.
open class CMHeadphoneMotionManager: NSObject {
    /// The handler type of ``startDeviceMotionUpdates(to:withHandler:)`` (its name in newer SDKs).
    public typealias DeviceMotionHandler = CMHeadphoneDeviceMotionHandler

    let core: HeadphoneMotionCore

    /// Creates a manager of the process's headphones.
    public override init() {
        core = HeadphoneMotionCore(source: HeadphoneDevice.engine)
        super.init()
        core.delegation.owner = self
    }

    deinit {
        core.stopAll()
    }

    /// Makes the manager read `source` (RemoteMotion's remote boards); only right after `init()`.
    package func useLinuxSource(_ source: any MotionSource) {
        core.useSource(source)
    }

    /// The authorization status: always ``CMAuthorizationStatus/authorized`` on Linux (there is no prompt).
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// The object told of connections and disconnections (held weakly, as Apple's).
    open var delegate: (any CMHeadphoneMotionManagerDelegate)? {
        get { core.delegation.delegate }
        set { core.delegation.delegate = newValue }
    }

    /// Whether head motion is available: the process has headphones with an accelerometer and a gyroscope.
    open var isDeviceMotionAvailable: Bool { core.isAvailable }

    /// Whether device-motion updates are running.
    open var isDeviceMotionActive: Bool { core.isMotionActive }

    /// Whether connection-status updates are running.
    open var isConnectionStatusActive: Bool { core.isConnectionActive }

    /// The latest head motion of updates started without a handler (or with one), nil before the first.
    open var deviceMotion: CMDeviceMotion? { core.latest }

    /// Starts device-motion updates to be read from ``deviceMotion``.
    open func startDeviceMotionUpdates() {
        core.startMotion(queue: nil, handler: nil)
    }

    /// Starts device-motion updates handed to `handler` on `queue`; a fault is handed over once as an
    /// error in ``CMErrorDomain`` and data simply resumes when the headphones are back.
    open func startDeviceMotionUpdates(to queue: OperationQueue, withHandler handler: @escaping CMHeadphoneDeviceMotionHandler) {
        core.startMotion(queue: queue, handler: QueuedHandler(handler: handler))
    }

    /// Stops device-motion updates; no handler call starts after it returns.
    open func stopDeviceMotionUpdates() {
        core.stopMotion()
    }

    /// Starts telling the delegate of connections and disconnections without device-motion updates (the
    /// headphones' device runs for it; its samples are not delivered). Headphones already connected are
    /// reported at once.
    open func startConnectionStatusUpdates() {
        core.startConnection()
    }

    /// Stops the connection-status updates.
    open func stopConnectionStatusUpdates() {
        core.stopConnection()
    }

    // MARK: - Linux

    /// The interval of device-motion updates, s (0.04 s, 25 Hz, by default; at least the device's own
    /// sample interval). Takes effect at the next start.
    open var linuxDeviceMotionUpdateInterval: TimeInterval {
        get { core.interval }
        set { core.interval = newValue }
    }

    /// Opens the device named by `specification` as the process's headphones (every
    /// ``CMHeadphoneMotionManager`` and ``CMHeadphoneActivityManager`` reads it).
    /// - Parameters:
    ///   - specification: a device string (for example `sim:motion=spin` or `i2c:/dev/i2c-1@0x69`).
    ///   - mountMatrix: the device's axes → the head's (x right, y forward, z up).
    ///   - sensorLocation: which earpiece holds the sensor.
    /// - Throws: `IMUDeviceError` if the string is invalid or the device cannot be opened; the current
    ///   headphones are then unchanged.
    public static func useLinuxHeadphoneDevice(
        specification: String, mountMatrix: MountMatrix = .identity, sensorLocation: CMDeviceMotion.SensorLocation = .default
    ) throws {
        try HeadphoneDevice.engine.openDevice(specification: specification, mountMatrix: mountMatrix)
        HeadphoneDevice.sensorLocation.withLock { $0 = sensorLocation }
    }

    /// Makes `device` (not started) the process's headphones; nil: none.
    public static func useLinuxHeadphoneDevice(_ device: (any IMUDevice)?, sensorLocation: CMDeviceMotion.SensorLocation = .default) {
        HeadphoneDevice.engine.setDevice(device)
        HeadphoneDevice.sensorLocation.withLock { $0 = sensorLocation }
    }
}
