/// Rows of cells as aligned lines: every column as wide as its widest cell (the last one not
/// padded), two spaces apart.
enum TextTable {
  static func aligned(_ rows: [[String]]) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      row.indices.map { column in
        column == row.count - 1
          ? row[column]
          : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
      }.joined(separator: "  ")
    }
  }
}
