import MotionContract
import MotionVibration

/// What the vibration service measures, beyond the settings every service has (its `interval` is the
/// summaries'): the `services.vibration` keys of the configuration file and of remote documents.
///
/// ```json
/// "vibration": {"enabled": true, "interval": 10, "band": [10, 1000], "lines": 800, "averages": 8,
///               "peaks": 10, "machine_class": 2, "hysteresis": 0.1, "rpm": 1480, "spectrum_interval": 60}
/// ```
public struct VibrationServiceSettings: Sendable, Equatable {
    /// The measuring band, Hz (default ISO 20816-1's 10–1000 Hz; its top is clipped to rate ÷ 2.56).
    public var band: ClosedRange<Double> = 10...1000
    /// The spectrum's lines: 100, 200, 400, 800 (default), 1600 or 3200.
    public var lines = 800
    /// Segments averaged into a published spectrum, 1…64 (default 8).
    public var averages = 8
    /// Peaks reported, 0…50 (default 10).
    public var peaks = 10
    /// ISO 10816-1's machine class, 1…4 (default 2), whose boundaries judge the zone; nil when ``limits``
    /// are explicit.
    public var machineClass: Int? = 2
    /// The zone boundaries, mm/s RMS (the class's, or explicit `limits: [ab, bc, cd]`).
    public var limits = VibrationSeverity.Limits.machineClass(2)!
    /// The zones' hysteresis, a fraction of a boundary, 0…0.5 (default 0.1).
    public var hysteresis = 0.1
    /// The running speed, rpm, when known (60…60000); nil: estimated from the spectrum.
    public var rpm: Double?
    /// How often a spectrum is published, s (default 60; 0: only on request).
    public var spectrumInterval = 60.0

    /// The defaults.
    public init() {}

    /// The keys of `services.vibration` beyond the common ones.
    static let keys: Set<String> = ["band", "lines", "averages", "peaks", "machine_class", "limits", "hysteresis", "rpm", "spectrum_interval"]

    /// The band the service measures at `rate` Hz: ``band`` with its top clipped to rate ÷ 2.56 and to
    /// ``filterPassFraction`` of the accelerometer filter's −3 dB bandwidth; nil when the rate leaves no room
    /// (below 10.24 × the low edge, two octaves under the spectrum's top) or the band holds fewer than three
    /// of the spectrum's lines above the lowest two.
    /// - Parameters:
    ///   - rate: the device's rate, Hz.
    ///   - filterBandwidth: the chip's accelerometer bandwidth, Hz (`nil`: unknown, not clipped).
    func measurableBand(atRate rate: Double, filterBandwidth: Double? = nil) -> ClosedRange<Double>? {
        guard rate.isFinite, rate >= Self.rateFactor * band.lowerBound else { return nil }
        let top = min(band.upperBound, rate / 2.56, (filterBandwidth ?? .infinity) * Self.filterPassFraction)
        let resolution = rate / Double(analyzerSettings.segmentLength)
        guard top - max(band.lowerBound, 3 * resolution) >= 2 * resolution else { return nil }
        return band.lowerBound...top
    }

    /// How far up to its −3 dB frequency a chip's low-pass filter is trusted: a second-order roll-off still
    /// passes 90 % of the amplitude at 0.7 of it (1/√(1 + 0.7⁴)), where at the −3 dB point itself a reading
    /// is 29 % low. The chips' filters are of second order or steeper, which pass more.
    static let filterPassFraction = 0.7

    /// The rate a band needs, in multiples of its low edge: the spectrum's top (rate ÷ 2.56) two octaves
    /// above it.
    static let rateFactor = 4 * 2.56

    /// The analyser's settings.
    var analyzerSettings: VibrationAnalyzer.Settings {
        VibrationAnalyzer.Settings(
            band: band, lines: lines, averages: averages, peakCount: peaks, limits: limits, hysteresis: hysteresis, runningSpeed: rpm.map { $0 / 60 })
    }

    /// The settings `entry` gives on top of `base` (only what it names changes; `machine_class` and
    /// `limits` replace each other, and giving both is refused).
    /// - Throws: ``ConfigurationError`` naming the field.
    static func parse(from entry: ConfigurationReader, base: VibrationServiceSettings) throws(ConfigurationError) -> VibrationServiceSettings {
        var settings = base
        if let edges = try entry.numbers("band") {
            guard edges.count == 2, edges.allSatisfy(\.isFinite), edges[0] > 0, edges[0] < edges[1], edges[1] <= 20_000 else {
                throw ConfigurationError(fieldPath: entry.fieldPath("band"), reason: "must be [low, high] in Hz with 0 < low < high ≤ 20000")
            }
            settings.band = edges[0]...edges[1]
        }
        if let lines = try entry.integer("lines") {
            guard VibrationAnalyzer.Settings.allowedLines.contains(lines) else {
                throw ConfigurationError(
                    fieldPath: entry.fieldPath("lines"),
                    reason: "must be one of \(VibrationAnalyzer.Settings.allowedLines.map(String.init).joined(separator: ", "))")
            }
            settings.lines = lines
        }
        settings.averages = try integer(entry, "averages", in: 1...64) ?? settings.averages
        settings.peaks = try integer(entry, "peaks", in: 0...50) ?? settings.peaks
        let machineClass = try integer(entry, "machine_class", in: 1...4)
        let limits = try entry.numbers("limits")
        if machineClass != nil && limits != nil {
            throw ConfigurationError(fieldPath: entry.fieldPath("limits"), reason: "give machine_class or limits, not both")
        }
        if let machineClass {
            settings.machineClass = machineClass
            settings.limits = VibrationSeverity.Limits.machineClass(machineClass)!
        }
        if let limits {
            guard limits.count == 3, limits.allSatisfy(\.isFinite), limits[0] > 0, limits[0] < limits[1], limits[1] < limits[2] else {
                throw ConfigurationError(fieldPath: entry.fieldPath("limits"), reason: "must be [A/B, B/C, C/D] in mm/s, increasing and above 0")
            }
            settings.machineClass = nil
            settings.limits = VibrationSeverity.Limits(ab: limits[0], bc: limits[1], cd: limits[2])
        }
        if let hysteresis = try entry.number("hysteresis") {
            guard (0...0.5).contains(hysteresis) else {
                throw ConfigurationError(fieldPath: entry.fieldPath("hysteresis"), reason: "must be 0…0.5 (a fraction of a boundary)")
            }
            settings.hysteresis = hysteresis
        }
        if let member = entry.members["rpm"] {
            if case .null = member {
                settings.rpm = nil
            } else {
                guard let rpm = try entry.number("rpm"), (60...60_000).contains(rpm) else {
                    throw ConfigurationError(fieldPath: entry.fieldPath("rpm"), reason: "must be 60…60000 revolutions per minute, or null")
                }
                settings.rpm = rpm
            }
        }
        if let interval = try entry.number("spectrum_interval") {
            guard interval == 0 || (1...86_400).contains(interval) else {
                throw ConfigurationError(fieldPath: entry.fieldPath("spectrum_interval"), reason: "must be 0 (on request only) or 1…86400 seconds")
            }
            settings.spectrumInterval = interval
        }
        return settings
    }

    private static func integer(_ entry: ConfigurationReader, _ key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let value = try entry.integer(key) else { return nil }
        guard range.contains(value) else {
            throw ConfigurationError(fieldPath: entry.fieldPath(key), reason: "must be \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// The settings in the configuration file's form, every key written out (`machine_class` or `limits`,
    /// `rpm` only when set).
    var runtimeEntries: [String: JSONValue] {
        var entries: [String: JSONValue] = [
            "band": .array([.real(band.lowerBound), .real(band.upperBound)]), "lines": .integer(Int64(lines)),
            "averages": .integer(Int64(averages)), "peaks": .integer(Int64(peaks)), "hysteresis": .real(hysteresis),
            "spectrum_interval": .real(spectrumInterval),
        ]
        if let machineClass {
            entries["machine_class"] = .integer(Int64(machineClass))
        } else {
            entries["limits"] = .array([.real(limits.ab), .real(limits.bc), .real(limits.cd)])
        }
        entries["rpm"] = rpm.map(JSONValue.real)
        return entries
    }
}
