import Foundation

/// A bar chart of values along a linear axis (a spectrum's lines along frequency), drawn with characters for
/// a terminal, in ``TextChart``'s layout: a scale on the left (the largest value, one near the middle, 0), one column
/// per run of values (the run's largest, so a narrow peak is never averaged away), bars in eighths of a
/// character, the axis with its ticks and labels below, and marks (the peaks) on a row of their own.
struct TextBarChart {
    /// The values' unit, e.g. `mg`.
    let unit: String
    /// The axis's unit, e.g. `Hz`.
    let axisUnit: String

    private static let labelWidth = 10
    private static let eighths: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The chart as `height + 3` lines (`height + 2` without marks) of at most `width` characters.
    /// - Parameters:
    ///   - values: value k at k × `spacing` on the axis (negative and non-finite values count as 0).
    ///   - spacing: the axis distance between neighbouring values (> 0).
    ///   - marks: positions on the axis to mark with `▲` (e.g. the peaks' frequencies), under the chart.
    ///   - marksTitle: the marks row's name in the scale's column.
    func render(_ values: [Double], spacing: Double, marks: [Double] = [], marksTitle: String = "", width: Int, height: Int) -> [String] {
        let rows = max(height, 2)
        let columns = max(min(width - Self.labelWidth - 1, values.count), 1)
        let span = Double(values.count) * spacing
        var tops = [Double](repeating: 0, count: columns)
        for (index, value) in values.enumerated() where value.isFinite && value > 0 {
            let column = index * columns / max(values.count, 1)
            tops[column] = max(tops[column], value)
        }
        let highest = tops.max() ?? 0
        let scale = highest > 0 ? highest : 1
        var lines: [String] = []
        for row in 0..<rows {
            let level = rows - 1 - row  // eighths below this row's bottom: level × 8
            let cells = tops.map { top -> Character in
                let fill = Int((top / scale * Double(rows * 8)).rounded()) - level * 8
                return Self.eighths[min(max(fill, 0), 8)]
            }
            let label = row == 0 ? Self.number(scale) + " " + unit : row == rows / 2 ? Self.number(scale * Double(rows - row) / Double(rows)) : ""
            lines.append(Self.padded(label) + "│" + String(cells))
        }
        // The axis: ticks at round steps at least 8 columns apart, labelled below.
        let step = Self.roundStep(atLeast: span * 8 / Double(columns))
        var axis = [Character](repeating: "─", count: columns)
        var labels = [Character](repeating: " ", count: columns + 1)
        var free = 0
        var index = 0
        while span > 0, Double(index) * step < span {
            let tick = Double(index) * step
            index += 1
            let column = Int(tick / span * Double(columns))
            let text = Array(step >= 1 && tick < 1e15 ? String(Int(tick.rounded())) : String(format: "%g", tick))
            if column < columns { axis[column] = "┴" }
            if column >= free, column + text.count <= labels.count {
                labels.replaceSubrange(column..<(column + text.count), with: text)
                free = column + text.count + 1
            }
        }
        lines.append(Self.padded("0") + "└" + String(axis))
        if !marks.isEmpty {
            var row = [Character](repeating: " ", count: columns)
            for mark in marks where mark.isFinite && mark >= 0 && span > 0 {
                row[Int(min(mark / span * Double(columns), Double(columns - 1)))] = "▲"
            }
            lines.append(Self.padded(marksTitle) + " " + String(row))
        }
        lines.append(String(repeating: " ", count: Self.labelWidth + 1) + String(labels).trimmingTrailingBlanks() + " " + axisUnit)
        return lines
    }

    /// `text` right-aligned in the scale's column.
    private static func padded(_ text: String) -> String {
        String(repeating: " ", count: max(labelWidth - text.count, 0)) + text
    }

    /// A value in at most 9 characters with 4 significant digits, as ``TextChart/format(_:)`` without its sign.
    static func number(_ value: Double) -> String {
        let text = TextChart.format(value)
        return text.hasPrefix("+") ? String(text.dropFirst()) : text
    }

    /// The smallest of 1, 2 and 5 times a power of ten that is at least `minimum` (> 0).
    static func roundStep(atLeast minimum: Double) -> Double {
        guard minimum.isFinite, minimum > 0 else { return 1 }
        var power = 1.0
        while power > minimum { power /= 10 }
        while power * 10 <= minimum { power *= 10 }
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= minimum } ?? 10 * power
    }
}

extension String {
    /// The text without the spaces at its end.
    fileprivate func trimmingTrailingBlanks() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
