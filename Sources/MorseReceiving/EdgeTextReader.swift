import Instants

/// Reads edge text (`EdgeText`) as it comes, in blocks cut anywhere (as `read(2)` returns
/// them): each line is read once its newline has come. A blank line or a `#` comment is
/// skipped as it goes by, however long, and never kept; an edge line is kept until its
/// newline, up to `EdgeText.lineLimit` bytes.
public struct EdgeTextReader: Sendable {
  /// What the bytes of the current line so far make it.
  private enum LineKind: Sendable {
    /// Only spaces and tabs so far.
    case blank
    /// A `#` after them: skipped to its newline.
    case comment
    /// Anything else: kept, to be parsed at its newline.
    case edge
  }

  private var block: [UInt8] = []
  private var position = 0
  private var line: [UInt8] = []
  private var kind = LineKind.blank
  /// The lines ended so far.
  private var number = 0
  private var previous: MorseEdge?
  private var isEnded = false

  /// A reader at the start of the input.
  public init() {}

  /// Adds the next bytes of the input, cut anywhere (what `next()` has not read yet is kept).
  public mutating func append(_ bytes: some Collection<UInt8>) {
    block.removeFirst(position)
    block.append(contentsOf: bytes)
    position = 0
  }

  /// Says the input has ended: a last line without a newline is read too.
  public mutating func end() {
    isEnded = true
  }

  /// The next edge in the input so far; nil once it is all read (until more is appended).
  /// Throws for a line that is not an edge, naming it by its number.
  public mutating func next() throws(EdgeText.Problem) -> MorseEdge? {
    while position < block.count {
      if kind == .comment {
        // Straight to the newline, however far: nothing of a comment is kept.
        guard let newline = block[position...].firstIndex(of: Self.newline) else {
          position = block.count
          break
        }
        position = newline
      }
      let byte = block[position]
      position += 1
      if byte == Self.newline {
        if let edge = try endLine() { return edge }
      } else {
        try take(byte)
      }
    }
    return isEnded && kind != .blank ? try endLine() : nil
  }

  private mutating func take(_ byte: UInt8) throws(EdgeText.Problem) {
    switch kind {
    case .blank:
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { return }
      kind = byte == UInt8(ascii: "#") ? .comment : .edge
      if kind == .edge { line.append(byte) }
    case .comment:
      return
    case .edge:
      guard line.count < EdgeText.lineLimit else {
        throw EdgeText.tooLong(line, number: number + 1)
      }
      line.append(byte)
    }
  }

  /// Ends the current line: its edge, if it is one.
  private mutating func endLine() throws(EdgeText.Problem) -> MorseEdge? {
    number += 1
    defer {
      kind = .blank
      line.removeAll(keepingCapacity: true)
    }
    guard kind == .edge else { return nil }
    let text = String(decoding: line, as: UTF8.self)
    guard let edge = try EdgeText.parse(text[...], number: number, after: previous) else {
      return nil
    }
    previous = edge
    return edge
  }

  private static let newline = UInt8(ascii: "\n")
}
