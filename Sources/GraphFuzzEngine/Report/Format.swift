/// Formatting shared by reports.
package enum Format {
    package static func seconds(_ value: Double) -> String {
        let milliseconds = (value * 1000).rounded()
        return String(Int(milliseconds) / 1000) + "." + pad(Int(milliseconds) % 1000, 3) + "s"
    }

    package static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
    }

    /// Left-aligned columns separated by two spaces.
    package static func table(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = Array(repeating: 0, count: first.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = Swift.max(widths[i], cell.count) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
