import Foundation
import MotionMath

/// A log-log SVG plot of Allan deviation curves: one panel per sensor, one line per axis (x red, y green,
/// z blue), decade grid lines, and a dashed −½-slope line through each panel's x curve at its white-noise
/// density. Pure value: ``svg`` is the whole file.
struct AllanDeviationPlot {
    /// One sensor's panel.
    struct Panel {
        /// Its heading (sensor and unit).
        let title: String
        /// The x, y and z curves.
        let curves: [AllanDeviation]
    }

    let title: String
    let panels: [Panel]

    private static let colours = ["#d62728", "#2ca02c", "#1f77b4"]
    private static let (panelWidth, panelHeight, margin) = (520.0, 300.0, 60.0)

    var svg: String {
        let width = Self.panelWidth + 2 * Self.margin
        let height = Double(panels.count) * (Self.panelHeight + Self.margin) + Self.margin
        var lines = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" font-family="sans-serif" font-size="12">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
            ##"<text x="\##(Self.margin)" y="20" font-size="12">\##(escaped(title))</text>"##,
        ]
        for (index, panel) in panels.enumerated() {
            lines += draw(panel, top: Self.margin + Double(index) * (Self.panelHeight + Self.margin))
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func draw(_ panel: Panel, top: Double) -> [String] {
        let points = panel.curves.flatMap(\.points).filter { $0.deviation > 0 }
        guard let tauRange = range(points.map(\.tau)), let deviationRange = range(points.map(\.deviation)) else { return [] }
        let left = Self.margin
        func x(_ tau: Double) -> Double { left + (log10(tau) - tauRange.lowerBound) / (tauRange.upperBound - tauRange.lowerBound) * Self.panelWidth }
        func y(_ deviation: Double) -> Double {
            top + Self.panelHeight
                - (log10(deviation) - deviationRange.lowerBound) / (deviationRange.upperBound - deviationRange.lowerBound) * Self.panelHeight
        }
        var lines = [
            ##"<text x="\##(left)" y="\##(top - 8)">\##(escaped(panel.title)) (Allan deviation against cluster time τ, s; x red, y green, z blue)</text>"##,
            ##"<rect x="\##(left)" y="\##(top)" width="\##(Self.panelWidth)" height="\##(Self.panelHeight)" fill="none" stroke="#888"/>"##,
        ]
        for decade in Int(tauRange.lowerBound.rounded(.up))...Int(tauRange.upperBound.rounded(.down)) {
            let position = x(pow(10, Double(decade)))
            lines.append(##"<line x1="\##(format(position))" y1="\##(top)" x2="\##(format(position))" y2="\##(top + Self.panelHeight)" stroke="#ddd"/>"##)
            lines.append(##"<text x="\##(format(position - 10))" y="\##(top + Self.panelHeight + 16)">1e\##(decade)</text>"##)
        }
        for decade in Int(deviationRange.lowerBound.rounded(.up))...Int(deviationRange.upperBound.rounded(.down)) {
            let position = y(pow(10, Double(decade)))
            lines.append(##"<line x1="\##(left)" y1="\##(format(position))" x2="\##(left + Self.panelWidth)" y2="\##(format(position))" stroke="#ddd"/>"##)
            lines.append(##"<text x="\##(left - 45)" y="\##(format(position + 4))">1e\##(decade)</text>"##)
        }
        for (axis, curve) in panel.curves.enumerated() {
            let path = curve.points.filter { $0.deviation > 0 }.map { "\(format(x($0.tau))),\(format(y($0.deviation)))" }
            lines.append(##"<polyline fill="none" stroke="\##(Self.colours[axis % 3])" stroke-width="1.5" points="\##(path.joined(separator: " "))"/>"##)
        }
        if let density = panel.curves.first?.randomWalkCoefficient, density > 0 {
            // σ(τ) = N / √τ across the panel, clipped to it: from the shortest τ (or where the line enters
            // from above) to the longest (or where it leaves below).
            let highest = pow(10, deviationRange.upperBound), lowest = pow(10, deviationRange.lowerBound)
            let start = max(pow(10, tauRange.lowerBound), (density / highest) * (density / highest))
            let end = min(pow(10, tauRange.upperBound), (density / lowest) * (density / lowest))
            if start < end {
                lines.append(##"<line x1="\##(format(x(start)))" y1="\##(format(y(density / start.squareRoot())))" x2="\##(format(x(end)))" y2="\##(format(y(density / end.squareRoot())))" stroke="#555" stroke-dasharray="4 3"/>"##)
            }
            lines.append(##"<text x="\##(left + 8)" y="\##(top + 16)">x: white noise \##(String(format: "%.3g", density)) /√Hz</text>"##)
        }
        return lines
    }

    /// The decades spanned by `values` (log10, widened to whole decades).
    private func range(_ values: [Double]) -> ClosedRange<Double>? {
        guard let low = values.min(), let high = values.max(), low > 0 else { return nil }
        let lower = log10(low).rounded(.down), upper = max(log10(high).rounded(.up), lower + 1)
        return lower...upper
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
