/// The retained `{base}/{service}/status` message: whether the service can run, whether it runs, and how fast.
public struct ServiceStatus: Sendable, Equatable {
    /// Whether the device can provide this service.
    public var available: Bool
    /// Whether the service is publishing.
    public var active: Bool
    /// The interval between messages in effect, s (the configured one, capped by the device's rate).
    public var interval: Double
    /// Device motion only: the reference frame in use, as Apple's case name.
    public var referenceFrame: String?
    /// Why the service is unavailable, when it is.
    public var error: String?

    /// Creates a status.
    /// - Parameters:
    ///   - available: the device can provide the service.
    ///   - active: the service is publishing.
    ///   - interval: seconds between messages.
    ///   - referenceFrame: device motion's frame, or `nil`.
    ///   - error: why the service is unavailable, or `nil`.
    public init(available: Bool, active: Bool, interval: Double, referenceFrame: String? = nil, error: String? = nil) {
        self.available = available
        self.active = active
        self.interval = interval
        self.referenceFrame = referenceFrame
        self.error = error
    }

    /// Messages per second, Hz.
    public var rateHz: Double { interval > 0 ? 1 / interval : 0 }

    /// ``rateHz`` as the payload states it: to the millihertz.
    public var publishedRateHz: Double { (rateHz * 1_000).rounded() / 1_000 }

    /// The JSON payload: `{"available":…,"active":…,"interval":…,"rate_hz":…[,"frame":…][,"error":…]}`.
    public func json() -> String {
        var writer = JSONWriter()
        writer.field("available", available)
        writer.field("active", active)
        writer.field("interval", interval)
        writer.field("rate_hz", publishedRateHz)
        if let referenceFrame { writer.field("frame", referenceFrame) }
        if let error { writer.field("error", ContractText.sanitized(error, limit: ContractText.maximumReasonLength)) }
        return writer.finished()
    }

    /// Decodes the payload of `{base}/{service}/status`.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8]) throws(PayloadError) {
        let fields = try JSONObjectReader<PayloadError>(bytes: payload)
        self.init(
            available: try fields.required("available", fields.bool), active: try fields.required("active", fields.bool),
            interval: try fields.required("interval", fields.number), referenceFrame: try fields.string("frame"),
            error: try fields.string("error"))
    }
}
