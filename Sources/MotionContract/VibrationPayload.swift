/// One message of `{base}/vibration` (contract 1.8): a machine's vibration over the last interval, from the
/// accelerometer at its full rate. JSON or CBOR (``PayloadFormat``), the same map and keys:
///
/// ```json
/// {"seq":7,"timestamp":3521.125,"ts":1795986011.402,"duration":10.0,"rate":1600.0,
///  "band":{"low":10.0,"high":625.0},"velocityRMS":5.02,"velocity":{"x":4.21,"y":1.12,"z":2.5},
///  "accelerationRMS":0.112,"acceleration":{"x":0.07,"y":0.06,"z":0.05},"peakVector":0.31,
///  "peak":{"x":0.2,"y":0.17,"z":0.13},"crestFactorVector":2.8,"crestFactor":{"x":2.8,"y":2.9,"z":2.6},
///  "kurtosis":{"x":1.9,"y":2.1,"z":1.5},"zone":"C","previousZone":"B","machineClass":2,
///  "limits":{"ab":1.12,"bc":2.8,"cd":7.1},"runningSpeed":{"frequency":24.67,"rpm":1480.2,"source":"estimated"},
///  "peaks":[{"frequency":24.67,"amplitude":0.0768,"velocity":4.18,"order":1.0,"axis":"x"}]}
/// ```
///
/// Units: velocities in mm/s RMS over `band` (integrated in the frequency domain), accelerations in g
/// (RMS, peak) of the band-passed signal, frequencies in Hz. `zone` is ISO 20816-1's A–D for `limits`
/// (`machineClass` 1–4 when they are ISO 10816-1's class boundaries; absent for explicit limits);
/// `previousZone` is present only in the message whose interval changed the zone (the first message of a
/// service's run has none: there was no zone before).
/// `runningSpeed` is absent when none is configured and none could be estimated; a peak's `order` is
/// absent then too.
public struct VibrationPayload: FormattedPayload, Sendable, Equatable {
    /// The zone boundaries, mm/s RMS.
    public struct Limits: Sendable, Equatable {
        /// Between A and B, B and C, C and D, mm/s.
        public var ab: Double, bc: Double, cd: Double

        /// Creates boundaries, mm/s.
        public init(ab: Double, bc: Double, cd: Double) {
            (self.ab, self.bc, self.cd) = (ab, bc, cd)
        }
    }

    /// The machine's running speed and where it came from.
    public struct RunningSpeed: Sendable, Equatable {
        /// Where a running speed comes from: the configuration (`rpm`) or the spectrum.
        public enum Source: String, Sendable, CaseIterable {
            case configured, estimated
        }

        /// The 1× frequency, Hz.
        public var frequency: Double
        /// Where it came from.
        public var source: Source

        /// Revolutions per minute (60 × ``frequency``).
        public var rpm: Double { frequency * 60 }

        /// Creates a running speed of `frequency` Hz from `source`.
        public init(frequency: Double, source: Source) {
            self.frequency = frequency
            self.source = source
        }
    }

    /// One of the spectrum's largest peaks.
    public struct Peak: Sendable, Equatable {
        /// Its frequency, Hz.
        public var frequency: Double
        /// Its acceleration RMS (the vector's), g.
        public var amplitude: Double
        /// Its velocity RMS, mm/s.
        public var velocity: Double
        /// Its order of the running speed; nil without one.
        public var order: Double?
        /// The axis with the most of it: `x`, `y` or `z`.
        public var axis: String

        /// Creates a peak.
        /// - Parameters:
        ///   - frequency: Hz.
        ///   - amplitude: g RMS.
        ///   - velocity: mm/s RMS.
        ///   - order: of the running speed, or nil.
        ///   - axis: `x`, `y` or `z`.
        public init(frequency: Double, amplitude: Double, velocity: Double, order: Double?, axis: String) {
            self.frequency = frequency
            self.amplitude = amplitude
            self.velocity = velocity
            self.order = order
            self.axis = axis
        }
    }

    /// The interval's figures in the time domain, per axis and for the vector.
    public struct Levels: Sendable, Equatable {
        /// Acceleration RMS, g.
        public var acceleration: SIMD3<Double>, accelerationRMS: Double
        /// Largest absolute acceleration, g.
        public var peak: SIMD3<Double>, peakVector: Double
        /// Kurtosis (1.5 for a sine, 3 for Gaussian noise).
        public var kurtosis: SIMD3<Double>

        /// Peak ÷ RMS per axis (0 for an axis with no signal).
        public var crestFactor: SIMD3<Double> { SIMD3((0..<3).map { acceleration[$0] > 0 ? peak[$0] / acceleration[$0] : 0 }) }
        /// Peak ÷ RMS of the vector (0 with no signal).
        public var crestFactorVector: Double { accelerationRMS > 0 ? peakVector / accelerationRMS : 0 }

        /// Creates the levels (g).
        public init(acceleration: SIMD3<Double>, accelerationRMS: Double, peak: SIMD3<Double>, peakVector: Double, kurtosis: SIMD3<Double>) {
            self.acceleration = acceleration
            self.accelerationRMS = accelerationRMS
            self.peak = peak
            self.peakVector = peakVector
            self.kurtosis = kurtosis
        }
    }

    /// ISO 20816-1's zone names, A (newly commissioned) to D (damage).
    public static let zones = ["A", "B", "C", "D"]

    /// Counts the topic's messages from 1 for the life of the agent.
    public var seq: UInt64
    /// The end of the interval, seconds since boot (as `CMLogItem`).
    public var timestamp: Double
    /// The end of the interval, Unix time, s.
    public var ts: Double
    /// The interval's length, s.
    public var duration: Double
    /// The accelerometer's sample rate, Hz.
    public var rate: Double
    /// The measuring band, Hz (its top clipped to ``rate`` ÷ 2.56).
    public var band: ClosedRange<Double>
    /// Velocity RMS per axis, mm/s.
    public var velocity: SIMD3<Double>
    /// Velocity RMS of the vector, mm/s: what the zone judges.
    public var velocityRMS: Double
    /// The time-domain levels.
    public var levels: Levels
    /// ISO 20816-1's zone: `A`, `B`, `C` or `D`.
    public var zone: String
    /// The zone before this interval, when this interval changed it; nil otherwise.
    public var previousZone: String?
    /// The zone boundaries.
    public var limits: Limits
    /// ISO 10816-1's machine class (1–4) of ``limits``; nil for explicit limits.
    public var machineClass: Int?
    /// The running speed; nil when neither configured nor found.
    public var runningSpeed: RunningSpeed?
    /// The largest peaks, largest first.
    public var peaks: [Peak]

    /// Creates a message; see the properties for units.
    public init(
        seq: UInt64, timestamp: Double, ts: Double, duration: Double, rate: Double, band: ClosedRange<Double>, velocity: SIMD3<Double>,
        velocityRMS: Double, levels: Levels, zone: String, previousZone: String? = nil, limits: Limits, machineClass: Int?,
        runningSpeed: RunningSpeed?, peaks: [Peak]
    ) {
        self.seq = seq
        self.timestamp = timestamp
        self.ts = ts
        self.duration = duration
        self.rate = rate
        self.band = band
        self.velocity = velocity
        self.velocityRMS = velocityRMS
        self.levels = levels
        self.zone = zone
        self.previousZone = previousZone
        self.limits = limits
        self.machineClass = machineClass
        self.runningSpeed = runningSpeed
        self.peaks = peaks
    }

    /// Writes the payload's fields (``FormattedPayload``).
    public func write<Writer: PayloadWriter>(to writer: inout Writer) {
        writer.field("seq", seq)
        writer.field("timestamp", timestamp)
        writer.field("ts", ts)
        writer.measurement("duration", duration)
        writer.measurement("rate", rate)
        writer.band(band)
        writer.measurement("velocityRMS", velocityRMS)
        writer.vector("velocity", velocity)
        writer.measurement("accelerationRMS", levels.accelerationRMS)
        writer.vector("acceleration", levels.acceleration)
        writer.measurement("peakVector", levels.peakVector)
        writer.vector("peak", levels.peak)
        writer.measurement("crestFactorVector", levels.crestFactorVector)
        writer.vector("crestFactor", levels.crestFactor)
        writer.vector("kurtosis", levels.kurtosis)
        writer.field("zone", zone)
        if let previousZone { writer.field("previousZone", previousZone) }
        if let machineClass { writer.field("machineClass", UInt64(machineClass)) }
        writer.object("limits") { entry in
            entry.measurement("ab", limits.ab)
            entry.measurement("bc", limits.bc)
            entry.measurement("cd", limits.cd)
        }
        writer.runningSpeed(runningSpeed)
        writer.peaks(peaks)
    }

    /// Decodes a `{base}/vibration` payload, JSON or CBOR (told apart by the first byte).
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8]) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(payload: payload)
        seq = try root.required("seq", root.count)
        timestamp = try root.required("timestamp", root.number)
        ts = try root.required("ts", root.number)
        duration = try root.required("duration", root.measurement)
        rate = try root.required("rate", root.measurement)
        band = try root.band()
        velocityRMS = try root.required("velocityRMS", root.measurement)
        velocity = try root.required("velocity", root.vector)
        levels = Levels(
            acceleration: try root.required("acceleration", root.vector), accelerationRMS: try root.required("accelerationRMS", root.measurement),
            peak: try root.required("peak", root.vector), peakVector: try root.required("peakVector", root.measurement),
            kurtosis: try root.required("kurtosis", root.vector))
        zone = try root.required("zone", root.string)
        previousZone = try root.string("previousZone")
        for (key, value) in [("zone", zone), ("previousZone", previousZone)] where value.map(Self.zones.contains) == false {
            throw PayloadError(fieldPath: key, reason: "must be A, B, C or D")
        }
        let limits = try root.required("limits", root.object)
        self.limits = Limits(
            ab: try limits.required("ab", limits.measurement), bc: try limits.required("bc", limits.measurement),
            cd: try limits.required("cd", limits.measurement))
        machineClass = try root.integer("machineClass")
        runningSpeed = try root.runningSpeed()
        peaks = try root.peaks()
    }
}

extension PayloadWriter {
    /// `vector`'s form for a SIMD3 (measurements).
    mutating func vector(_ key: String, _ value: SIMD3<Double>) {
        vector(key, x: value.x, y: value.y, z: value.z)
    }

    /// `band`: `{"low","high"}`, Hz.
    mutating func band(_ band: ClosedRange<Double>) {
        object("band") { entry in
            entry.measurement("low", band.lowerBound)
            entry.measurement("high", band.upperBound)
        }
    }

    /// `runningSpeed`: `{"frequency","rpm","source"}`, when there is one.
    mutating func runningSpeed(_ speed: VibrationPayload.RunningSpeed?) {
        guard let speed else { return }
        object("runningSpeed") { entry in
            entry.measurement("frequency", speed.frequency)
            entry.measurement("rpm", speed.rpm)
            entry.field("source", speed.source.rawValue)
        }
    }

    /// `peaks`: `[{"frequency","amplitude","velocity","order"?,"axis"}]`.
    mutating func peaks(_ peaks: [VibrationPayload.Peak]) {
        array("peaks", objects: peaks) { peak, entry in
            entry.measurement("frequency", peak.frequency)
            entry.measurement("amplitude", peak.amplitude)
            entry.measurement("velocity", peak.velocity)
            if let order = peak.order { entry.measurement("order", order) }
            entry.field("axis", peak.axis)
        }
    }
}

extension JSONObjectReader where Failure == PayloadError {
    /// `band`, required, with low < high.
    func band() throws(PayloadError) -> ClosedRange<Double> {
        let band = try required("band", object)
        let low = try band.required("low", band.measurement), high = try band.required("high", band.measurement)
        guard low >= 0, low < high else { throw PayloadError(fieldPath: fieldPath("band"), reason: "must have 0 ≤ low < high") }
        return low...high
    }

    /// `runningSpeed`, when present.
    func runningSpeed() throws(PayloadError) -> VibrationPayload.RunningSpeed? {
        guard let speed = try object("runningSpeed") else { return nil }
        let frequency = try speed.required("frequency", speed.measurement)
        let sourceName = try speed.required("source", speed.string)
        guard let source = VibrationPayload.RunningSpeed.Source(rawValue: sourceName) else {
            throw PayloadError(fieldPath: speed.fieldPath("source"), reason: "must be configured or estimated")
        }
        return VibrationPayload.RunningSpeed(frequency: frequency, source: source)
    }

    /// `peaks`, required (possibly empty).
    func peaks() throws(PayloadError) -> [VibrationPayload.Peak] {
        var peaks: [VibrationPayload.Peak] = []
        for entry in try required("peaks", objects) {
            let axis = try entry.required("axis", entry.string)
            guard ["x", "y", "z"].contains(axis) else { throw PayloadError(fieldPath: entry.fieldPath("axis"), reason: "must be x, y or z") }
            peaks.append(
                VibrationPayload.Peak(
                    frequency: try entry.required("frequency", entry.measurement), amplitude: try entry.required("amplitude", entry.measurement),
                    velocity: try entry.required("velocity", entry.measurement), order: try entry.measurement("order"), axis: axis))
        }
        return peaks
    }
}
