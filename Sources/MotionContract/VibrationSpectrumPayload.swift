/// One message of `{base}/vibration/spectrum` (contract 1.8): the machine's averaged acceleration spectrum
/// (Welch: Hann window, 50 % overlap), per axis, with its largest peaks. Published at its own, slower
/// interval and on request (the `spectrum` command). JSON or CBOR; the lines are half-precision numbers
/// (``PayloadWriter/coarseMeasurements(_:_:)``: 3 bytes each in CBOR):
///
/// ```json
/// {"seq":2,"timestamp":3521.125,"ts":1795986011.402,"rate":1600.0,"resolution":0.3906,"lines":1600,
///  "averages":8,"unit":"mg","band":{"low":10.0,"high":625.0},"x":[0.0,0.01,…],"y":[…],"z":[…],
///  "runningSpeed":{"frequency":24.67,"rpm":1480.2,"source":"estimated"},
///  "peaks":[{"frequency":24.67,"amplitude":0.0768,"velocity":4.18,"order":1.0,"axis":"x"}]}
/// ```
///
/// `x`, `y`, `z` hold ``lines`` values each: the acceleration RMS of each line in mg (the root of the
/// density times the resolution; milli-g keeps a line's level within half precision's normal range), line
/// k at k × `resolution` Hz, from 0 Hz up to 0.39 × `rate`. A peak's `amplitude` is in g, as in
/// `{base}/vibration`.
public struct VibrationSpectrumPayload: FormattedPayload, Sendable, Equatable {
    /// The unit of the lines.
    public static let unit = "mg"

    /// Counts the topic's messages from 1 for the life of the agent.
    public var seq: UInt64
    /// The end of the last segment averaged, seconds since boot.
    public var timestamp: Double
    /// The same instant, Unix time, s.
    public var ts: Double
    /// The accelerometer's sample rate, Hz.
    public var rate: Double
    /// The spacing of the lines, Hz.
    public var resolution: Double
    /// Segments averaged.
    public var averages: Int
    /// The measuring band of `{base}/vibration`, Hz.
    public var band: ClosedRange<Double>
    /// Each axis's lines, mg RMS, line k at k × ``resolution`` Hz (the same count on every axis).
    public var axes: (x: [Double], y: [Double], z: [Double])
    /// The running speed; nil when neither configured nor found.
    public var runningSpeed: VibrationPayload.RunningSpeed?
    /// The largest peaks, largest first.
    public var peaks: [VibrationPayload.Peak]

    /// The number of lines.
    public var lines: Int { axes.x.count }

    /// Creates a message; see the properties for units.
    public init(
        seq: UInt64, timestamp: Double, ts: Double, rate: Double, resolution: Double, averages: Int, band: ClosedRange<Double>,
        axes: (x: [Double], y: [Double], z: [Double]), runningSpeed: VibrationPayload.RunningSpeed?, peaks: [VibrationPayload.Peak]
    ) {
        precondition(axes.x.count == axes.y.count && axes.y.count == axes.z.count, "the same lines on every axis")
        self.seq = seq
        self.timestamp = timestamp
        self.ts = ts
        self.rate = rate
        self.resolution = resolution
        self.averages = averages
        self.band = band
        self.axes = axes
        self.runningSpeed = runningSpeed
        self.peaks = peaks
    }

    /// Whether two messages are the same (the axes compared line by line).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.seq == rhs.seq && lhs.timestamp == rhs.timestamp && lhs.ts == rhs.ts && lhs.rate == rhs.rate
            && lhs.resolution == rhs.resolution && lhs.averages == rhs.averages && lhs.band == rhs.band && lhs.axes.x == rhs.axes.x
            && lhs.axes.y == rhs.axes.y && lhs.axes.z == rhs.axes.z && lhs.runningSpeed == rhs.runningSpeed && lhs.peaks == rhs.peaks
    }

    /// Writes the payload's fields (``FormattedPayload``).
    public func write<Writer: PayloadWriter>(to writer: inout Writer) {
        writer.field("seq", seq)
        writer.field("timestamp", timestamp)
        writer.field("ts", ts)
        writer.measurement("rate", rate)
        writer.field("resolution", resolution)
        writer.field("lines", UInt64(lines))
        writer.field("averages", UInt64(averages))
        writer.field("unit", Self.unit)
        writer.band(band)
        writer.coarseMeasurements("x", axes.x)
        writer.coarseMeasurements("y", axes.y)
        writer.coarseMeasurements("z", axes.z)
        writer.runningSpeed(runningSpeed)
        writer.peaks(peaks)
    }

    /// Decodes a `{base}/vibration/spectrum` payload, JSON or CBOR (told apart by the first byte).
    /// - Throws: ``PayloadError`` naming the missing or wrong field (axes of different lengths, or not
    ///   `lines` long, are refused).
    public init(payload: [UInt8]) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(payload: payload)
        seq = try root.required("seq", root.count)
        timestamp = try root.required("timestamp", root.number)
        ts = try root.required("ts", root.number)
        rate = try root.required("rate", root.measurement)
        resolution = try root.required("resolution", root.number)
        averages = try root.required("averages", root.integer)
        let lines = try root.required("lines", root.integer)
        let unit = try root.required("unit", root.string)
        guard unit == Self.unit else { throw PayloadError(fieldPath: "unit", reason: "must be \(Self.unit)") }
        band = try root.band()
        var axes: [[Double]] = []
        for name in ["x", "y", "z"] {
            let values = try root.required(name, root.numbers)
            guard values.count == lines else { throw PayloadError(fieldPath: name, reason: "must have \(lines) lines") }
            axes.append(values)
        }
        self.axes = (axes[0], axes[1], axes[2])
        runningSpeed = try root.runningSpeed()
        peaks = try root.peaks()
    }
}
