/// Why an IMU device could not be opened, started or read.
public enum IMUDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device specification string could not be understood; the text says which part and why.
    case invalidSpecification(String)
    /// The requested sample rate (Hz) is outside what the device supports.
    case unsupportedSampleRate(Double)
    /// `start` was called while the device was already running.
    case alreadyRunning
    /// The device is not there or cannot be opened; the text says why.
    case unavailable(String)
    /// A read failed or returned unusable data; the text says why.
    case readFailed(String)

    /// A one-line explanation for logs and status messages.
    public var description: String {
        switch self {
        case .invalidSpecification(let why): "invalid device specification: \(why)"
        case .unsupportedSampleRate(let hz): "unsupported sample rate \(hz) Hz"
        case .alreadyRunning: "device already running"
        case .unavailable(let why): "device unavailable: \(why)"
        case .readFailed(let why): "read failed: \(why)"
        }
    }
}
