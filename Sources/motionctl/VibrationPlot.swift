import Foundation
import MotionCalibration
import MotionContract
import MotionFleet

/// `motionctl vibration --plot FILE.svg`: two panels drawn with ``SVGPlot`` from a ``VibrationView``. The
/// last spectrum: each axis's lines as a line over frequency (Hz) on a logarithmic amplitude axis (mg RMS),
/// the peaks marked and labelled with their order (`1×`, `2×`, `3.57×`; their frequency without a running
/// speed). The trend: the velocity RMS of every summary received over time, over the zones' bands A–D.
enum VibrationPlot {
    /// The zones' shading, A to D: green, yellow, orange, red.
    static let zoneColours = ["#2ca02c", "#bcbd22", "#ff7f0e", "#d62728"]

    /// The SVG document of `view`.
    static func svg(_ view: VibrationView) -> String {
        SVGPlot(title: "vibration of \(DeviceText.id(view.topics.base))", panels: [spectrumPanel(view), trendPanel(view)]).svg
    }

    /// The last spectrum's three axes, with the peaks.
    static func spectrumPanel(_ view: VibrationView) -> SVGPlot.Panel {
        guard let spectrum = view.spectrum, spectrum.lines > 1 else {
            return SVGPlot.Panel(
                title: "spectrum", xTitle: "frequency, Hz", yTitle: "acceleration RMS per line, mg", x: (.linear, 0...1),
                y: (.logarithmic, 0.01...100), emptyNote: "no spectrum received")
        }
        let axes = [spectrum.axes.x, spectrum.axes.y, spectrum.axes.z]
        // Line 0 (DC) and lines below a hundred-thousandth of the largest sit at the axis's floor; the top
        // is at least 0.3 decades above the largest, room for the peaks' labels.
        let highest = max(axes.joined().filter(\.isFinite).max() ?? 1, 1e-6)
        let lowest = max(axes.flatMap { $0.dropFirst() }.filter { $0.isFinite && $0 > 0 }.min() ?? highest / 1e3, highest / 1e5)
        let range = pow(10, log10(lowest).rounded(.down))...pow(10, (log10(highest) + 0.3).rounded(.up))
        let series = zip(["x", "y", "z"], axes).enumerated().map { index, axis in
            SVGPlot.Series(
                name: axis.0, colour: SVGPlot.axisColours[index],
                points: axis.1.enumerated().dropFirst().map { SIMD2(Double($0.offset) * spectrum.resolution, max($0.element, range.lowerBound)) })
        }
        let markers = spectrum.peaks.map { peak in
            // On the highest of the lines within one of the peak's frequency.
            let line = Int(min(max((peak.frequency / spectrum.resolution).rounded(), 0), Double(spectrum.lines - 1)))
            let near = max(line - 1, 0)...min(line + 1, spectrum.lines - 1)
            let level = axes.map { $0[near].max() ?? 0 }.max() ?? peak.amplitude * 1000
            let label = peak.order != nil && spectrum.runningSpeed != nil
                ? VibrationView.order(peak.order) : VibrationView.fixed(peak.frequency, 1) + " Hz"
            return SVGPlot.Marker(point: SIMD2(peak.frequency, max(level, range.lowerBound)), label: label)
        }
        let speed = spectrum.runningSpeed.map { ", running speed \(VibrationView.fixed($0.rpm, 0)) rpm (\($0.source.rawValue))" } ?? ""
        return SVGPlot.Panel(
            title: "spectrum #\(spectrum.seq): \(spectrum.lines) lines × \(VibrationView.fixed(spectrum.resolution, 3)) Hz, "
                + "\(spectrum.averages) averages\(speed)",
            xTitle: "frequency, Hz", yTitle: "acceleration RMS per line, mg",
            x: (.linear, 0...(Double(spectrum.lines) * spectrum.resolution)), y: (.logarithmic, range), series: series, markers: markers)
    }

    /// Every summary's velocity RMS over time, over the last summary's zone bands.
    static func trendPanel(_ view: VibrationView) -> SVGPlot.Panel {
        let start = view.trend.first?.x ?? 0
        let points = view.trend.map { SIMD2($0.x - start, $0.y) }
        let duration = max(points.last?.x ?? 0, 1)
        guard let limits = view.summary?.limits else {
            return SVGPlot.Panel(
                title: "velocity RMS", xTitle: "time since the first summary, s", yTitle: "velocity RMS, mm/s", x: (.linear, 0...duration),
                y: (.linear, 0...10), emptyNote: "no summary received")
        }
        let top = max(points.map(\.y).max() ?? 0, limits.cd) * 1.25
        let edges = [0, limits.ab, limits.bc, limits.cd, top]
        let bands = (0..<4).map { SVGPlot.Band(range: edges[$0]...max(edges[$0 + 1], edges[$0]), colour: zoneColours[$0], label: VibrationPayload.zones[$0]) }
        let machineClass = view.summary?.machineClass.map { ", machine class \($0)" } ?? ""
        return SVGPlot.Panel(
            title: "velocity RMS of \(points.count) summaries; zones A–D (ISO 20816-1\(machineClass))",
            xTitle: "time since the first summary, s", yTitle: "velocity RMS, mm/s", x: (.linear, 0...duration), y: (.linear, 0...top),
            series: [SVGPlot.Series(name: "velocity", colour: "#000", points: points, dots: true)], bands: bands)
    }
}
