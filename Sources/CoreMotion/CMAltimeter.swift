import MotionEngine
import MotionHAL
import MotionMath
import Synchronization

/// An object that initiates the delivery of altitude-related changes: relative altitude and pressure, and
/// absolute altitude, from the board's barometer (``MotionAltimeter/shared``, named by `MOTION_BAROMETER`:
/// `sim`, `iio:NAME`, `i2c:/dev/i2c-1@0x76`, …; without it altitude is unavailable, as on a device without
/// a barometer). Updates come at the barometer's rate. Handlers run on the `OperationQueue` given. Thread
/// safety: every method may be called from any thread.
open class CMAltimeter: NSObject {
    private let relative = AltimeterCore()
    private let absolute = AltimeterCore()
    /// The Linux ambient-pressure updates (``linuxStartAmbientPressureUpdates(to:withHandler:)``).
    let ambient = AltimeterCore()

    /// Creates an altimeter.
    public override init() {
        super.init()
    }

    deinit {
        relative.stop()
        absolute.stop()
        ambient.stop()
    }

    /// Linux only: makes `device` the barometer of every altimeter (and of the pedometer's floors) of the
    /// process, instead of the one `MOTION_BAROMETER` names.
    public static func useLinuxBarometer(_ device: any BarometerDevice) {
        MotionAltimeter.shared.setDevice(device)
    }

    /// Linux only: opens the barometer named by `specification` (`sim`, `sim:floors=2`, `iio:bmp280`,
    /// `i2c:/dev/i2c-1@0x76`; see `BarometerSpecification`) and selects it as ``useLinuxBarometer(_:)`` does.
    /// - Throws: the specification's error, or `IMUDeviceError.unavailable` for a device that cannot be opened.
    public static func useLinuxBarometer(specification: String) throws {
        MotionAltimeter.shared.setDevice(try BarometerSpecification(parsing: specification).makeDevice())
    }

    /// Whether the device can report relative altitude changes (it has a barometer).
    open class func isRelativeAltitudeAvailable() -> Bool { MotionAltimeter.shared.isAvailable }

    /// Whether the device supports reporting absolute altitude changes (it has a barometer).
    open class func isAbsoluteAltitudeAvailable() -> Bool { MotionAltimeter.shared.isAvailable }

    /// The authorization status for motion data: always ``CMAuthorizationStatus/authorized`` on Linux.
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// Starts the delivery of relative altitude changes to `queue`; the first reading of these updates is
    /// 0 m. Without a
    /// barometer the handler receives nil and ``CMErrorNotAvailable``.
    open func startRelativeAltitudeUpdates(to queue: OperationQueue, withHandler handler: @escaping CMAltitudeHandler) {
        let box = UncheckedBox(handler)
        // Relative to this session's first reading, whoever else keeps the barometer running.
        let reference = Mutex<Double?>(nil)
        relative.start(queue: queue) { reading, error in
            let data = UncheckedBox(reading.map { reading -> CMAltitudeData in
                let first = reference.withLock { first in
                    if first == nil { first = reading.pressure }
                    return first!
                }
                var own = reading
                own.relativeAltitude = BarometricFormula.altitude(pressure: reading.pressure, referencePressure: first)
                return CMAltitudeData(own)
            })
            return QueuedCall { box.value(data.value, error) }
        }
    }

    /// Stops the delivery of relative altitude changes.
    open func stopRelativeAltitudeUpdates() { relative.stop() }

    /// Starts the delivery of absolute altitude changes to `queue`. Without a barometer the handler
    /// receives nil and ``CMErrorNotAvailable``.
    open func startAbsoluteAltitudeUpdates(to queue: OperationQueue, withHandler handler: @escaping CMAbsoluteAltitudeHandler) {
        let box = UncheckedBox(handler)
        let accuracy = MotionAltimeter.shared.seaLevelPressure == BarometricFormula.standardPressure ? 170.0 : 10.0
        absolute.start(queue: queue) { reading, error in
            let data = UncheckedBox(reading.map { CMAbsoluteAltitudeData($0, accuracy: accuracy) })
            return QueuedCall { box.value(data.value, error) }
        }
    }

    /// Stops the delivery of absolute altitude changes.
    open func stopAbsoluteAltitudeUpdates() { absolute.stop() }
}

/// One kind of an altimeter's updates, in a `Sendable` object the barometer's thread can reach.
final class AltimeterCore: Sendable {
    private let altimeter = MotionAltimeter.shared
    private let running = UpdateSlot<MotionAltimeter.ListenerToken> { MotionAltimeter.shared.removeListener($0) }

    /// Starts updates; `call` makes the handler call for a reading or an error.
    func start(queue: OperationQueue, call: @escaping @Sendable (MotionAltimeter.Reading?, NSError?) -> QueuedCall) {
        stop()
        let session = UpdateSession()
        let token = altimeter.addListener { update in
            switch update {
            case .readings(let readings):
                for reading in readings { call(reading, nil).enqueue(on: queue, unlessStopped: session) }
            case .fault(let description):
                call(nil, CMErrorUnknown.nsError(description)).enqueue(on: queue, unlessStopped: session)
            }
        }
        guard let token else {
            let reason = altimeter.openingError ?? "No barometer (set MOTION_BAROMETER)"
            call(nil, CMErrorNotAvailable.nsError(reason)).enqueue(on: queue, unlessStopped: session)
            return
        }
        running.install(session, token)
    }

    func stop() { running.stop() }
}
