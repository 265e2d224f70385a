import Glibc

/// A shell-style pattern for names (`*`, `?`, `[...]`, a backslash quoting the next character),
/// matched with fnmatch(3) as the shell matches a file name: `/` is an ordinary character, and
/// a leading dot needs no special match.
public struct NamePattern: Sendable, Hashable {
  /// The pattern as written.
  public let text: String

  /// The pattern `text`.
  public init(_ text: String) {
    self.text = text
  }

  /// Whether `text` has a character that makes it a pattern rather than a plain name.
  public static func isPattern(_ text: String) -> Bool {
    text.contains { "*?[\\".contains($0) }
  }

  /// Whether `name` matches.
  public func matches(_ name: String) -> Bool {
    fnmatch(text, name, 0) == 0
  }
}
