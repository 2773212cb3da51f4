/// A sample the contract carries: it has a measurement time.
public protocol TimestampedSample: Sendable {
    /// When the value was measured, seconds since the device's boot (as `CMLogItem.timestamp`), s.
    var timestamp: Double { get }
}

extension VectorSample: TimestampedSample {}
extension DeviceMotionSample: TimestampedSample {}
