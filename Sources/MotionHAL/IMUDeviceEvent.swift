/// What a running IMU device delivers to its consumer.
public enum IMUDeviceEvent: Sendable {
    /// New samples, in timestamp order, each timestamp later than every one delivered before.
    case samples([IMUSample])
    /// The device failed; it may recover by itself (the next `.samples` says so) or need a restart.
    case fault(IMUDeviceError)
}
