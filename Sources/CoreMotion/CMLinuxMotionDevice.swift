import MotionEngine
import MotionMath
import MotionHAL

/// The IMU of this process and its settings (Linux only): which device every manager reads
/// (``CMMotionManager``, ``CMBatchedSensorManager``, ``CMPedometer``, ``CMMotionActivityManager``), its
/// calibration, the magnetic declination that true north needs, a raw recording, and its health.
///
/// Without a call to ``use(_:)`` or ``use(specification:mountMatrix:)``, the first access opens the device
/// named by the `MOTION_DEVICE` environment variable (for example `sim`, `sim:rate=500,motion=stationary`,
/// `iio:mpu6050`, `i2c:/dev/i2c-1@0x68`, see `IMUDeviceSpecification`); without that variable, the IMU the
/// kernel offers through Linux IIO (`auto`: the first device with an accelerometer and a gyroscope). Without
/// either (or if it cannot be opened) there is no device and every service is unavailable, as on Apple's
/// simulator.
///
/// Thread safety: every member may be used from any thread.
public enum CMLinuxMotionDevice {
    /// Selects the IMU every manager in this process reads (call before starting services). A device already
    /// running is stopped; if services are active, the new device is started for them (a service needing a
    /// sensor the new device lacks then receives nothing).
    /// - Parameter device: the device, not started; the managers start and stop it.
    public static func use(_ device: any IMUDevice) {
        MotionEngine.shared.setDevice(device)
    }

    /// Opens the device named by `specification` (for example `sim:rate=500,motion=stationary`) with
    /// `IMUDeviceSpecification.open` and selects it as ``use(_:)`` does.
    ///
    /// Without a call, the first use reads `MOTION_DEVICE` and, with it, `MOTION_MOUNT_MATRIX` (the same text
    /// form as `mountMatrix`'s, for example `MOTION_MOUNT_MATRIX="0, 1, 0; -1, 0, 0; 0, 0, 1"`).
    /// - Parameters:
    ///   - specification: a device string.
    ///   - mountMatrix: how the device sits on the board: its axes → the board's (`MountMatrix`, IIO's
    ///     `mount_matrix` convention); the identity by default. CoreMotion then reports the board's axes.
    /// - Throws: `IMUDeviceError` if the string is invalid or the device cannot be opened; the current device
    ///   is then unchanged.
    public static func use(specification: String, mountMatrix: MountMatrix = .identity) throws {
        try MotionEngine.shared.openDevice(specification: specification, mountMatrix: mountMatrix)
    }

    /// What the IMU of this process is (driver, chip, sensors, rates), or nil without one.
    public static var info: IMUDeviceInfo? {
        MotionEngine.shared.deviceInfo
    }

    /// The health of the IMU (driver, configured and achieved rate, samples, fault episodes, the current
    /// fault) and of the attitude filters in use, for status reports. Faults also reach the handlers: an
    /// `NSError` in ``CMErrorDomain`` once per fault episode, after which data simply resumes.
    public static var diagnostics: CMLinuxMotionDiagnostics {
        MotionEngine.shared.diagnostics
    }

    // MARK: - Recording

    /// Writes every raw sample of the device (SI units: rad/s, m/s², µT; the board's axes, before any
    /// calibration) to `path` in the recording format of `IMURecording` while the device runs, so that a
    /// problem seen in the field can be replayed at a desk (`MOTION_DEVICE=replay:FILE`). The file is flushed
    /// every second of samples. A recording in progress is finished first.
    /// - Parameters:
    ///   - path: the file, created or truncated.
    ///   - duration: seconds of samples after which the recording ends by itself (nil: until
    ///     ``stopRecording()``).
    /// - Throws: an `NSError` in ``CMErrorDomain`` with code ``CMErrorNotAvailable`` without a device, or
    ///   `IMURecordingError` when the file cannot be created.
    public static func startRecording(toFile path: String, duration: TimeInterval? = nil) throws {
        do {
            try MotionEngine.shared.startRecording(toFile: path, duration: duration)
        } catch let fault as MotionEngineFault {
            throw fault.nsError
        }
    }

    /// Ends the recording started by ``startRecording(toFile:duration:)``: flushes and closes its file.
    /// - Returns: the number of samples written (0 without a recording).
    /// - Throws: `IMURecordingError` if writing the file failed.
    @discardableResult
    public static func stopRecording() throws -> Int {
        try MotionEngine.shared.stopRecording()
    }

    // MARK: - Calibration

    /// Reads a calibration file made by `motionctl calibrate` (the JSON form of docs/CALIBRATION.md)
    /// and applies it to the samples of every manager in the process, from the next sample on (see
    /// ``useCalibration(_:)``).
    ///
    /// Without a call, the first use of the device reads the file named by the `MOTION_CALIBRATION`
    /// environment variable (for example `MOTION_CALIBRATION=/etc/motion/calibration.json`), read where
    /// `MOTION_DEVICE` is; an unreadable or invalid file there means no calibration (check ``calibration``).
    /// - Parameter path: the calibration file.
    /// - Throws: `IMUCalibrationError` naming the file and the bad field; the calibration in use is then
    ///   unchanged.
    public static func useCalibration(contentsOf path: String) throws {
        MotionEngine.shared.setCalibration(try IMUCalibration.load(contentsOf: path))
    }

    /// Applies `calibration` (nil: none) to the samples of every manager in the process, from the next sample
    /// on. As on Apple's devices, ``CMGyroData`` and ``CMMagnetometerData`` stay raw (their bias included);
    /// ``CMAccelerometerData`` is corrected by the accelerometer part; ``CMDeviceMotion`` is computed from
    /// fully corrected samples, and its ``CMDeviceMotion/magneticField`` is the field with the hard and soft
    /// iron removed, its accuracy the grade of the magnetometer part
    /// (``CMMagneticFieldCalibrationAccuracy/low``, ``CMMagneticFieldCalibrationAccuracy/medium`` or
    /// ``CMMagneticFieldCalibrationAccuracy/high``).
    /// - Parameter calibration: the calibration, or nil to use the raw samples.
    public static func useCalibration(_ calibration: IMUCalibration?) {
        MotionEngine.shared.setCalibration(calibration)
    }

    /// The calibration applied to the samples, or nil (see ``useCalibration(contentsOf:)``).
    public static var calibration: IMUCalibration? {
        MotionEngine.shared.calibration
    }

    // MARK: - True north

    /// The magnetic declination true north is derived from, degrees east of true north (negative west), or
    /// nil while unknown. Apple's devices take it from the location; here it is set with
    /// ``useMagneticDeclination(_:)``, ``useLocation(latitude:longitude:altitude:)`` (World Magnetic Model),
    /// or the environment, read on first use: `MOTION_DECLINATION` in degrees (for example
    /// `MOTION_DECLINATION=3.2`) or `MOTION_LOCATION` as `latitude,longitude[,altitude m]`. While it is nil,
    /// ``CMAttitudeReferenceFrame/xTrueNorthZVertical`` is not among
    /// ``CMMotionManager/availableAttitudeReferenceFrames()`` and starting device motion in it delivers
    /// ``CMErrorTrueNorthNotAvailable``.
    public static var magneticDeclination: Double? {
        MotionEngine.shared.magneticDeclination
    }

    /// Sets the magnetic declination for true north (nil: unknown) for every manager in the process.
    /// True-north services already running use a new value from their next sample.
    /// - Parameter degrees: declination, degrees east of true north (negative west), within ±180°.
    /// - Throws: an `NSError` in ``CMErrorDomain`` with code ``CMErrorInvalidParameter`` for a value that is not
    ///   finite or outside ±180°; the declination is then unchanged.
    public static func useMagneticDeclination(_ degrees: Double?) throws {
        if let degrees, GeodeticLocation.validDeclination(degrees) == nil {
            throw CMErrorInvalidParameter.nsError(
                "\(degrees) is not a magnetic declination: give degrees east of true north within ±180.")
        }
        MotionEngine.shared.setMagneticDeclination(degrees)
    }

    /// Sets the magnetic declination for true north from a location (Apple's devices use their own
    /// location): the World Magnetic Model 2025's declination there, at today's date. Call again after a
    /// move of more than a few kilometres, or every few months.
    /// - Parameters:
    ///   - latitude: geodetic latitude, degrees north (negative south).
    ///   - longitude: degrees east (negative west).
    ///   - altitude: height above the WGS 84 ellipsoid, m (0 by default).
    /// - Throws: an `NSError` in ``CMErrorDomain`` with code ``CMErrorInvalidParameter`` naming the invalid
    ///   value; the declination is then unchanged.
    public static func useLocation(latitude: Double, longitude: Double, altitude: Double = 0) throws {
        do {
            let location = try GeodeticLocation(latitude: latitude, longitude: longitude, altitude: altitude)
            MotionEngine.shared.setLocation(location)
        } catch {
            throw CMErrorInvalidParameter.nsError("Not a location: \(error).")
        }
    }
}
