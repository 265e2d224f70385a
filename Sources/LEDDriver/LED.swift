import LinuxSystem

/// One LED under the class directory.
public struct LED: Sendable, Hashable {
  /// The directory entry's name, like `white:flash`.
  public let name: String
  /// The LED's directory (the class directory entry, usually a symlink into /sys/devices).
  public let path: String

  static let brightnessAttribute = "brightness"
  static let maxBrightnessAttribute = "max_brightness"
  static let triggerAttribute = "trigger"

  /// The path of `attribute` (like `brightness`) in this LED's directory.
  public func attributePath(_ attribute: String) -> String { path + "/" + attribute }

  /// The content of `attribute`, without the trailing newline.
  func readAttribute(_ attribute: String) throws(LEDError) -> String {
    let path = attributePath(attribute)
    do throws(Errno) {
      var text = String(decoding: try FileSystem.readFile(path), as: UTF8.self)
      while text.last?.isNewline == true { text.removeLast() }
      return text
    } catch {
      throw LEDError(error, operation: "read", path: path)
    }
  }

  /// Replaces the content of `attribute` with `bytes`, in one write.
  func writeAttribute(_ attribute: String, _ bytes: [UInt8]) throws(LEDError) {
    let path = attributePath(attribute)
    do throws(Errno) {
      try FileSystem.replaceFile(path, with: bytes)
    } catch {
      throw LEDError(error, operation: "write", path: path)
    }
  }

  /// Whether this user may write `attribute`, as `access(2)` with `W_OK` says.
  func isAttributeWritable(_ attribute: String) -> Bool {
    FileSystem.isWritable(attributePath(attribute))
  }
}

extension LED {
  /// A decimal attribute like `brightness` ("255"); nil for anything else.
  static func parseDecimal(_ text: String) -> Int? {
    let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
    let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
    return Int(text[start..<end])
  }

  /// The active trigger in a `trigger` attribute: the word in [brackets] ("none [timer]
  /// heartbeat" → "timer"); a single word without brackets, as in a plain file, is taken as
  /// active. Nil for anything else.
  static func parseActiveTrigger(_ text: String) -> String? {
    let words = text.split(whereSeparator: { $0.isWhitespace })
    for word in words where word.count > 2 && word.hasPrefix("[") && word.hasSuffix("]") {
      return String(word.dropFirst().dropLast())
    }
    if words.count == 1, let only = words.first, !only.contains("[") { return String(only) }
    return nil
  }
}
