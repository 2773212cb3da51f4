/// A magnetic field with the device's own bias removed, and how accurate that calibration is.
public struct CMCalibratedMagneticField: Sendable {
    /// The calibrated field, µT, in the device's axes.
    public var field: CMMagneticField
    /// The accuracy of ``field``.
    public var accuracy: CMMagneticFieldCalibrationAccuracy

    /// Creates a zero field of accuracy ``CMMagneticFieldCalibrationAccuracy/uncalibrated``.
    public init() {
        self.init(field: CMMagneticField(), accuracy: .uncalibrated)
    }

    /// Creates a calibrated field.
    /// - Parameters:
    ///   - field: the field, µT.
    ///   - accuracy: its calibration accuracy.
    public init(field: CMMagneticField, accuracy: CMMagneticFieldCalibrationAccuracy) {
        self.field = field
        self.accuracy = accuracy
    }
}
