/// What a running barometer delivers to its consumer.
public enum BarometerEvent: Sendable {
    /// New readings, in timestamp order, each timestamp later than every one delivered before.
    case readings([PressureReading])
    /// The device failed; it may recover by itself (the next `.readings` says so) or need a restart
    /// (`.unavailable`).
    case fault(IMUDeviceError)
}
