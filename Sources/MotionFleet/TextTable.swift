/// A table for a terminal: every column but the last padded to its widest cell and two spaces, one line
/// per row, the first row the header. Every cell is escaped (``DeviceText/escaped(_:)``): a cell holding a
/// line break or a terminal control sequence can neither draw a row of its own nor move the cursor.
enum TextTable {
    /// The rows as text, each line ending in a newline. Rows have the header's number of cells.
    static func render(_ rows: [[String]]) -> String {
        let cells = rows.map { $0.map(DeviceText.escaped) }
        guard let header = cells.first else { return "" }
        let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count + 2)
            }.joined()
        }.joined(separator: "\n") + "\n"
    }
}
