/// The names of the metrics MotionBridge's Sparkplug B edge node publishes besides the samples' (which are
/// the SenML record names with `/` for `:`, see ``SamplePayloadEncoder/sparkplugMetrics(_:service:)``).
/// `/` separates folders, as Sparkplug hosts show them.
public enum SparkplugMetricName {
    /// The birth/death sequence number (Int64, 0…255) of NBIRTH and NDEATH (Sparkplug 3.0, section 6.4.18).
    public static let birthDeathSequence = "bdSeq"
    /// Writable (Boolean): a host writes true in an NCMD to have the node and every device born again.
    public static let rebirth = "Node Control/Rebirth"
    /// The agent's version (String).
    public static let version = "Properties/Version"
    /// The contract's device ID of the board (String): its native topics' `{device_id}`.
    public static let deviceID = "Properties/Device ID"
    /// The IMU in use (String), as `info` names it.
    public static let imu = "Properties/IMU"
    /// Whether the kernel calls the wall clock synchronized (Boolean): metric timestamps are to be trusted.
    public static let clockSynchronized = "Clock/Synchronized"
    /// The kernel's maximum error of the wall clock (Double, ms).
    public static let clockMaximumError = "Clock/Maximum Error"
    /// Commands refused since the start (UInt64): unknown metrics, wrong datatypes, values out of range,
    /// services that cannot start.
    public static let refusedCommands = "Node Info/Refused Commands"
    /// Samples not forwarded since the start (UInt64): the store was full while the primary host was
    /// offline.
    public static let droppedHistory = "Node Info/Dropped Stored Metrics"

    /// Writable (Boolean): whether the device's service runs; a host writes it in a DCMD to start or stop it.
    public static let running = "Control/Running"
    /// Writable (Double, s): the interval between the service's messages.
    public static let interval = "Control/Interval"
    /// Whether the service can deliver data (Boolean).
    public static let available = "Status/Available"
    /// Why it cannot (String; empty while it can).
    public static let unavailableReason = "Status/Reason"
}
