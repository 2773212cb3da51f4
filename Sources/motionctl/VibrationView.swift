import Foundation
import MotionContract
import MotionFleet

/// What `motionctl vibration DEVICE` shows of one machine, as a pure value: the device's availability, the
/// vibration service's status, the last summary (zone with its limits, velocity and acceleration RMS, crest
/// factor, kurtosis, running speed, peaks), the last spectrum and the velocity RMS of every summary
/// received. ``render(width:height:)`` draws the text view, ``VibrationPlot`` the SVG.
struct VibrationView: Sendable {
    /// The device's topics.
    var topics: TopicLayout
    /// `{base}/status` as the device sent it (`online` / `offline`); nil before it arrives.
    var availability: String?
    /// The service's retained status.
    var status: ServiceStatus?
    /// The zone in the retained `{base}/state/vibration`, shown until a summary arrives.
    var severity: MotionStatePayload.Severity?
    /// The last summary.
    var summary: VibrationPayload?
    /// The last spectrum.
    var spectrum: VibrationSpectrumPayload?
    /// Every summary's (Unix time, s; velocity RMS, mm/s), in arrival order.
    var trend: [SIMD2<Double>] = []
    /// What became of the spectrum request (`spectrum requested`, a refusal with its reason); nil for none.
    var note: String?

    /// Creates an empty view of the device whose topics are `topics`.
    init(topics: TopicLayout) {
        self.topics = topics
    }

    /// The text view in lines of at most `width` characters, about `height` lines (fewer without a
    /// spectrum): the header, the spectrum's chart with the peaks marked, and the peak table. Everything
    /// the device sent is escaped (``DeviceText``): it cannot move the cursor or draw a line of its own.
    func render(width: Int = 80, height: Int = 30) -> String {
        var lines = header()
        let peaks = summary?.peaks ?? spectrum?.peaks ?? []
        let noteLines = note.map { Self.wrapped(DeviceText.text($0), width: width) } ?? []
        let fixed = lines.count + 5 + noteLines.count  // the spectrum's title, axis, marks and labels; the table's head
        let peakRows = min(peaks.count, max(height - fixed - 10, 3))
        if let spectrum {
            lines.append(
                "spectrum #\(spectrum.seq): \(spectrum.lines) lines × \(Self.fixed(spectrum.resolution, 3)) Hz, \(spectrum.averages) averages, "
                    + "vector RMS per line")
            let chart = TextBarChart(unit: VibrationSpectrumPayload.unit, axisUnit: "Hz")
            lines += chart.render(
                Self.magnitude(of: spectrum), spacing: spectrum.resolution, marks: spectrum.peaks.map(\.frequency), marksTitle: "peaks",
                width: width, height: max(height - fixed - peakRows, 4))
        } else {
            lines.append("spectrum: none yet")
        }
        if peaks.isEmpty {
            lines.append("peaks: none")
        } else {
            lines.append(Self.row(["#", "frequency", "amplitude", "velocity", "order", "axis"]))
            for (rank, peak) in peaks.prefix(peakRows).enumerated() {
                lines.append(Self.row([
                    "\(rank + 1)", Self.fixed(peak.frequency, 2) + " Hz", Self.fixed(peak.amplitude * 1000, 1) + " mg",
                    Self.fixed(peak.velocity, 2) + " mm/s", Self.order(peak.order), DeviceText.text(peak.axis, limit: 4),
                ]))
            }
        }
        lines += noteLines
        return lines.map { line in
            var shown = String(DeviceText.escaped(line).prefix(width))
            while shown.last == " " { shown.removeLast() }
            return shown
        }.joined(separator: "\n") + "\n"
    }

    /// The device and service line, the zone, the levels and the running speed.
    private func header() -> [String] {
        let availability = availability.map { DeviceText.text($0, limit: 16) } ?? "?"
        let service: String
        if let status {
            service = !status.available
                ? "unavailable: \(DeviceText.text(status.error ?? "?", limit: 80))"
                : status.active ? "active, a summary every \(Self.compact(status.interval)) s" : "stopped"
        } else {
            service = "no status"
        }
        var lines = ["\(DeviceText.id(topics.base)) [\(availability)]  vibration: \(service)  summaries \(trend.count)"]
        guard let summary else {
            if let severity {
                lines.append("zone \(DeviceText.text(severity.zone, limit: 4))  velocity RMS \(Self.fixed(severity.velocityRMS, 2)) mm/s (retained state)")
            }
            lines.append("waiting for a summary")
            return lines
        }
        let limits = summary.limits
        let zoneChange = summary.previousZone.map { "  (was \(DeviceText.text($0, limit: 4)))" } ?? ""
        lines.append(
            "zone \(DeviceText.text(summary.zone, limit: 4))\(zoneChange)  limits A/B \(Self.compact(limits.ab)), B/C \(Self.compact(limits.bc)), "
                + "C/D \(Self.compact(limits.cd)) mm/s" + (summary.machineClass.map { ", machine class \($0)" } ?? ""))
        let velocity = summary.velocity
        lines.append(
            "velocity RMS \(Self.fixed(summary.velocityRMS, 2)) mm/s (x \(Self.fixed(velocity.x, 2)), y \(Self.fixed(velocity.y, 2)), "
                + "z \(Self.fixed(velocity.z, 2)))  acceleration RMS \(Self.fixed(summary.levels.accelerationRMS, 3)) g")
        let kurtosis = summary.levels.kurtosis.max()
        let speed = summary.runningSpeed.map { "\(Self.fixed($0.rpm, 0)) rpm (\($0.source.rawValue))" } ?? "unknown"
        lines.append("crest factor \(Self.fixed(summary.levels.crestFactorVector, 2))  kurtosis max \(Self.fixed(kurtosis, 2))  running speed \(speed)")
        return lines
    }

    /// The vector magnitude of each line of `spectrum`, mg: the root of the sum of the three axes' squares.
    static func magnitude(of spectrum: VibrationSpectrumPayload) -> [Double] {
        (0..<spectrum.lines).map { index in
            let (x, y, z) = (spectrum.axes.x[index], spectrum.axes.y[index], spectrum.axes.z[index])
            return (x * x + y * y + z * z).squareRoot()
        }
    }

    /// A peak's order of the running speed: `1×`, `2×`, `3.57×` (two decimals at most); `-` without one.
    static func order(_ order: Double?) -> String {
        guard let order, order.isFinite else { return "-" }
        var text = fixed(order, 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }

    /// `value` with `places` decimals.
    static func fixed(_ value: Double, _ places: Int) -> String {
        value.isFinite ? String(format: "%.\(places)f", value) : "-"
    }

    /// `value` in at most 4 significant digits, without trailing zeros: `1.12`, `2.8`, `10`.
    static func compact(_ value: Double) -> String {
        value.isFinite ? String(format: "%.4g", value) : "-"
    }

    /// `text` in lines of at most `width` characters, broken at spaces where it can be.
    private static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while rest.count > width, width > 0 {
            let head = rest.prefix(width + 1)
            let cut = head.lastIndex(of: " ").flatMap { $0 > rest.startIndex ? $0 : nil } ?? rest.index(rest.startIndex, offsetBy: width)
            lines.append(String(rest[..<cut]))
            rest = rest[cut...].drop { $0 == " " }
        }
        return lines + [String(rest)]
    }

    /// A peak table row: the first column right-aligned in 2, the others in 11, 10, 11, 6 and 5 characters.
    private static func row(_ cells: [String]) -> String {
        let widths = [2, 11, 10, 11, 6, 5]
        return zip(cells, widths).map { cell, width in String(repeating: " ", count: max(width - cell.count, 0)) + cell }
            .joined(separator: "  ")
    }
}
