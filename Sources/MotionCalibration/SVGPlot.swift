import Foundation

/// A self-contained SVG document (no scripts, no external resources) of panels stacked top to bottom, each
/// a plot of lines over a linear or logarithmic horizontal and vertical axis, with grid lines and tick
/// labels, shaded horizontal bands and labelled markers. Pure value: ``svg`` is the whole file. The shared
/// plot writer of motionctl's `--plot` files beside ``AllanDeviationPlot`` (whose log-log panels it can
/// draw too); x red, y green, z blue, as there.
public struct SVGPlot: Sendable {
    /// How an axis maps values to positions.
    public enum Scale: Sendable, Equatable {
        /// Proportional; ticks at round steps (1, 2 or 5 × a power of ten).
        case linear
        /// Proportional to the logarithm; ticks at the powers of ten, values at or below 0 drawn at the
        /// range's lower end.
        case logarithmic
    }

    /// One line of a panel.
    public struct Series: Sendable {
        /// Its name, in the panel's legend.
        public var name: String
        /// A CSS colour.
        public var colour: String
        /// (x, y) in the axes' units, in drawing order.
        public var points: [SIMD2<Double>]
        /// Whether each point is also drawn as a dot (for a few points far apart).
        public var dots: Bool

        /// Creates a line.
        public init(name: String, colour: String, points: [SIMD2<Double>], dots: Bool = false) {
            self.name = name
            self.colour = colour
            self.points = points
            self.dots = dots
        }
    }

    /// A horizontal stripe across a panel, shaded, with its label in the margin at the right.
    public struct Band: Sendable {
        /// Its vertical extent, in the y axis's units (clipped to the panel).
        public var range: ClosedRange<Double>
        /// A CSS colour (drawn at 25 % opacity).
        public var colour: String
        /// Its label, e.g. a zone's letter.
        public var label: String

        /// Creates a band.
        public init(range: ClosedRange<Double>, colour: String, label: String) {
            self.range = range
            self.colour = colour
            self.label = label
        }
    }

    /// A marked point with a label above it.
    public struct Marker: Sendable {
        /// Where, in the axes' units.
        public var point: SIMD2<Double>
        /// The label, e.g. `2×`.
        public var label: String
        /// A CSS colour.
        public var colour: String

        /// Creates a marker.
        public init(point: SIMD2<Double>, label: String, colour: String = "#000") {
            self.point = point
            self.label = label
            self.colour = colour
        }
    }

    /// One plot.
    public struct Panel: Sendable {
        /// Its heading.
        public var title: String
        /// The horizontal axis's name with its unit, e.g. `frequency, Hz`.
        public var xTitle: String
        /// The vertical axis's name with its unit.
        public var yTitle: String
        /// The horizontal axis's scale and extent (a logarithmic one above 0).
        public var x: (scale: Scale, range: ClosedRange<Double>)
        /// The vertical axis's scale and extent (a logarithmic one above 0).
        public var y: (scale: Scale, range: ClosedRange<Double>)
        /// The lines.
        public var series: [Series]
        /// The shaded bands, drawn under everything else.
        public var bands: [Band]
        /// The markers, drawn over the lines.
        public var markers: [Marker]
        /// Shown in the middle of a panel that has no line (e.g. `no spectrum received`).
        public var emptyNote: String

        /// Creates a panel.
        public init(
            title: String, xTitle: String, yTitle: String, x: (scale: Scale, range: ClosedRange<Double>),
            y: (scale: Scale, range: ClosedRange<Double>), series: [Series] = [], bands: [Band] = [], markers: [Marker] = [],
            emptyNote: String = "no data"
        ) {
            self.title = title
            self.xTitle = xTitle
            self.yTitle = yTitle
            self.x = x
            self.y = y
            self.series = series
            self.bands = bands
            self.markers = markers
            self.emptyNote = emptyNote
        }
    }

    /// The colours of the x, y and z axes' lines (as ``AllanDeviationPlot``'s).
    public static let axisColours = ["#d62728", "#2ca02c", "#1f77b4"]

    /// The document's heading.
    public var title: String
    /// The panels, top to bottom.
    public var panels: [Panel]

    /// A panel's plot area, the margins left and right of it, and the room above each panel, px.
    private static let (plotWidth, plotHeight, left, right, gap) = (720.0, 300.0, 80.0, 30.0, 100.0)

    /// Creates a document.
    public init(title: String, panels: [Panel]) {
        self.title = title
        self.panels = panels
    }

    /// The SVG text.
    public var svg: String {
        let width = Self.left + Self.plotWidth + Self.right
        let height = Double(panels.count) * (Self.plotHeight + Self.gap) + 50
        var lines = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" "##
                + ##"viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="sans-serif" font-size="12">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
            ##"<text x="\##(Self.left)" y="22" font-size="14">\##(Self.escaped(title))</text>"##,
        ]
        for (index, panel) in panels.enumerated() {
            lines += draw(panel, top: 80 + Double(index) * (Self.plotHeight + Self.gap))
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The elements of `panel` with its plot area's top edge at `top`, px.
    private func draw(_ panel: Panel, top: Double) -> [String] {
        let (left, width, height) = (Self.left, Self.plotWidth, Self.plotHeight)
        let xMap = Mapping(scale: panel.x.scale, range: panel.x.range, from: left, to: left + width)
        let yMap = Mapping(scale: panel.y.scale, range: panel.y.range, from: top + height, to: top)
        var lines = [##"<text x="\##(left)" y="\##(f(top - 28))" font-size="13">\##(Self.escaped(panel.title))</text>"##]
        for band in panel.bands {
            let low = yMap.position(band.range.lowerBound), high = yMap.position(band.range.upperBound)
            guard low - high > 0.5 else { continue }
            lines.append(##"<rect x="\##(f(left))" y="\##(f(high))" width="\##(f(width))" height="\##(f(low - high))" fill="\##(Self.escaped(band.colour))" fill-opacity="0.25"/>"##)
            lines.append(##"<text x="\##(f(left + width + 8))" y="\##(f((low + high) / 2 + 5))" font-size="14" font-weight="bold" fill="#555">\##(Self.escaped(band.label))</text>"##)
        }
        for tick in xMap.ticks {
            let position = xMap.position(tick)
            lines.append(##"<line x1="\##(f(position))" y1="\##(f(top))" x2="\##(f(position))" y2="\##(f(top + height))" stroke="#ddd"/>"##)
            lines.append(##"<text x="\##(f(position))" y="\##(f(top + height + 16))" text-anchor="middle">\##(Self.number(tick))</text>"##)
        }
        for tick in yMap.ticks {
            let position = yMap.position(tick)
            lines.append(##"<line x1="\##(f(left))" y1="\##(f(position))" x2="\##(f(left + width))" y2="\##(f(position))" stroke="#ddd"/>"##)
            lines.append(##"<text x="\##(f(left - 6))" y="\##(f(position + 4))" text-anchor="end">\##(Self.number(tick))</text>"##)
        }
        lines.append(##"<rect x="\##(f(left))" y="\##(f(top))" width="\##(f(width))" height="\##(f(height))" fill="none" stroke="#888"/>"##)
        lines.append(##"<text x="\##(f(left + width / 2))" y="\##(f(top + height + 36))" text-anchor="middle">\##(Self.escaped(panel.xTitle))</text>"##)
        lines.append(
            ##"<text x="\##(f(left - 55))" y="\##(f(top + height / 2))" text-anchor="middle" "##
                + ##"transform="rotate(-90 \##(f(left - 55)) \##(f(top + height / 2)))">\##(Self.escaped(panel.yTitle))</text>"##)
        for (index, series) in panel.series.enumerated() {
            let points = series.points.filter { $0.x.isFinite && $0.y.isFinite }.map { SIMD2(xMap.position($0.x), yMap.position($0.y)) }
            lines.append(##"<polyline fill="none" stroke="\##(Self.escaped(series.colour))" stroke-width="1.2" points="\##(points.map { "\(f($0.x)),\(f($0.y))" }.joined(separator: " "))"/>"##)
            if series.dots {
                lines += points.map { ##"<circle cx="\##(f($0.x))" cy="\##(f($0.y))" r="2.5" fill="\##(Self.escaped(series.colour))"/>"## }
            }
            // The legend: under the title, one name after the other.
            let legend = left + Double(index) * 80
            lines.append(##"<text x="\##(f(legend))" y="\##(f(top - 10))" fill="\##(Self.escaped(series.colour))">\##(Self.escaped(series.name))</text>"##)
        }
        // Markers left to right; a label that would overlap one placed before goes a line higher (3 at most).
        var placed: [SIMD2<Double>] = []
        let markers = panel.markers.filter { $0.point.x.isFinite && $0.point.y.isFinite }.map { (marker: $0, x: xMap.position($0.point.x)) }
        for (marker, x) in markers.sorted(by: { $0.x < $1.x }) {
            let y = yMap.position(marker.point.y)
            var label = SIMD2(x, max(y - 8, top + 10))
            for _ in 0..<3 where placed.contains(where: { abs($0.x - label.x) < 36 && abs($0.y - label.y) < 12 }) {
                label.y -= 13
            }
            placed.append(label)
            lines.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="3.5" fill="none" stroke="\##(Self.escaped(marker.colour))"/>"##)
            lines.append(
                ##"<text x="\##(f(x))" y="\##(f(label.y))" text-anchor="middle" "##
                    + ##"fill="\##(Self.escaped(marker.colour))">\##(Self.escaped(marker.label))</text>"##)
        }
        if panel.series.allSatisfy({ $0.points.isEmpty }) {
            lines.append(##"<text x="\##(f(left + width / 2))" y="\##(f(top + height / 2))" text-anchor="middle" fill="#888">\##(Self.escaped(panel.emptyNote))</text>"##)
        }
        return lines
    }

    /// An axis's values to positions, and its ticks.
    private struct Mapping {
        /// The axis's scale.
        let scale: Scale
        /// The extent, in values (linear) or their logarithms (logarithmic).
        let low: Double, high: Double
        /// The positions of ``low`` and ``high``, px.
        let from: Double, to: Double

        /// Maps `range` on `scale` to the positions `from`…`to`.
        init(scale: Scale, range: ClosedRange<Double>, from: Double, to: Double) {
            self.scale = scale
            (self.from, self.to) = (from, to)
            var (bottom, top) = (range.lowerBound, range.upperBound)
            if scale == .logarithmic {
                (bottom, top) = (log10(max(bottom, .leastNormalMagnitude)), log10(max(top, .leastNormalMagnitude)))
            }
            // An extent that cannot be drawn (infinite, or too narrow to tell apart) becomes 0…1 above its start.
            if !bottom.isFinite || !top.isFinite || !(top - bottom).isFinite { (bottom, top) = (0, 1) }
            (low, high) = (bottom, max(top, bottom + max(abs(bottom) * 1e-9, 1e-12)))
        }

        /// Where `value` is drawn, clamped to the axis.
        func position(_ value: Double) -> Double {
            let transformed = scale == .linear ? value : value > 0 ? log10(value) : low
            let fraction = min(max((transformed - low) / (high - low), 0), 1)
            return from + fraction * (to - from)
        }

        /// The values at which grid lines and labels go.
        var ticks: [Double] {
            switch scale {
            case .logarithmic:
                let first = low.rounded(.up)
                return (0..<40).map { first + Double($0) }.filter { $0 <= high + 1e-9 }.map { pow(10, $0) }
            case .linear:
                let rough = (high - low) / 6
                let magnitude = pow(10, log10(rough).rounded(.down))
                let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
                guard step.isFinite, step > 0 else { return [] }
                let first = (low / step).rounded(.up)
                var ticks: [Double] = []
                for index in 0..<12 {
                    let tick = (first + Double(index)) * step
                    guard tick <= high + step * 1e-9 else { break }
                    ticks.append(abs(tick) < step * 1e-9 ? 0 : tick)
                }
                return ticks
            }
        }
    }

    /// A tick label: `0.01`, `2.5`, `100`, `1e+06`.
    private static func number(_ value: Double) -> String { String(format: "%g", value) }

    /// A coordinate with one decimal.
    private func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Text made safe for XML: the markup characters as entities, and characters XML 1.0 does not allow
    /// (control characters but tab and line breaks, U+FFFE, U+FFFF) as `?`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "?"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
