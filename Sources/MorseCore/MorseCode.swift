/// The elements of one character or prosign, e.g. "..." for S.
public struct MorseCode: Sendable, Hashable, CustomStringConvertible {
  /// The dots and dashes, in sending order.
  public let elements: [MorseElement]

  /// A code made of these elements.
  public init(_ elements: [MorseElement]) {
    self.elements = elements
  }

  /// A code read from dots and dashes like ".-"; nil if empty or anything else is in it.
  public init?(_ text: String) {
    var elements: [MorseElement] = []
    elements.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "."): elements.append(.dot)
      case UInt8(ascii: "-"): elements.append(.dash)
      default: return nil
      }
    }
    guard !elements.isEmpty else { return nil }
    self.elements = elements
  }

  /// The code as dots and dashes, e.g. ".-".
  /// How a group of dots and dashes with no meaning is shown in decoded text: `[......]`
  /// (by `receive` and `decode` alike).
  public static func shownUnknown(_ group: String) -> String { "[\(group)]" }

  public var description: String {
    String(
      decoding: elements.map { $0 == .dot ? UInt8(ascii: ".") : UInt8(ascii: "-") },
      as: UTF8.self)
  }

  /// This code followed directly by `other`, with no letter gap (how prosigns are built).
  public func joined(with other: MorseCode) -> MorseCode {
    MorseCode(elements + other.elements)
  }

  /// A code from a table literal of "." and "-" (spot-checked against ITU in the tests).
  init(table text: String) {
    self.elements = text.map { $0 == "." ? .dot : .dash }
  }
}
