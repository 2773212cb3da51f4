import MotionContract

// The `detectors` object of the configuration file and of remote documents: reading, checking and writing
// it out.
extension DetectorSettings {
    /// The keys of the `detectors` object besides the detectors' names.
    static let fields: Set<String> = ["enabled", "qos", "format"]

    /// These settings with what `entry` (the `detectors` object) names set on top.
    /// - Throws: ``ConfigurationError`` naming the field (`detectors.tilt.threshold`) for an unknown key or
    ///   a value of the wrong type (ranges are checked by ``validate()``).
    func updated(from entry: ConfigurationReader) throws(ConfigurationError) -> DetectorSettings {
        try entry.rejectUnknownKeys(Self.fields.union(Detector.allCases.map(\.rawValue)))
        var settings = self
        settings.enabled = try entry.bool("enabled") ?? enabled
        settings.qos = try entry.integer("qos") ?? qos
        if let format = try entry.string("format") {
            guard let known = PayloadFormat(rawValue: format), !known.isSenML else {
                throw ConfigurationError(
                    fieldPath: entry.fieldPath("format"),
                    reason: "must be \"json\" or \"cbor\"" + (PayloadFormat(rawValue: format)?.isSenML == true ? " (events have no SenML form)" : ""))
            }
            settings.format = known
        }
        for detector in Detector.allCases {
            guard let object = try entry.object(detector.rawValue) else { continue }
            let parameters = MotionDetectorSettings.parameters(of: detector)
            var known = Set(parameters.map(\.key) + ["enabled"])
            if detector == .vibration { known.insert("bands") }
            if detector == .tilt { known.insert("reference") }
            try object.rejectUnknownKeys(known)
            if let on = try object.bool("enabled") {
                if on { settings.bank.switchedOff.remove(detector) } else { settings.bank.switchedOff.insert(detector) }
            }
            for parameter in parameters {
                if let value = try object.number(parameter.key) { settings.bank[keyPath: parameter.field] = value }
            }
            if detector == .vibration, let bands = object.members["bands"], bands != .null {
                settings.bank.vibration.bands = try Self.bands(bands, fieldPath: object.fieldPath("bands"))
            }
            if detector == .tilt, let reference = object.members["reference"], reference != .null {
                settings.bank.tilt.reference = try Self.reference(reference, fieldPath: object.fieldPath("reference"))
            }
        }
        return settings
    }

    /// Reads `[[low, high], …]` (Hz).
    private static func bands(_ value: JSONValue, fieldPath: String) throws(ConfigurationError) -> [ClosedRange<Double>] {
        let shape = "must be a list of [low, high] pairs in Hz, for example [[20, 100]]"
        guard case .array(let entries) = value, !entries.isEmpty else { throw ConfigurationError(fieldPath: fieldPath, reason: shape) }
        var bands: [ClosedRange<Double>] = []
        for (index, entry) in entries.enumerated() {
            guard case .array(let edges) = entry, edges.count == 2, let low = edges[0].number, let high = edges[1].number,
                low.isFinite, high.isFinite
            else {
                throw ConfigurationError(fieldPath: "\(fieldPath)[\(index)]", reason: shape)
            }
            guard low > 0, low < high, high <= 1_000 else {
                throw ConfigurationError(fieldPath: "\(fieldPath)[\(index)]", reason: "needs 0 < low < high ≤ 1000 Hz")
            }
            bands.append(low...high)
        }
        return bands
    }

    /// Reads `"start"` (nil) or `[x, y, z]`, a gravity direction in the device's axes (any length from
    /// 0.1 g, made a unit vector).
    private static func reference(_ value: JSONValue, fieldPath: String) throws(ConfigurationError) -> SIMD3<Double>? {
        if case .string("start") = value { return nil }
        let shape = "must be \"start\" or a gravity direction [x, y, z] in the device's axes, for example [0, 0, -1] (face up)"
        guard case .array(let components) = value, components.count == 3,
            let x = components[0].number, let y = components[1].number, let z = components[2].number
        else { throw ConfigurationError(fieldPath: fieldPath, reason: shape) }
        let vector = SIMD3(x, y, z)
        let length = (vector * vector).sum().squareRoot()
        guard length.isFinite, length >= 0.1 else {
            throw ConfigurationError(fieldPath: fieldPath, reason: "must have a length of at least 0.1 (a direction)")
        }
        return vector / length
    }

    /// Checks every value against its range.
    /// - Throws: ``ConfigurationError`` naming the field (`detectors.tilt.threshold: must be 1…179 °`).
    func validate() throws(ConfigurationError) {
        if !(0...2).contains(qos) { throw ConfigurationError(fieldPath: "detectors.qos", reason: "must be 0, 1 or 2") }
        for detector in Detector.allCases {
            for parameter in MotionDetectorSettings.parameters(of: detector) {
                let value = bank[keyPath: parameter.field]
                let unit = parameter.unit.isEmpty ? "" : " \(parameter.unit)"
                if !parameter.range.contains(value) {
                    throw ConfigurationError(
                        fieldPath: "detectors.\(detector.rawValue).\(parameter.key)",
                        reason: "must be \(Self.number(parameter.range.lowerBound))…\(Self.number(parameter.range.upperBound))\(unit)")
                }
                if parameter.isWhole, value.rounded() != value {
                    throw ConfigurationError(fieldPath: "detectors.\(detector.rawValue).\(parameter.key)", reason: "must be a whole number")
                }
            }
        }
        if bank.tilt.hysteresis >= bank.tilt.threshold {
            throw ConfigurationError(fieldPath: "detectors.tilt.hysteresis", reason: "must be smaller than detectors.tilt.threshold")
        }
        if bank.vibration.bands.count > VibrationSettings.maximumBands {
            throw ConfigurationError(fieldPath: "detectors.vibration.bands", reason: "at most \(VibrationSettings.maximumBands) bands")
        }
    }

    /// The settings written out, in the configuration file's form (every value, for `{base}/config`).
    var runtimeSettings: JSONValue {
        var entries: [String: JSONValue] = [
            "enabled": .bool(enabled), "qos": .integer(Int64(qos)), "format": .string(format.rawValue),
        ]
        for detector in Detector.allCases {
            var entry: [String: JSONValue] = ["enabled": .bool(bank.isOn(detector))]
            for parameter in MotionDetectorSettings.parameters(of: detector) {
                let value = bank[keyPath: parameter.field]
                entry[parameter.key] = parameter.isWhole ? .integer(Int64(value)) : .real(value)
            }
            if detector == .vibration {
                entry["bands"] = .array(bank.vibration.bands.map { .array([.real($0.lowerBound), .real($0.upperBound)]) })
            }
            if detector == .tilt {
                entry["reference"] = bank.tilt.reference.map { .array([.real($0.x), .real($0.y), .real($0.z)]) } ?? .string("start")
            }
            entries[detector.rawValue] = .object(entry)
        }
        return .object(entries)
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
