/// How accurately a calibrated magnetic field is known.
public enum CMMagneticFieldCalibrationAccuracy: Int32, Sendable {
    /// The field is not calibrated (on Linux: also every reference frame that ignores the magnetometer).
    case uncalibrated = -1
    /// Low calibration accuracy.
    case low = 0
    /// Medium calibration accuracy.
    case medium = 1
    /// High calibration accuracy.
    case high = 2
}
