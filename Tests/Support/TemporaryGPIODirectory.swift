import Foundation

/// A temporary GPIO directory of simulated chips, for tests that must never touch /dev.
///
/// Each chip is a directory `gpiochipN` with `label` and `lines`, and per line `lineK/` with
/// an optional `name` and `consumer`; morsetorch writes the line's physical level to
/// `lineK/value`. Pass `path` to `GPIOChipDirectory(path:standIn: SimulatedChips())`, or
/// `environment` to the `morsetorch-simulated-gpio` test build of the tool. Removed by `remove()` or when the value is deinitialized.
public final class TemporaryGPIODirectory: Sendable {
  /// The directory holding the chips.
  public let path: String

  /// An empty GPIO directory.
  public init() throws {
    path = FileManager.default.temporaryDirectory.path + "/morsetorch-gpio-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    remove()
  }

  /// What the `morsetorch-simulated-gpio` process needs to use these chips.
  public var environment: [String: String] {
    ["MORSETORCH_GPIO_DIR": path]
  }

  /// Adds chip `gpiochipN` with `label` and `lines` lines; `names` names some of them, and
  /// `consumers` puts some in use by someone else.
  public func addChip(
    _ number: Int, label: String, lines: Int, names: [Int: String] = [:],
    consumers: [Int: String] = [:]
  ) throws {
    let chip = chipPath(number)
    try FileManager.default.createDirectory(atPath: chip, withIntermediateDirectories: true)
    try Data((label + "\n").utf8).write(to: URL(fileURLWithPath: chip + "/label"))
    try Data("\(lines)\n".utf8).write(to: URL(fileURLWithPath: chip + "/lines"))
    for offset in 0..<lines {
      let line = chip + "/line\(offset)"
      try FileManager.default.createDirectory(atPath: line, withIntermediateDirectories: true)
      if let name = names[offset] {
        try Data((name + "\n").utf8).write(to: URL(fileURLWithPath: line + "/name"))
      }
      if let consumer = consumers[offset] {
        try Data((consumer + "\n").utf8).write(to: URL(fileURLWithPath: line + "/consumer"))
      }
    }
  }

  /// The chip's directory.
  public func chipPath(_ number: Int) -> String { path + "/gpiochip\(number)" }

  /// The physical level morsetorch last drove on a line ("1\n", "0\n"), or nil if never.
  public func value(chip number: Int, line offset: Int) -> String? {
    guard let data = FileManager.default.contents(atPath: valuePath(chip: number, line: offset))
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// Where a line's value is written.
  public func valuePath(chip number: Int, line offset: Int) -> String {
    chipPath(number) + "/line\(offset)/value"
  }

  /// Deletes the whole temporary tree; safe to call more than once.
  public func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
