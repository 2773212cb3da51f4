import MotionModel

/// The states the board's motion detectors keep, one retained topic each: `{base}/state/{name}`
/// (contract 1.4); the model's ``MotionStateKind``.
public typealias MotionStateName = MotionStateKind

extension MotionStateKind {
    /// The topic segment after `{base}/state/`.
    public var topicName: String { rawValue }
}

/// One retained message of `{base}/state/{name}`: a detector's state, since when it holds, and its values
/// (JSON only: Home Assistant reads these topics). Re-published on every change and every (re)connect;
/// removed (an empty retained message) when its detector is switched off.
///
/// ```json
/// {"timestamp":3521.125,"ts":1795986011.402,"moving":true}
/// {"timestamp":3521.125,"ts":1795986011.402,"orientation":"face_up"}
/// {"timestamp":3521.125,"ts":1795986011.402,"tilted":true,"angle":34.2}
/// {"timestamp":3521.125,"ts":1795986011.402,"running":true,"level":0.42,"bands":[{"low":20,"high":100,"rms":0.42}]}
/// {"timestamp":3521.125,"ts":1795986011.402,"running":true,"level":0.42,"bands":[…],"zone":"C","velocityRMS":5.02}
/// {"timestamp":3521.125,"ts":1795986011.402,"zone":"C","velocityRMS":5.02}
/// {"timestamp":3521.125,"ts":1795986011.402,"activity":"walking","confidence":"high"}
/// ```
///
/// `vibration` has two sources: the vibration detector (`running`, `level`, `bands`) and, since 1.8, the
/// vibration service (`zone` and the `velocityRMS` that put the machine there); each part is present while
/// its source runs.
public struct MotionStatePayload: Sendable, Equatable {
    /// A state's values.
    public enum Value: Sendable, Equatable {
        /// `moving`: true while the device moves.
        case moving(Bool)
        /// `orientation`: the orientation's name.
        case orientation(String)
        /// `tilt`: whether tilted beyond the threshold, and the angle from the reference, degrees.
        case tilt(tilted: Bool, angle: Double)
        /// `vibration`: whether the machine runs and each band's RMS, g, with the band's edges, Hz (nil and
        /// empty while the detector is off), and the vibration service's severity (nil while it is off);
        /// never both absent.
        case vibration(running: Bool?, bands: [Band], severity: Severity?)
        /// `activity`: the activity's name and confidence (`low`, `medium`, `high`).
        case activity(String, confidence: String)

        /// The state this value belongs to.
        public var name: MotionStateName {
            switch self {
            case .moving: .moving
            case .orientation: .orientation
            case .tilt: .tilt
            case .vibration: .vibration
            case .activity: .activity
            }
        }
    }

    /// The vibration service's part of the `vibration` state: ISO 20816's zone and the velocity RMS that
    /// put the machine there.
    public struct Severity: Sendable, Equatable {
        /// `A`, `B`, `C` or `D`.
        public var zone: String
        /// The velocity RMS of the interval that set the zone, mm/s.
        public var velocityRMS: Double

        /// Creates the part.
        public init(zone: String, velocityRMS: Double) {
            self.zone = zone
            self.velocityRMS = velocityRMS
        }
    }

    /// One frequency band of the vibration level.
    public struct Band: Sendable, Equatable {
        /// The lower edge, Hz.
        public var low: Double
        /// The upper edge, Hz.
        public var high: Double
        /// The RMS of the specific force in the band, g.
        public var rms: Double

        /// Creates a band's level.
        /// - Parameters:
        ///   - low: Hz.
        ///   - high: Hz.
        ///   - rms: g.
        public init(low: Double, high: Double, rms: Double) {
            self.low = low
            self.high = high
            self.rms = rms
        }
    }

    /// The state's values.
    public var value: Value
    /// Since when the state holds, seconds since boot (as `CMLogItem`).
    public var timestamp: Double
    /// Since when the state holds, Unix time, s.
    public var ts: Double

    /// The state's name (its topic).
    public var name: MotionStateName { value.name }

    /// Creates a message.
    /// - Parameters:
    ///   - value: the state's values.
    ///   - timestamp: since when it holds, s since boot.
    ///   - ts: the same, Unix time, s.
    public init(value: Value, timestamp: Double, ts: Double) {
        self.value = value
        self.timestamp = timestamp
        self.ts = ts
    }

    /// The JSON payload.
    public func json() -> String {
        var writer = JSONWriter()
        writer.field("timestamp", timestamp)
        writer.field("ts", ts)
        switch value {
        case .moving(let moving):
            writer.field("moving", moving)
        case .orientation(let orientation):
            writer.field("orientation", orientation)
        case .tilt(let tilted, let angle):
            writer.field("tilted", tilted)
            writer.measurement("angle", angle)
        case .vibration(let running, let bands, let severity):
            if let running {
                writer.field("running", running)
                writer.measurement("level", bands.first?.rms ?? 0)
                writer.array("bands", objects: bands) { band, entry in
                    entry.field("low", band.low)
                    entry.field("high", band.high)
                    entry.measurement("rms", band.rms)
                }
            }
            if let severity {
                writer.field("zone", severity.zone)
                writer.measurement("velocityRMS", severity.velocityRMS)
            }
        case .activity(let activity, let confidence):
            writer.field("activity", activity)
            writer.field("confidence", confidence)
        }
        return writer.finished()
    }

    /// Decodes a `{base}/state/{name}` payload.
    /// - Parameters:
    ///   - payload: the message's bytes (JSON).
    ///   - name: the state the topic names.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public init(payload: [UInt8], name: MotionStateName) throws(PayloadError) {
        let root = try JSONObjectReader<PayloadError>(bytes: payload)
        timestamp = try root.required("timestamp", root.number)
        ts = try root.required("ts", root.number)
        switch name {
        case .moving:
            value = .moving(try root.required("moving", root.bool))
        case .orientation:
            value = .orientation(try root.required("orientation", root.string))
        case .tilt:
            value = .tilt(tilted: try root.required("tilted", root.bool), angle: try root.required("angle", root.measurement))
        case .vibration:
            let running = try root.bool("running")
            var bands: [Band] = []
            if running != nil {
                for entry in try root.required("bands", root.objects) {
                    bands.append(Band(
                        low: try entry.required("low", entry.number), high: try entry.required("high", entry.number),
                        rms: try entry.required("rms", entry.measurement)))
                }
            }
            var severity: Severity?
            if let zone = try root.string("zone") {
                guard VibrationPayload.zones.contains(zone) else { throw PayloadError(fieldPath: "zone", reason: "must be A, B, C or D") }
                severity = Severity(zone: zone, velocityRMS: try root.required("velocityRMS", root.measurement))
            }
            guard running != nil || severity != nil else { throw PayloadError(fieldPath: "running", reason: "is required (or zone)") }
            value = .vibration(running: running, bands: bands, severity: severity)
        case .activity:
            value = .activity(try root.required("activity", root.string), confidence: try root.required("confidence", root.string))
        }
    }
}
