import MotionHAL

/// Linux only: the reference frames of this manager's own source, and the process's IMU settings under the
/// names they had before ``CMLinuxMotionDevice`` (deprecated; the fix-it renames each call).
extension CMMotionManager {
    /// Linux only: the reference frames this manager's device can deliver device motion in now, as an
    /// instance property: the same as ``availableAttitudeReferenceFrames()`` for this process's IMU, and
    /// the remote board's for a manager made with RemoteMotion.
    public var linuxAvailableAttitudeReferenceFrames: CMAttitudeReferenceFrame {
        CMAttitudeReferenceFrame(source.availableFrames.map(CMAttitudeReferenceFrame.init))
    }

    /// Selects the process's IMU: ``CMLinuxMotionDevice/use(_:)``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.use(_:)")
    public static func useLinuxDevice(_ device: any IMUDevice) { CMLinuxMotionDevice.use(device) }

    /// Opens and selects the process's IMU: ``CMLinuxMotionDevice/use(specification:mountMatrix:)``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.use(specification:mountMatrix:)")
    public static func useLinuxDevice(specification: String, mountMatrix: MountMatrix = .identity) throws {
        try CMLinuxMotionDevice.use(specification: specification, mountMatrix: mountMatrix)
    }

    /// Records the raw samples: ``CMLinuxMotionDevice/startRecording(toFile:duration:)``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.startRecording(toFile:duration:)")
    public static func startLinuxRecording(toFile path: String, duration: TimeInterval? = nil) throws {
        try CMLinuxMotionDevice.startRecording(toFile: path, duration: duration)
    }

    /// Ends the recording: ``CMLinuxMotionDevice/stopRecording()``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.stopRecording()")
    @discardableResult
    public static func stopLinuxRecording() throws -> Int { try CMLinuxMotionDevice.stopRecording() }

    /// Applies a calibration file: ``CMLinuxMotionDevice/useCalibration(contentsOf:)``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.useCalibration(contentsOf:)")
    public static func useLinuxCalibration(contentsOf path: String) throws { try CMLinuxMotionDevice.useCalibration(contentsOf: path) }

    /// Applies a calibration: ``CMLinuxMotionDevice/useCalibration(_:)``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.useCalibration(_:)")
    public static func useLinuxCalibration(_ calibration: IMUCalibration?) { CMLinuxMotionDevice.useCalibration(calibration) }

    /// The calibration in use: ``CMLinuxMotionDevice/calibration``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.calibration")
    public static var linuxCalibration: IMUCalibration? { CMLinuxMotionDevice.calibration }

    /// What the IMU is: ``CMLinuxMotionDevice/info``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.info")
    public static var linuxDeviceInfo: IMUDeviceInfo? { CMLinuxMotionDevice.info }

    /// The declination for true north: ``CMLinuxMotionDevice/magneticDeclination``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.magneticDeclination")
    public static var linuxMagneticDeclination: Double? { CMLinuxMotionDevice.magneticDeclination }

    /// Sets the declination: ``CMLinuxMotionDevice/useMagneticDeclination(_:)``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.useMagneticDeclination(_:)")
    public static func useLinuxMagneticDeclination(_ degrees: Double?) throws { try CMLinuxMotionDevice.useMagneticDeclination(degrees) }

    /// Sets the declination from a location: ``CMLinuxMotionDevice/useLocation(latitude:longitude:altitude:)``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.useLocation(latitude:longitude:altitude:)")
    public static func useLinuxLocation(latitude: Double, longitude: Double, altitude: Double = 0) throws {
        try CMLinuxMotionDevice.useLocation(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// The IMU's health: ``CMLinuxMotionDevice/diagnostics``.
    @available(*, deprecated, renamed: "CMLinuxMotionDevice.diagnostics")
    public static var linuxDiagnostics: CMLinuxMotionDiagnostics { CMLinuxMotionDevice.diagnostics }
}
