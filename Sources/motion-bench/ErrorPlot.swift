import MotionMath
import Foundation

/// A line chart of error series over time as a self-contained SVG document (no scripts, no external
/// resources), for `motion-bench broad`.
struct ErrorPlot {
    /// One line of the chart.
    struct Series {
        let name: String
        /// CSS colour of the line.
        let color: String
        /// (time s, error degrees), in time order.
        let points: [SIMD2<Double>]
    }

    let title: String
    let series: [Series]

    private let width = 1000.0, height = 420.0
    private let left = 60.0, right = 20.0, top = 40.0, bottom = 50.0

    init(title: String, series: [Series]) {
        self.title = title
        self.series = series
    }

    /// The SVG text.
    var svg: String {
        let all = series.flatMap(\.points)
        let start = all.map(\.x).min() ?? 0, end = max(all.map(\.x).max() ?? 1, start + 1e-9)
        // The y range covers the 99th percentile of the values (a few spikes must not flatten the rest);
        // larger values are drawn at the top edge.
        let sorted = all.map(\.y).filter(\.isFinite).sorted()
        let high = sorted.isEmpty ? 1 : max(sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1.1, 0.5)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ time: Double) -> Double { left + (time - start) / (end - start) * plotWidth }
        func y(_ value: Double) -> Double { top + plotHeight - min(value, high) / high * plotHeight }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="22" font-size="14">\(Self.escaped(title))</text>

            """
        // Axes, grid and labels.
        for step in 0...5 {
            let value = high * Double(step) / 5
            svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(f(y(value)))\" y2=\"\(f(y(value)))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(f(y(value) + 4))\" text-anchor=\"end\">\(String(format: "%.1f°", value))</text>\n"
        }
        for step in 0...10 {
            let time = start + (end - start) * Double(step) / 10
            svg += "<text x=\"\(f(x(time)))\" y=\"\(f(height - bottom + 18))\" text-anchor=\"middle\">\(String(format: "%.0f", time))</text>\n"
        }
        svg += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 12))\" text-anchor=\"middle\">time, s</text>\n"
        svg += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"#888\"/>\n"
        // One polyline per series, at most one point per pixel column (the largest error in it).
        for (index, line) in series.enumerated() {
            var columns: [Int: SIMD2<Double>] = [:]
            for point in line.points where point.y.isFinite {
                let column = Int(x(point.x))
                if let kept = columns[column], kept.y >= point.y { continue }
                columns[column] = point
            }
            let coordinates = columns.keys.sorted().compactMap { columns[$0] }.map { "\(f(x($0.x))),\(f(y($0.y)))" }
            svg += "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"1.2\" points=\"\(coordinates.joined(separator: " "))\"/>\n"
            let legendX = left + 10 + Double(index) * 180
            svg += "<line x1=\"\(f(legendX))\" x2=\"\(f(legendX + 20))\" y1=\"\(top + 12)\" y2=\"\(top + 12)\" stroke=\"\(line.color)\" stroke-width=\"2\"/>"
            svg += "<text x=\"\(f(legendX + 25))\" y=\"\(top + 16)\">\(Self.escaped(line.name))</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    private func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
