/// Why a calibration file could not be read or written; every case names the file.
public enum IMUCalibrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read; the reason is the system's.
    case unreadable(path: String, reason: String)
    /// The file is not a calibration: `field` is the dotted path of the offending field (for example
    /// `magnetometer.soft_iron[1]`, empty for the whole document), `reason` what is wrong with it.
    case invalid(path: String, field: String, reason: String)
    /// The file could not be written; the reason is the system's.
    case unwritable(path: String, reason: String)

    /// A one-line explanation naming the file (and the field).
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "calibration file \(path): cannot read: \(reason)"
        case .invalid(let path, let field, let reason):
            field.isEmpty ? "calibration file \(path): \(reason)" : "calibration file \(path): field \(field): \(reason)"
        case .unwritable(let path, let reason): "calibration file \(path): cannot write: \(reason)"
        }
    }
}
