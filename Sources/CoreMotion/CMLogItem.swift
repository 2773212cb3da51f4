/// The base class of every Core Motion sample: a time-stamped, immutable record.
///
/// Like Apple's, the class is not `Sendable` (so that app subclasses, e.g. mocks, compile unchanged in
/// Swift 6); internally its values are constants set at creation, so the framework may hand an instance
/// from the device's thread to the handler's queue.
open class CMLogItem: NSObject, NSCopying, NSSecureCoding {
    private let storedTimestamp: TimeInterval

    /// The time when the logged item is valid, in seconds since the device booted (`CLOCK_MONOTONIC`, the
    /// time base of the IMU sample it was made from).
    open var timestamp: TimeInterval { storedTimestamp }

    /// Creates an item with timestamp 0 s.
    public override init() {
        storedTimestamp = 0
        super.init()
    }

    /// Creates an item valid at `timestamp` seconds since boot.
    init(timestamp: TimeInterval) {
        storedTimestamp = timestamp
        super.init()
    }

    /// Returns the receiver itself: a log item is immutable, so a copy is indistinguishable from it.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// True: the item and its subclasses decode only the values they expect.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the item (`timestamp`; subclasses add their values).
    open func encode(with coder: NSCoder) {
        coder.encode(storedTimestamp, forKey: "timestamp")
    }

    /// Reads an archived item; nil when the archive has no `timestamp`.
    public required init?(coder: NSCoder) {
        guard let timestamp = coder.decodeRequiredDouble(forKey: "timestamp") else { return nil }
        storedTimestamp = timestamp
        super.init()
    }
}
