/// A scrolling line chart of one value over time, drawn with characters for a terminal: the newest
/// value at the right edge, a scale on the left (the visible minimum, middle and maximum), one column per
/// slice of the window (the slice's last value), and a vertical stroke joining neighbouring columns.
struct TextChart {
    /// What the chart shows, e.g. `x`.
    let title: String
    /// The value's unit, e.g. `rad/s`.
    let unit: String
    /// How many seconds of history the width shows.
    let window: Double

    /// The chart as `height + 1` lines of at most `width` characters: a title line with the newest value,
    /// then the plot.
    /// - Parameters:
    ///   - points: (time, value) pairs, time in seconds on the same clock as `now`, any order.
    ///   - now: the right edge's time.
    func render(_ points: [(time: Double, value: Double)], now: Double, width: Int, height: Int) -> [String] {
        let labelWidth = 10
        let columns = max(width - labelWidth - 1, 4)
        let rows = max(height, 2)
        var slices = [Double?](repeating: nil, count: columns)
        for point in points.sorted(by: { $0.time < $1.time }) where point.value.isFinite {
            let position = (point.time - (now - window)) / window * Double(columns)
            guard position >= 0, position < Double(columns) else { continue }
            slices[Int(position)] = point.value
        }
        let visible = slices.compactMap { $0 }
        let newest = points.max { $0.time < $1.time }?.value
        let head = "\(title) (\(unit))  " + (newest.map { "now \(Self.format($0))" } ?? "no data")
        guard var low = visible.min(), var high = visible.max() else {
            return [head] + Array(repeating: String(repeating: " ", count: labelWidth) + "│", count: rows)
        }
        if high - low < 1e-9 {  // a flat line sits in the middle
            low -= max(abs(low) * 0.01, 1e-3)
            high += max(abs(high) * 0.01, 1e-3)
        }
        func row(of value: Double) -> Int { Int(((high - value) / (high - low) * Double(rows - 1)).rounded()) }
        var grid = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        var previous: Int?
        for (column, value) in slices.enumerated() {
            guard let value else { previous = nil; continue }
            let current = row(of: value)
            if let previous, abs(previous - current) > 1 {
                for fill in (min(previous, current) + 1)..<max(previous, current) { grid[fill][column] = "│" }
            }
            grid[current][column] = "•"
            previous = current
        }
        var lines = [head]
        for (index, cells) in grid.enumerated() {
            let label: String =
                index == 0 ? Self.format(high) : index == rows - 1 ? Self.format(low)
                : index == (rows - 1) / 2 ? Self.format((high + low) / 2) : ""
            let padded = String(repeating: " ", count: max(labelWidth - label.count, 0)) + label
            lines.append(padded + "│" + String(cells))
        }
        return lines
    }

    /// A value in at most 9 characters with 4 significant digits: `+0.1234`, `-12.35`, `+1.2e+04`.
    static func format(_ value: Double) -> String {
        let magnitude = abs(value)
        let sign = value < 0 ? "-" : "+"
        if magnitude != 0 && (magnitude >= 1e5 || magnitude < 1e-3) {
            var exponent = 0
            var mantissa = magnitude
            while mantissa >= 10 { mantissa /= 10; exponent += 1 }
            while mantissa < 1 { mantissa *= 10; exponent -= 1 }
            return "\(sign)\(fixed(mantissa, places: 1))e\(exponent)"
        }
        let places = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3 : 4
        return sign + fixed(magnitude, places: places)
    }

    private static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let units = Int((value * scale).rounded())
        let whole = units / Int(scale)
        guard places > 0 else { return String(whole) }
        var digits = String(units % Int(scale))
        while digits.count < places { digits = "0" + digits }
        return "\(whole).\(digits)"
    }
}
